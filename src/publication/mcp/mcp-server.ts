/**
 * Builds the MCP server for one HTTP request (the endpoint is stateless: nothing outlives the
 * request). Registers the tool catalogue, read-only, and turns every failure of a tool, typed or
 * not, into an isError result through the same mapping the REST error handler uses.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { API_NAME, API_VERSION } from '../operations/discovery.js';
import type { ProblemError } from '../problems.js';
import type { PublicationContext } from '../services/context.js';
import type { McpTool } from './tool-definition.js';
import { answerResult, problemResult } from './tool-results.js';

const INSTRUCTIONS = [
  'Read-only access to published oral-history archives (interviews with transcriptions, informants, images, audiovisual assets, thesaurus tables ts_*).',
  'Start with list_databases and get_schema; read rows with search_records and get_record; find words with fulltext_search, then read the passages with get_text_fragment or get_av_fragment.',
  'Multilingual tables hold one row per record and language (lang such as lg-spa); pass lang to get one language.',
].join(' ');

export interface McpServerOptions {
  ctx: PublicationContext;
  tools: readonly McpTool[];
  /** Maps anything a tool throws to a problem (and logs unexpected faults), as REST does. */
  asProblem(err: unknown): ProblemError;
}

export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: API_NAME, version: API_VERSION },
    { instructions: INSTRUCTIONS, capabilities: { tools: {} } },
  );
  for (const tool of options.tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      async (args) => {
        try {
          return answerResult(await tool.run(options.ctx, args));
        } catch (err) {
          return problemResult(options.asProblem(err));
        }
      },
    );
  }
  return server;
}
