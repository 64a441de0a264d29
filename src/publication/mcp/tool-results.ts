/**
 * Tool answers and failures as MCP tool results. A success carries `structuredContent` and, for
 * clients that only read `content`, a text block: the one-line summary, then the same JSON (as
 * the MCP specification recommends). A failure is an `isError` result, never a protocol error,
 * whose text is what the REST problem would say: status, detail, and each `errors` entry as
 * `name: detail`, so an agent can fix the argument and call again.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ProblemError } from '../problems.js';
import type { ToolAnswer } from './tool-definition.js';

/** What to try next, per kind of failure an agent can do something about. */
const HINTS: Partial<Record<ProblemError['kind'], string>> = {
  'bad-request': 'Fix the arguments named above and call the tool again.',
  'not-found': 'list_databases and get_schema show which databases and tables exist.',
  'too-many-statements': 'Ask for fewer rows or relations per call.',
  timeout: 'Narrow the request (filters, smaller limit, fewer relations) and try again.',
  'database-unavailable': 'Try again later.',
};

export function answerResult(answer: ToolAnswer): CallToolResult {
  return {
    content: [{ type: 'text', text: `${answer.summary}\n${JSON.stringify(answer.structured)}` }],
    structuredContent: answer.structured,
  };
}

export function problemResult(problem: ProblemError): CallToolResult {
  const lines = [`${problem.title} (${problem.status}): ${problem.detail}`];
  for (const e of problem.errors ?? []) lines.push(`- ${e.name}: ${e.detail}`);
  const hint = HINTS[problem.kind];
  if (hint) lines.push(hint);
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true };
}
