/**
 * POST /batch: up to 20 GET data queries answered in one response, each with its own status and
 * either the operation's envelope (`data`) or its problem. The queries run through the read
 * operations directly (operations/batch.ts), not through HTTP again; this route adds what only
 * the edge knows: the content-type check, the rate-limit charge of one token per query, and the
 * REST mapping of failures to problems, so each result is what a direct GET would answer.
 */
import { errorCodes, type FastifyInstance } from 'fastify';
import { asProblem } from '../http/error-handling.js';
import { requestContext } from '../http/request-context.js';
import { sendJson } from '../http/send-json.js';
import { runBatch } from '../operations/batch.js';
import { createOperationRouter } from '../operations/operation-router.js';
import { READ_OPERATION_ALIASES, READ_OPERATIONS } from '../operations/read-operations.js';
import { ProblemError, toProblem } from '../problems.js';
import { parseBatchRequest } from '../query/batch-request.js';

export async function batchRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const match = createOperationRouter([...READ_OPERATIONS, ...READ_OPERATION_ALIASES]);
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
    const results = await runBatch(requestContext(request, { rowsAsJson: true }), queries, match, {
      problemOf: (err, instance) => toProblem(asProblem(request, err), instance),
      // The errors Fastify raises for the same URL, mapped by the same handler.
      routeFault: (fault, url) => {
        if (fault.kind === 'bad-url') return new errorCodes.FST_ERR_BAD_URL(url);
        if (fault.kind === 'param-too-long') {
          return new errorCodes.FST_ERR_MAX_PARAM_LENGTH(`${ctx.config.basePath}${fault.path}`);
        }
        // The wording of the not-found handler (error-handling.ts) for a GET no route serves.
        return new ProblemError('not-found', `no route GET ${url.split('?')[0]}`);
      },
    });
    return sendJson(request, reply, { results, meta: {} }, { maxAge: 0, cacheable: false });
  });
}
