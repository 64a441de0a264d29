/**
 * POST /batch without a second trip through HTTP: each query's path is matched to its read
 * operation (operation-router.ts), its params become the very parameter map a direct GET of
 * that path would parse, and the operation runs in the batch request's own context, so its
 * statements charge the batch's statement budget and deadline directly. Queries run as many at
 * a time as the engine has connections (MariaDB pool) or workers (SQLite): more would only
 * queue in the pool, fewer would leave it idle. Each result carries the status and body the
 * direct request would have answered (timing aside); the edge supplies the mapping of failures
 * to problems, which is the REST error handler's.
 */
import type { PublicationConfig } from '../config.js';
import { type Problem, ProblemError, toProblem, ValidationError } from '../problems.js';
import { type BatchQuery, batchQueryString } from '../query/batch-request.js';
import { parseQueryString } from '../query/query-string.js';
import type { PublicationContext } from '../services/context.js';
import type { Envelope } from './operation.js';
import type { RouteMatch } from './operation-router.js';

export interface BatchResult {
  id: string;
  status: number;
  data?: Envelope;
  problem?: Problem;
}

/** What only the HTTP edge knows: how a direct request's failures look. */
export interface BatchEdge {
  /** The problem a direct request failing with `err` answers (unexpected faults are logged). */
  problemOf(err: unknown, instance: string): Problem;
  /** The error a direct GET of `url` raises when the router finds no operation for it. */
  routeFault(match: Exclude<RouteMatch, { kind: 'operation' }>, url: string): unknown;
}

export function batchParallelism(config: PublicationConfig): number {
  return config.driver === 'sqlite' ? config.sqlite.workers : config.mariadb.poolMax;
}

async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>) {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return results;
}

/** The envelope with `meta.response_time_ms` last, as sendJson writes it for a direct request. */
function withTiming(body: Envelope | undefined, startedAt: number): Envelope | undefined {
  if (body?.meta === undefined) return body;
  const { meta, ...rest } = body;
  const ms = Math.round((performance.now() - startedAt) * 100) / 100;
  return { ...rest, meta: { ...meta, response_time_ms: ms } };
}

/** The query string a direct GET would carry; JSON can hold what no URL can (a lone surrogate). */
function queryStringOf(q: BatchQuery, index: number): string {
  try {
    return batchQueryString(q.params);
  } catch (err) {
    if (!(err instanceof URIError)) throw err;
    const name = `queries[${index}].params`;
    throw new ValidationError([
      {
        name,
        in: 'body',
        detail: `${name} holds a string that is not well-formed Unicode (a lone surrogate)`,
      },
    ]);
  }
}

export async function runBatch(
  ctx: PublicationContext,
  queries: readonly BatchQuery[],
  match: (path: string) => RouteMatch,
  edge: BatchEdge,
): Promise<BatchResult[]> {
  const bp = ctx.config.basePath;
  const runOne = async (q: BatchQuery, index: number): Promise<BatchResult> => {
    const startedAt = performance.now();
    if (q.problem) {
      const problem = toProblem(new ProblemError('bad-request', q.problem.detail, [q.problem]), q.path);
      return { id: q.id, status: 400, problem };
    }
    try {
      const qs = queryStringOf(q, index);
      const found = match(q.path);
      if (found.kind !== 'operation') throw edge.routeFault(found, `${bp}${q.path}${qs ? `?${qs}` : ''}`);
      const answer = await found.operation.run(ctx, {
        params: found.params,
        query: () => parseQueryString(qs),
      });
      const data = withTiming(answer.body, startedAt);
      return data === undefined
        ? { id: q.id, status: answer.status ?? 200 }
        : { id: q.id, status: answer.status ?? 200, data };
    } catch (err) {
      const problem = edge.problemOf(err, `${bp}${q.path}`);
      return { id: q.id, status: problem.status, problem };
    }
  };
  return mapBounded(queries, batchParallelism(ctx.config), runOne);
}
