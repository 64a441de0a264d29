/**
 * Builds the work API's Fastify instance: one POST route at the base path (with or without a
 * trailing slash) that hands the raw body to the dispatcher, and envelope answers for everything
 * else (unknown paths, oversized bodies, unexpected errors). Every answer carries X-Request-Id,
 * the same UUID as its `request_id` and its log lines.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import type { WorkConfig } from './config.js';
import type { ActionRegistry } from './dispatch/action-registry.js';
import { dispatchRqo } from './dispatch/dispatch-rqo.js';
import { errorEnvelope, successEnvelope } from './dispatch/envelope.js';
import { type ErrorCode, WorkError } from './dispatch/error-registry.js';
import type { Ontology } from './ontology/load-ontology.js';
import type { SqlClient } from './store/sql-client.js';

export interface WorkAppDeps {
  config: WorkConfig;
  db: SqlClient;
  ontology: Ontology;
  actions: ActionRegistry;
}

/** JSON RQOs are small; uploads will get their own multipart limit (UPLOAD_MAX_BYTES). */
const RQO_BODY_LIMIT = 4 * 1024 * 1024;

function sendError(reply: FastifyReply, code: ErrorCode, message?: string) {
  const { status, body } = errorEnvelope(reply.request.id, code, message);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

export async function buildWorkApp(deps: WorkAppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: { level: config.logLevel },
    genReqId: () => randomUUID(),
    // Log lines name the id as the envelope does, so one grep finds both.
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: RQO_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
  });

  // The dispatcher parses the body itself, so malformed JSON is its registered refusal and any
  // content type a browser client sends is read the same way.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });

  app.post(config.basePath, async (request, reply) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    try {
      const result = await dispatchRqo(deps.actions, raw, {
        requestId: request.id,
        session: undefined,
        db: deps.db,
        ontology: deps.ontology,
        log: request.log,
      });
      return reply
        .type('application/json; charset=utf-8')
        .send(successEnvelope(request.id, result.data, result.extensions, result.notices));
    } catch (err) {
      if (err instanceof WorkError) return sendError(reply, err.code, err.message);
      throw err;
    }
  });

  app.setNotFoundHandler((_request, reply) => sendError(reply, 'http.not_found'));

  app.setErrorHandler((err: { code?: string; statusCode?: number }, request, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 'http.body_too_large');
    request.log.error({ err }, 'unexpected error');
    return sendError(reply, 'internal.unexpected');
  });

  return app;
}
