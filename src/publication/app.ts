/**
 * Builds the publication Fastify instance: the edge first (one onRequest and one onSend hook:
 * request ids, CORS, rate limit, API keys, budget, timing, compression; http/edge-hooks.ts) and
 * the error handling, then the routes under BASE_PATH. Static routes are registered
 * before the `/:db/...` family; the router also prefers static segments, so a database called
 * `health` never shadows `/health`.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { fastifyTimeoutOptions } from '../common/http-timeouts.js';
import { lazySchemaCompilers } from '../common/lazy-schema-compilers.js';
import { installMetrics, ServerMetrics } from '../common/metrics.js';
import './fastify-types.js';
import { clientErrorHandler } from './http/client-errors.js';
import { installEdgeHooks } from './http/edge-hooks.js';
import { asProblem, installErrorHandling, sendProblem } from './http/error-handling.js';
import { lazyChildLoggerFactory } from './http/lazy-child-logger.js';
import { MethodGuard } from './http/method-guard.js';
import { requestIdMinter } from './http/request-id.js';
import { MAX_PARAM_LENGTH } from './operations/operation-router.js';
import { ProblemError } from './problems.js';
import { batchRoutes } from './routes/batch-routes.js';
import { browseRoutes } from './routes/browse-routes.js';
import { discoveryRoutes, faviconHandler } from './routes/discovery-routes.js';
import { docsRoutes } from './routes/docs-routes.js';
import { fragmentsRoutes } from './routes/fragments-routes.js';
import { healthRoutes } from './routes/health-routes.js';
import { mcpRoutes } from './routes/mcp-routes.js';
import { mediaRoutes } from './routes/media-routes.js';
import { openApiRoutes } from './routes/openapi-routes.js';
import { recordsRoutes } from './routes/records-routes.js';
import { searchRoutes } from './routes/search-routes.js';
import type { PublicationContext } from './services/context.js';
import { v1Routes } from './v1/v1-routes.js';

/** An HTTP/1.1 request must name its host (RFC 9112, section 3.2). */
function missingHost(): ProblemError {
  const detail = 'an HTTP/1.1 request must carry a Host header';
  return new ProblemError('bad-request', detail, [{ name: 'Host', in: 'header', detail }]);
}

export async function buildPublicationApp(ctx: PublicationContext): Promise<FastifyInstance> {
  const level = ctx.config.logLevel;
  const app = Fastify({
    logger:
      level === 'silent'
        ? false
        : { level, redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] },
    // An incoming X-Request-Id is echoed when it is a sane token; otherwise we mint one.
    requestIdHeader: false,
    genReqId: requestIdMinter(),
    // A request's child logger is built only when it writes a line (http/lazy-child-logger.ts).
    childLoggerFactory: lazyChildLoggerFactory,
    // Shared with the batch matcher, so a batch query fails where the same direct GET fails.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    return503OnClosing: true,
    // Ajv and fast-json-stringify only if a route ever declares a schema (none does).
    schemaController: lazySchemaCompilers,
    // Headers, whole request, silent socket, idle keep-alive, and no Node answer to a missing
    // Host: the first hook below answers it with a problem (common/http-timeouts.ts).
    ...fastifyTimeoutOptions(ctx.config.http),
    // Malformed URLs, over-long path segments and unparsable bodies are the client's fault:
    // answer with a problem.
    frameworkErrors: (err, request, reply) => sendProblem(request, reply, asProblem(request, err)),
    // Refusals of Node's parser (431, 400, 408) have no request yet; still a problem+json.
    clientErrorHandler,
  });
  app.decorate('ctx', ctx);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      request.log.info({ status: 400 }, 'HTTP/1.1 request without Host refused');
      reply.header('X-Request-Id', request.id).header('Connection', 'close');
      sendProblem(request, reply, missingHost());
      return;
    }
    done();
  });

  const guard = new MethodGuard();
  app.addHook('onRoute', (route) => {
    guard.add(route.method, route.url);
    // A prefix's root route also answers at `<prefix>/`, which Fastify adds without announcing it
    // for GET: without this, OPTIONS and 405s there would leave GET out of Allow.
    if (route.prefix && route.routePath === '') guard.add(route.method, `${route.url}/`);
  });
  installErrorHandling(app, guard);

  installEdgeHooks(app, ctx.config);
  // Prometheus (common/metrics.ts): before the routes, so its answer counter sees all of them.
  const metrics = new ServerMetrics();
  const { breaker, poolStats } = ctx;
  if (breaker) metrics.addBreakers(() => breaker.states(ctx.config.dbNames));
  if (poolStats) metrics.addPools(poolStats);
  installMetrics(app, metrics, ctx.config.metrics, (request, reply, detail) =>
    sendProblem(request, reply, new ProblemError('unauthorized', detail)),
  );

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
      await api.register(browseRoutes);
      await api.register(mediaRoutes);
      if (ctx.config.mcpEnabled) await api.register(mcpRoutes);
    },
    { prefix: ctx.config.basePath },
  );
  // The legacy v1 API (v1/), beside v2 under its own path; only when V1_API_CODE is set.
  if (ctx.config.v1) await app.register(v1Routes, { prefix: ctx.config.v1.basePath });
  if (ctx.config.basePath !== '') {
    // Browsers ask for /favicon.ico at the root whatever BASE_PATH is.
    app.get('/favicon.ico', faviconHandler);
  }
  return app;
}
