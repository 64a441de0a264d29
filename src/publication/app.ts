/**
 * Builds the publication Fastify instance: cross-cutting plugins and hooks first (request ids,
 * timing, compression, errors), then the routes under BASE_PATH. Static routes are registered
 * before the `/:db/...` family; the router also prefers static segments, so a database called
 * `health` never shadows `/health`.
 */
import { randomUUID } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import './fastify-types.js';
import { installApiKeyGuard } from './http/api-key-guard.js';
import { clientErrorHandler } from './http/client-errors.js';
import { installCloseOnShutdown } from './http/close-connections.js';
import { installCors, installCorsVary } from './http/cors.js';
import { asProblem, installErrorHandling, sendProblem } from './http/error-handling.js';
import { MethodGuard } from './http/method-guard.js';
import { installRateLimit } from './http/rate-limit.js';
import { installRequestBudget } from './http/request-budget.js';
import { MAX_PARAM_LENGTH } from './operations/operation-router.js';
import { batchRoutes } from './routes/batch-routes.js';
import { discoveryRoutes } from './routes/discovery-routes.js';
import { docsRoutes } from './routes/docs-routes.js';
import { fragmentsRoutes } from './routes/fragments-routes.js';
import { healthRoutes } from './routes/health-routes.js';
import { mcpRoutes } from './routes/mcp-routes.js';
import { openApiRoutes } from './routes/openapi-routes.js';
import { recordsRoutes } from './routes/records-routes.js';
import { searchRoutes } from './routes/search-routes.js';
import type { PublicationContext } from './services/context.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildPublicationApp(ctx: PublicationContext): Promise<FastifyInstance> {
  const level = ctx.config.logLevel;
  const app = Fastify({
    logger:
      level === 'silent'
        ? false
        : { level, redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] },
    // An incoming X-Request-Id is echoed when it is a sane token; otherwise we mint one.
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Shared with the batch matcher, so a batch query fails where the same direct GET fails.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    return503OnClosing: true,
    // Malformed URLs, over-long path segments and unparsable bodies are the client's fault:
    // answer with a problem.
    frameworkErrors: (err, request, reply) => sendProblem(request, reply, asProblem(request, err)),
    // Refusals of Node's parser (431, 400, 408) have no request yet; still a problem+json.
    clientErrorHandler,
  });
  app.decorate('ctx', ctx);

  const guard = new MethodGuard();
  app.addHook('onRoute', (route) => guard.add(route.method, route.url));
  installErrorHandling(app, guard);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  // CORS, then the rate limit, before the API-key guard: refusals (429, 401) still carry CORS
  // headers a page can read, and guessing keys costs tokens like any other request.
  installCors(app, ctx.config.corsOrigin);
  installRateLimit(app, ctx.config);
  installApiKeyGuard(app, ctx.config.apiKeys);
  installCorsVary(app, ctx.config.corsOrigin);
  installCloseOnShutdown(app);
  installRequestBudget(app, ctx.config.requestTimeoutMs, ctx.config.requestMaxStatements);
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-Response-Time', `${reply.elapsedTime.toFixed(2)}ms`);
    return payload;
  });

  await app.register(compress, {
    encodings: ['br', 'gzip', 'deflate'],
    // Quality 4 keeps brotli cheaper than gzip -6 while still smaller on JSON.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });

  await app.register(
    async (api) => {
      await api.register(discoveryRoutes);
      await api.register(openApiRoutes);
      await api.register(docsRoutes);
      await api.register(healthRoutes);
      await api.register(batchRoutes);
      await api.register(recordsRoutes);
      await api.register(fragmentsRoutes);
      await api.register(searchRoutes);
      if (ctx.config.mcpEnabled) await api.register(mcpRoutes);
    },
    { prefix: ctx.config.basePath },
  );
  if (ctx.config.basePath !== '') {
    // Browsers ask for /favicon.ico at the root whatever BASE_PATH is.
    app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
  }
  return app;
}
