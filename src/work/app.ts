/**
 * Builds the work API's Fastify instance: one POST route at the base path (with or without a
 * trailing slash) that hands the raw body to the dispatcher, and envelope answers for everything
 * else (unknown paths, oversized bodies, unexpected errors). Every answer carries X-Request-Id,
 * the same UUID as its `request_id` and its log lines.
 */
import { randomUUID } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { BREAKER_RETRY_MS, BreakerOpen, type BreakerState } from '../common/circuit-breaker.js';
import { clientAddress, trustedProxies } from '../common/client-address.js';
import { fastifyTimeoutOptions } from '../common/http-timeouts.js';
import { lazySchemaCompilers } from '../common/lazy-schema-compilers.js';
import { installMetrics, type PoolStats, ServerMetrics } from '../common/metrics.js';
import { observedPublisher } from '../publish/publish-metrics.js';
import type { Publisher } from '../publish/publisher.js';
import type { Clock } from './auth/clock.js';
import { setDeviceCookie } from './auth/device-cookie.js';
import type { PermissionsEngine } from './auth/permissions.js';
import {
  type CookieScope,
  clearSessionCookie,
  readCookie,
  SESSION_COOKIE,
  setSessionCookie,
} from './auth/session-cookie.js';
import { resolveSession, SESSION_ABSOLUTE_MS, type Session } from './auth/sessions.js';
import { registerExportRoute } from './collections/export-route.js';
import type { WorkConfig } from './config.js';
import type { ActionRegistry, SessionCookieChange } from './dispatch/action-registry.js';
import { clientErrorHandler } from './dispatch/client-errors.js';
import { DeprecationCounter } from './dispatch/deprecations.js';
import { dispatchRqo } from './dispatch/dispatch-rqo.js';
import { errorEnvelope, successEnvelope } from './dispatch/envelope.js';
import { type ErrorCode, WorkError } from './dispatch/error-registry.js';
import { addLiveCounts } from './metrics.js';
import type { OntologyProvider } from './ontology/ontology-store.js';
import { classifyDbFault } from './store/db-faults.js';
import type { SqlClient } from './store/sql-client.js';
import { serveClient } from './ui/serve-client.js';
import { multipartLimits, receiveUpload } from './uploads/receive-upload.js';
import { registerMediaRoute } from './uploads/serve-media.js';

export interface WorkAppDeps {
  config: WorkConfig;
  db: SqlClient;
  /** The ontology each request starts with: the latest committed version (ontology-store.ts). */
  ontology: OntologyProvider;
  actions: ActionRegistry;
  /** Session expiry and login throttling read this; tests pass one they can move. */
  clock: Clock;
  /** One engine per process: levels, admin status and project scope, cached per user. */
  permissions: PermissionsEngine;
  /** Publishing (dd_diffusion_api.diffuse); absent: that action answers diffusion.not_configured. */
  publisher?: Publisher;
  /** The device cookie's HMAC key: WORK_DEVICE_COOKIE_SECRET or the database's (server.ts). */
  deviceCookieSecret: string;
  /** The database's pool and circuit breaker, for the metrics endpoint (absent: not reported). */
  dbStats?: { pools?: () => PoolStats[]; breakers?: () => Record<string, BreakerState> };
}

export const CSRF_HEADER = 'x-dedalo-csrf-token';

/** JSON RQOs are small; uploads will get their own multipart limit (UPLOAD_MAX_BYTES). */
const RQO_BODY_LIMIT = 4 * 1024 * 1024;

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * `application/json` with no charset or charset=utf-8 (any case, quoted or not); other parameters
 * are ignored. Anything else, no Content-Type included, is not an RQO.
 */
export function isJsonUtf8(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [type = '', ...params] = contentType.split(';');
  if (type.trim().toLowerCase() !== 'application/json') return false;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return false;
  }
  return true;
}

const MULTIPART = /^\s*multipart\/form-data\s*(;|$)/i;

/** PostgreSQL's deadlock_detected and serialization_failure (also raised by PGlite). */
const CONCURRENCY_ABORTS = new Set(['40P01', '40001']);

function isConcurrencyAbort(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONCURRENCY_ABORTS.has(code);
}

/** Retry-After of a db.unavailable answer: when the breaker lets a probe through again. */
const UNAVAILABLE_RETRY_SECONDS = Math.ceil(BREAKER_RETRY_MS / 1000);
/** Retry-After of a db.timeout answer: a busy database or a long lock, worth a quick retry. */
const TIMEOUT_RETRY_SECONDS = 2;

/**
 * A database failure the client can only wait out, as its registered refusal (store/db-faults.ts):
 * db.unavailable or db.timeout, both 503 with Retry-After; anything else stays as it is.
 */
function asDbRefusal(err: unknown): WorkError | undefined {
  const fault = classifyDbFault(err);
  if (fault === undefined) return undefined;
  if (fault === 'timeout') return new WorkError('db.timeout', undefined, TIMEOUT_RETRY_SECONDS);
  const retryAfter = err instanceof BreakerOpen ? err.retryAfterSeconds : UNAVAILABLE_RETRY_SECONDS;
  return new WorkError('db.unavailable', undefined, retryAfter);
}

function sendError(
  reply: FastifyReply,
  code: ErrorCode,
  message?: string,
  csrfToken?: string,
  details?: Record<string, unknown>,
) {
  const { status, body } = errorEnvelope(reply.request.id, code, message, { csrf_token: csrfToken }, details);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

function sendRefusal(reply: FastifyReply, err: WorkError, csrfToken?: string) {
  if (err.retryAfterSeconds !== undefined) reply.header('Retry-After', String(err.retryAfterSeconds));
  return sendError(reply, err.code, err.message, csrfToken, err.details);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The publisher the RQOs use (counted by the metrics when they are on); absent: none. */
    workPublisher: Publisher | undefined;
  }
  interface FastifyRequest {
    /** WORK_HTTP_BODY_TIMEOUT_MS for a body still arriving; cleared once it has. */
    bodyTimer?: NodeJS.Timeout;
  }
}

/** The body did not arrive in time: 408 in the envelope, and the connection is closed. */
function answerSlowBody(request: FastifyRequest, reply: FastifyReply): void {
  if (reply.sent || request.raw.complete || request.raw.destroyed) return;
  request.log.info('request body not received in time');
  reply.header('Connection', 'close');
  sendError(reply, 'http.request_timeout');
  // The rest of the body is not waited for: once the answer is out, the socket goes.
  reply.raw.once('finish', () => request.raw.socket?.destroy());
}

/**
 * Runs the RQO under the request's budget (WORK_REQUEST_TIMEOUT_MS). Each statement has its own
 * limits (store/pg-client.ts); this is the request's: past it the client gets a retryable 503
 * db.timeout with Retry-After, whatever the request was waiting for. Whatever was still running
 * ends by its statements' limits; its answer is dropped. `unbounded` lifts the deadline for
 * long-running actions (ActionDefinition.longRunning).
 */
async function withinDeadline(
  request: FastifyRequest,
  reply: FastifyReply,
  ms: number,
  run: (unbounded: () => void) => Promise<unknown>,
): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(resolve, ms, 'late');
  });
  const work = run(() => clearTimeout(timer));
  try {
    const first = await Promise.race([work, late]);
    if (first !== 'late' || reply.sent) return first;
    request.log.warn({ budget_ms: ms }, 'request budget spent: answered db.timeout');
    work.catch((err: unknown) => request.log.warn({ err }, 'request failed after its deadline'));
    return sendRefusal(reply, new WorkError('db.timeout', undefined, TIMEOUT_RETRY_SECONDS));
  } finally {
    clearTimeout(timer);
  }
}

export async function buildWorkApp(deps: WorkAppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: { level: config.logLevel },
    genReqId: () => randomUUID(),
    // Log lines name the id as the envelope does, so one grep finds both.
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: RQO_BODY_LIMIT,
    // Headers, silent socket, idle keep-alive (common/http-timeouts.ts). Node's whole-request
    // limit is the upload's (a multipart body streams for as long as the file takes); other
    // bodies get WORK_HTTP_BODY_TIMEOUT_MS below. Node does not answer a missing Host: a hook
    // below answers it with the envelope.
    ...fastifyTimeoutOptions({ ...config.http, requestMs: config.http.uploadMs }),
    routerOptions: { ignoreTrailingSlash: true },
    // Ajv and fast-json-stringify only if a route ever declares a schema (none does).
    schemaController: lazySchemaCompilers,
    // Only then does request.protocol believe X-Forwarded-Proto (the cookie's Secure flag).
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Refusals before routing answer the envelope too: the HTTP parser's (431, malformed
    // request line) here, the router's (malformed percent-encoding) in frameworkErrors.
    clientErrorHandler,
    frameworkErrors: (err, request, reply) => {
      reply.header('X-Request-Id', request.id);
      if (err.code === 'FST_ERR_BAD_URL') return sendError(reply, 'http.malformed_request');
      // A path segment longer than the router takes: no such resource here.
      if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, 'http.not_found');
      request.log.error({ err }, 'unexpected framework error');
      return sendError(reply, 'internal.unexpected');
    },
  });
  // First hook of all: no route, static file or error handler sees a request without Host.
  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      reply.header('X-Request-Id', request.id).header('Connection', 'close');
      request.log.info({ answer: 'http.missing_host' }, 'HTTP/1.1 request without Host refused');
      return sendError(reply, 'http.missing_host');
    }
  });
  // Prometheus (common/metrics.ts): before any route, so its answer counter sees all of them.
  const metrics = new ServerMetrics();
  const metricsOn = config.metrics.path !== undefined;
  if (deps.dbStats?.breakers) metrics.addBreakers(deps.dbStats.breakers);
  if (deps.dbStats?.pools) metrics.addPools(deps.dbStats.pools);
  addLiveCounts(metrics, deps.db, deps.clock);
  installMetrics(app, metrics, config.metrics, (_request, reply, detail) =>
    sendError(reply, 'http.unauthorized', detail),
  );
  // Publish runs of dd_diffusion_api.diffuse, counted by target and outcome.
  const publisher =
    deps.publisher && metricsOn
      ? observedPublisher(deps.publisher, (target, outcome, seconds) =>
          metrics.observePublishRun(target, outcome, seconds),
        )
      : deps.publisher;
  app.decorate('workPublisher', publisher);
  const isTrusted = config.trustProxy.length > 0 ? trustedProxies(config.trustProxy) : undefined;
  const deprecations = new DeprecationCounter();

  // The dispatcher parses the body itself, so malformed JSON is its registered refusal; only
  // application/json (UTF-8) gets that far (requireJson below).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  // --- uploads: multipart/form-data bodies are streamed by the upload handler (not bodyLimit) ---
  await app.register(fastifyMultipart, { limits: multipartLimits(config.uploadMaxBytes) });
  // --- end uploads ---
  // --- web client: the cataloguing app's static files at WORK_UI_PATH (client/, built by Vite).
  // Registered before the API route: an awaited register flushes the routes declared so far,
  // which would then miss the error handler set below. ---
  const clientServed = await serveClient(app, { uiPath: config.uiPath, apiPath: config.basePath });
  if (!clientServed) app.log.warn('the web client is not built (dist/client): run `npm run build:client`');
  // --- end web client ---

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    // A body that is not an upload must have arrived within WORK_HTTP_BODY_TIMEOUT_MS (counted
    // from the end of the headers); Node's own whole-request limit is the longer upload one.
    if (!request.raw.complete && !request.isMultipart()) {
      request.bodyTimer = setTimeout(answerSlowBody, config.http.requestMs, request, reply).unref();
    }
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.bodyTimer) clearTimeout(request.bodyTimer);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.bodyTimer) clearTimeout(request.bodyTimer);
    done();
  });

  // Only JSON (UTF-8) is read as an RQO, so a cross-site HTML form (text/plain, urlencoded)
  // cannot post one, login included; multipart goes to the upload handler (session and CSRF
  // header first). Checked before the body is read.
  const requireJson = async (request: FastifyRequest, reply: FastifyReply) => {
    const type = request.headers['content-type'];
    if (isJsonUtf8(type) || (type !== undefined && MULTIPART.test(type))) return;
    request.log.info(
      { content_type: request.headers['content-type'] ?? null, answer: 'http.unsupported_media_type' },
      'RQO refused: not application/json',
    );
    reply.header('Connection', 'close');
    return sendError(reply, 'http.unsupported_media_type');
  };

  /** The RQO endpoint under its deadline; an upload streams its body and has its own limits. */
  app.post(config.basePath, { onRequest: requireJson }, (request, reply) =>
    request.isMultipart()
      ? answerRqo(request, reply, () => {})
      : withinDeadline(request, reply, config.requestTimeoutMs, (unbounded) =>
          answerRqo(request, reply, unbounded),
        ),
  );

  async function answerRqo(request: FastifyRequest, reply: FastifyReply, unbounded: () => void) {
    const raw = typeof request.body === 'string' ? request.body : '';
    const scope: CookieScope = { path: config.basePath, secure: request.protocol === 'https' };
    const applyCookie = (change: SessionCookieChange | undefined) => {
      if (change && 'set' in change) {
        reply.header('Set-Cookie', setSessionCookie(change.set, SESSION_ABSOLUTE_MS / 1000, scope));
      } else if (change || (token !== undefined && session === undefined)) {
        // Explicit clear (quit), or a cookie naming no live session: drop it from the browser.
        reply.header('Set-Cookie', clearSessionCookie(scope));
      }
    };
    const now = deps.clock();
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    let session: Session | undefined;
    let ontology: Awaited<ReturnType<OntologyProvider['current']>>;
    try {
      const start = await resolveSession(deps.db, token, now);
      session = start.session;
      // One version for the whole request, whatever is committed while it runs.
      ontology = await deps.ontology.at(start.ontologyVersion);
    } catch (caught) {
      const refusal = asDbRefusal(caught);
      if (!refusal) throw caught;
      if (reply.sent) return reply; // answered at the deadline already
      return sendRefusal(reply, refusal);
    }
    try {
      // --- uploads: the same path takes a multipart upload (gates: session, then CSRF) ---
      if (request.isMultipart()) {
        // A refused upload may leave part of the body unread: do not reuse the connection.
        reply.header('Connection', 'close');
        const result = await receiveUpload(
          request,
          { session, dataDir: config.dataDir, uploadMaxBytes: config.uploadMaxBytes },
          headerValue(request.headers[CSRF_HEADER]),
        );
        reply.removeHeader('Connection');
        if (reply.sent) return reply;
        return reply
          .type('application/json; charset=utf-8')
          .send(successEnvelope(request.id, result.data, session ? { csrf_token: session.csrfToken } : {}));
      }
      // --- end uploads ---
      // Whatever the onRequest check let through that is not multipart must be JSON.
      if (!isJsonUtf8(request.headers['content-type'])) throw new WorkError('http.unsupported_media_type');
      const result = await dispatchRqo(
        deps.actions,
        raw,
        {
          requestId: request.id,
          session,
          now,
          clientAddress: clientAddress(
            request.raw.socket.remoteAddress,
            request.headers['x-forwarded-for'],
            isTrusted,
          ),
          config,
          db: deps.db,
          ontology,
          deprecations,
          log: request.log,
          publisher,
          cookieHeader: request.headers.cookie,
          deviceCookieSecret: deps.deviceCookieSecret,
          unbounded,
        },
        headerValue(request.headers[CSRF_HEADER]),
        deps.permissions,
      );
      // Answered already: the request's deadline passed while this ran (withinDeadline).
      if (reply.sent) return reply;
      applyCookie(result.sessionCookie);
      if (result.deviceCookie) {
        reply.header(
          'Set-Cookie',
          setDeviceCookie(result.deviceCookie.name, result.deviceCookie.value, scope),
        );
      }
      // Every answer of a session carries its CSRF token (the stock client refreshes it from
      // each envelope); login brings the new session's own, quit ends the session.
      const extensions =
        session && result.sessionCookie === undefined && result.extensions?.csrf_token === undefined
          ? { ...result.extensions, csrf_token: session.csrfToken }
          : result.extensions;
      return reply
        .type('application/json; charset=utf-8')
        .send(successEnvelope(request.id, result.data, extensions, result.notices));
    } catch (caught) {
      if (reply.sent) {
        // Answered at the deadline already (withinDeadline); what failed since is only logged.
        request.log.warn({ err: caught }, 'request failed after its deadline was answered');
        return reply;
      }
      // The database broke a deadlock or a serialization conflict between two writers by
      // aborting this one: nothing of it was kept, and a retry can succeed.
      // The database is away or the request ran out of time: a retryable 503 (db-faults.ts).
      const err = isConcurrencyAbort(caught)
        ? new WorkError('record.write_conflict')
        : (asDbRefusal(caught) ?? caught);
      if (!(err instanceof WorkError)) throw err;
      applyCookie(undefined);
      return sendRefusal(reply, err, session?.csrfToken);
    }
  }

  // A browser opening the printed URL (a GET) learns what the endpoint is and how to call it.
  // Only this exact path (with or without its trailing slash); HEAD follows GET. OPTIONS is left
  // alone (no CORS here: the web client is served from this origin).
  app.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH'],
    url: config.basePath,
    handler: (_request, reply) => {
      reply.header('Allow', 'POST');
      return sendError(reply, 'http.method_not_allowed');
    },
  });

  // --- web client: attached media files for display (session cookie + read checks) ---
  registerMediaRoute(app, {
    basePath: config.basePath,
    dataDir: config.dataDir,
    db: deps.db,
    ontology: deps.ontology,
    permissions: deps.permissions,
    clock: deps.clock,
    refuse: (reply, code, message) => sendError(reply, code, message),
  });
  // --- end web client media ---
  // --- collections: a section's records as a CSV download (the list's Export menu) ---
  registerExportRoute(app, {
    basePath: config.basePath,
    db: deps.db,
    ontology: deps.ontology,
    permissions: deps.permissions,
    clock: deps.clock,
    refuse: (reply, code, message) => sendError(reply, code, message),
  });
  // --- end collections export ---

  app.setNotFoundHandler((_request, reply) => sendError(reply, 'http.not_found'));

  // The web client's static files (ui/serve-client.ts) are served under this prefix.
  const assetsPrefix = `${config.uiPath === '/' ? '' : config.uiPath}/assets/`;

  app.setErrorHandler((err: { code?: string; statusCode?: number }, request, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 'http.body_too_large');
    // The static files' refusals (a path leaving assets/ is 403, a NUL byte 400): the client's
    // mistake, answered like any path where nothing is served; logged at info, without a stack.
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500 && request.routeOptions.url?.startsWith(assetsPrefix)) {
      request.log.info({ status, code: err.code ?? null, url: request.url }, 'request refused');
      return status === 400
        ? sendError(reply, 'http.malformed_request', 'The request path is not a valid file path')
        : sendError(reply, 'http.not_found');
    }
    // Fastify's own refusals of the client's request (a Content-Type that is not a media type,
    // a bad Content-Length...) are the client's fault, not ours.
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      request.log.info({ code: err.code }, 'malformed request');
      return sendError(reply, 'http.malformed_request', `The request was refused: ${(err as Error).message}`);
    }
    const refusal = asDbRefusal(err);
    if (refusal) {
      request.log.warn({ err }, 'database unavailable or too slow');
      return sendRefusal(reply, refusal);
    }
    request.log.error({ err }, 'unexpected error');
    return sendError(reply, 'internal.unexpected');
  });

  return app;
}
