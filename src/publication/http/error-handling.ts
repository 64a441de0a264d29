/**
 * The single place where failures become HTTP answers: typed errors to their problem, engine
 * outages to 503, Fastify's own client errors to 4xx problems, anything else to a logged 500.
 * Also the not-found handler that tells 404 from 405.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BREAKER_RETRY_MS } from '../../common/circuit-breaker.js';
import { DatabaseUnavailable, QueryTimeout, StatementBudgetExceeded } from '../db/types.js';
import { MAX_PARAM_LENGTH } from '../operations/operation-router.js';
import { ProblemError, type ProblemKind, segmentTooLong, toProblem } from '../problems.js';
import type { MethodGuard } from './method-guard.js';
import { pathOf } from './query-params.js';

export function sendProblem(request: FastifyRequest, reply: FastifyReply, err: ProblemError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply
    .code(err.status)
    .type('application/problem+json; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .send(JSON.stringify(toProblem(err, pathOf(request.url))));
}

const FASTIFY_KINDS: Record<number, ProblemKind> = {
  400: 'bad-request',
  404: 'not-found',
  405: 'method-not-allowed',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
};

/** Maps any thrown value to a ProblemError; unexpected faults are logged here, once. */
export function asProblem(request: FastifyRequest, err: unknown): ProblemError {
  if (err instanceof ProblemError) return err;
  if (err instanceof DatabaseUnavailable) {
    request.log.warn({ db: err.db, err: err.message }, 'database unavailable');
    // The breaker is open now (db/circuit-breaker.ts): it lets a probe through after its delay.
    const retryAfter = Math.max(1, Math.ceil(BREAKER_RETRY_MS / 1000));
    return new ProblemError(
      'database-unavailable',
      `database "${err.db}" is unavailable right now; try again in ${retryAfter} s`,
      undefined,
      { 'Retry-After': String(retryAfter) },
    );
  }
  if (err instanceof QueryTimeout) {
    return new ProblemError('timeout', `the request took longer than the server allows; ${err.message}`);
  }
  if (err instanceof StatementBudgetExceeded) {
    return new ProblemError(
      'too-many-statements',
      `${err.message}; ask for fewer rows, relations or batch queries at once`,
    );
  }
  const fe = err as FastifyError;
  // A client error (414), not a fault; its message would quote the whole path.
  if (fe?.code === 'FST_ERR_MAX_PARAM_LENGTH') return segmentTooLong(MAX_PARAM_LENGTH);
  if (fe?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    // Fastify's message does not say what would fit.
    const limit = request.routeOptions?.bodyLimit;
    return new ProblemError(
      'payload-too-large',
      limit
        ? `Request body is too large: at most ${limit} bytes (${Math.round(limit / 1024)} KiB) are accepted here`
        : fe.message,
    );
  }
  const kind = typeof fe?.statusCode === 'number' ? FASTIFY_KINDS[fe.statusCode] : undefined;
  if (kind) {
    return new ProblemError(
      kind,
      fe.message,
      kind === 'bad-request'
        ? [
            {
              name: fe.code === 'FST_ERR_BAD_URL' ? 'url' : 'body',
              in: fe.code === 'FST_ERR_BAD_URL' ? 'path' : 'body',
              detail: fe.message,
            },
          ]
        : undefined,
    );
  }
  request.log.error({ err }, 'unexpected error');
  return new ProblemError('internal', 'the server failed to answer this request; it has been logged');
}

export function installErrorHandling(app: FastifyInstance, guard: MethodGuard): void {
  app.setErrorHandler((err, request, reply) => sendProblem(request, reply, asProblem(request, err)));

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const allowed = guard.allowed(path);
    // No route for this path, or a route that itself decided there is nothing here (callNotFound).
    if (allowed.length === 0 || allowed.includes(request.method)) {
      return sendProblem(request, reply, new ProblemError('not-found', `no route ${request.method} ${path}`));
    }
    const allow = allowed.join(', ');
    if (request.method === 'OPTIONS') return reply.code(204).header('Allow', allow).send();
    return sendProblem(
      request,
      reply,
      new ProblemError(
        'method-not-allowed',
        `${request.method} is not allowed on ${path}; use ${allow}`,
        undefined,
        {
          Allow: allow,
        },
      ),
    );
  });
}
