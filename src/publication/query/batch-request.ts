/**
 * The POST /batch body: 1..20 queries, each with a non-empty unique `id`, a `path` to a GET data
 * route (written without BASE_PATH, no query string) and optional `params` (string, number,
 * boolean or arrays of those; arrays become repeated keys, which is how filters are passed).
 * Structural faults reject the whole batch with a 400; a bad or forbidden path is answered as
 * that query's own 400 result, so one bad query does not break the others.
 */
import { type ParameterProblem, ProblemCollector } from '../problems.js';
import { clip } from './scalar-params.js';

export const MAX_BATCH_QUERIES = 20;
export const BATCH_FORBIDDEN_TARGETS = [
  '/docs',
  '/health',
  '/mcp',
  '/openapi.yaml',
  '/openapi.json',
  '/batch',
  '/browse',
];

type Scalar = string | number | boolean;

export interface BatchQuery {
  id: string;
  path: string;
  params: Record<string, Scalar | Scalar[]>;
  /** Set when this query cannot run; it is answered with a 400 problem of its own. */
  problem?: ParameterProblem;
}

const isScalar = (v: unknown): v is Scalar => ['string', 'number', 'boolean'].includes(typeof v);

function pathProblem(path: string, name: string, mcpPath: string): ParameterProblem | undefined {
  const bad = (detail: string): ParameterProblem => ({ name, in: 'body', detail });
  if (!path.startsWith('/')) return bad(`path must start with "/", got "${clip(path)}"`);
  if (path.includes('?') || path.includes('#'))
    return bad('path must not carry a query string; put parameters in params');
  const forbidden = [...BATCH_FORBIDDEN_TARGETS, mcpPath].find((t) => path === t || path.startsWith(`${t}/`));
  if (forbidden) return bad(`path may not target ${forbidden}; a batch runs GET data routes only`);
  return undefined;
}

export function parseBatchRequest(body: unknown, mcpPath = '/mcp'): BatchQuery[] {
  const p = new ProblemCollector();
  const queries = (body as { queries?: unknown } | null)?.queries;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    p.add(
      'body',
      'the body must be a JSON object like {"queries": [{"id": "a", "path": "/db/tables"}]}',
      'body',
    );
    p.throwIfAny();
  }
  if (!Array.isArray(queries)) {
    p.add('queries', 'queries must be an array of 1 to 20 queries', 'body');
    p.throwIfAny();
  }
  const list = queries as unknown[];
  if (list.length < 1 || list.length > MAX_BATCH_QUERIES) {
    p.add('queries', `queries must hold 1 to ${MAX_BATCH_QUERIES} queries, got ${list.length}`, 'body');
    p.throwIfAny();
  }
  const seen = new Set<string>();
  const out: BatchQuery[] = [];
  list.forEach((raw, i) => {
    const at = `queries[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      p.add(at, `${at} must be an object with id, path and optional params`, 'body');
      return;
    }
    const q = raw as Record<string, unknown>;
    const id = q.id;
    if (typeof id !== 'string' || id.trim() === '') {
      p.add(`${at}.id`, `${at}.id must be a non-empty string`, 'body');
      return;
    }
    if (seen.has(id)) p.add(`${at}.id`, `${at}.id "${clip(id)}" is used twice; ids must be unique`, 'body');
    seen.add(id);
    if (typeof q.path !== 'string') {
      p.add(`${at}.path`, `${at}.path must be a string such as "/my_db/tables/interview/records"`, 'body');
      return;
    }
    const params: BatchQuery['params'] = {};
    if (q.params !== undefined) {
      if (typeof q.params !== 'object' || q.params === null || Array.isArray(q.params)) {
        p.add(`${at}.params`, `${at}.params must be an object of parameter values`, 'body');
        return;
      }
      for (const [key, value] of Object.entries(q.params)) {
        if (isScalar(value) || (Array.isArray(value) && value.every(isScalar))) params[key] = value;
        else
          p.add(
            `${at}.params.${key}`,
            `${at}.params.${key} must be a string, number, boolean or an array of those`,
            'body',
          );
      }
    }
    out.push({ id, path: q.path, params, problem: pathProblem(q.path, `${at}.path`, mcpPath) });
  });
  p.throwIfAny();
  return out;
}

/** Query string of one batch query; arrays become repeated keys. */
export function batchQueryString(params: BatchQuery['params']): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
    }
  }
  return pairs.join('&');
}
