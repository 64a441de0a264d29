/**
 * POST /batch: runs up to 20 GET data queries in-process (through the same routes, validators
 * and hooks as a direct request), a few at a time, and answers each with its own status and
 * either the route's envelope (`data`) or its problem. All queries share the batch request's
 * statement budget and deadline (see request-budget.ts).
 */
import type { FastifyInstance } from 'fastify';
import { INTERNAL_HEADER } from '../http/request-budget.js';
import { sendJson } from '../http/send-json.js';
import { ProblemError, toProblem } from '../problems.js';
import { type BatchQuery, batchQueryString, parseBatchRequest } from '../query/batch-request.js';

/** Queries of one batch running at the same time (the pool is shared with other requests). */
const BATCH_PARALLELISM = 4;

interface BatchResult {
  id: string;
  status: number;
  data?: unknown;
  problem?: unknown;
}

async function mapBounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}

export async function batchRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  // Any content type reaches the handler, which answers a non-JSON one with a clear 400.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/batch', async (request, reply) => {
    const type = String(request.headers['content-type'] ?? '');
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new ProblemError('bad-request', 'POST /batch needs Content-Type: application/json', [
        { name: 'Content-Type', in: 'header', detail: `expected application/json, got "${type || 'none'}"` },
      ]);
    }
    const queries = parseBatchRequest(request.body, ctx.config.mcpPath);
    // One rate-limit token per query, all paid before any runs (the door already took one).
    await app.rateLimiter.chargeBatch(request, reply, queries.length);
    const apiKey = request.headers['x-api-key'];
    const run = async (q: BatchQuery): Promise<BatchResult> => {
      if (q.problem) {
        const problem = toProblem(new ProblemError('bad-request', q.problem.detail, [q.problem]), q.path);
        return { id: q.id, status: 400, problem };
      }
      const qs = batchQueryString(q.params);
      const res = await app.inject({
        method: 'GET',
        url: `${ctx.config.basePath}${q.path}${qs ? `?${qs}` : ''}`,
        headers: {
          [INTERNAL_HEADER]: app.internalToken,
          'x-request-id': `${request.id}.${q.id}`.replace(/[^A-Za-z0-9._:-]/g, '_').slice(0, 128),
          ...(typeof apiKey === 'string' ? { 'x-api-key': apiKey } : {}),
        },
      });
      const body = res.body === '' ? undefined : JSON.parse(res.body);
      return res.statusCode < 400
        ? { id: q.id, status: res.statusCode, data: body }
        : { id: q.id, status: res.statusCode, problem: body };
    };
    const results = await mapBounded(queries, BATCH_PARALLELISM, run);
    return sendJson(request, reply, { results, meta: {} }, { maxAge: 0, cacheable: false });
  });
}
