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
import { clientAddress, trustedProxies } from '../common/client-address.js';
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
import { resolveSession, SESSION_ABSOLUTE_MS } from './auth/sessions.js';
import type { WorkConfig } from './config.js';
import type { ActionRegistry, SessionCookieChange } from './dispatch/action-registry.js';
import { clientErrorHandler } from './dispatch/client-errors.js';
import { DeprecationCounter } from './dispatch/deprecations.js';
import { dispatchRqo } from './dispatch/dispatch-rqo.js';
import { errorEnvelope, successEnvelope } from './dispatch/envelope.js';
import { type ErrorCode, WorkError } from './dispatch/error-registry.js';
import type { Ontology } from './ontology/load-ontology.js';
import type { SqlClient } from './store/sql-client.js';
import { serveClient } from './ui/serve-client.js';
import { multipartLimits, receiveUpload } from './uploads/receive-upload.js';
import { registerMediaRoute } from './uploads/serve-media.js';

export interface WorkAppDeps {
  config: WorkConfig;
  db: SqlClient;
  ontology: Ontology;
  actions: ActionRegistry;
  /** Session expiry and login throttling read this; tests pass one they can move. */
  clock: Clock;
  /** One engine per process: levels, admin status and project scope, cached per user. */
  permissions: PermissionsEngine;
  /** Publishing (dd_diffusion_api.diffuse); absent: that action answers diffusion.not_configured. */
  publisher?: Publisher;
  /** The device cookie's HMAC key: WORK_DEVICE_COOKIE_SECRET or the database's (server.ts). */
  deviceCookieSecret: string;
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

export async function buildWorkApp(deps: WorkAppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: { level: config.logLevel },
    genReqId: () => randomUUID(),
    // Log lines name the id as the envelope does, so one grep finds both.
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: RQO_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
    // Only then does request.protocol believe X-Forwarded-Proto (the cookie's Secure flag).
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Refusals before routing answer the envelope too: the HTTP parser's (431, malformed
    // request line) here, the router's (malformed percent-encoding) in frameworkErrors.
    clientErrorHandler,
    // Node would answer an HTTP/1.1 request without Host itself (400, empty body); the hook
    // below answers it with the envelope instead.
    http: { requireHostHeader: false },
    frameworkErrors: (err, request, reply) => {
      reply.header('X-Request-Id', request.id);
      if (err.code === 'FST_ERR_BAD_URL') return sendError(reply, 'http.malformed_request');
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

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
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

  app.post(config.basePath, { onRequest: requireJson }, async (request, reply) => {
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
    const session = await resolveSession(deps.db, token, now);
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
          ontology: deps.ontology,
          deprecations,
          log: request.log,
          publisher: deps.publisher,
          cookieHeader: request.headers.cookie,
          deviceCookieSecret: deps.deviceCookieSecret,
        },
        headerValue(request.headers[CSRF_HEADER]),
        deps.permissions,
      );
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
      // The database broke a deadlock or a serialization conflict between two writers by
      // aborting this one: nothing of it was kept, and a retry can succeed.
      const err = isConcurrencyAbort(caught) ? new WorkError('record.write_conflict') : caught;
      if (!(err instanceof WorkError)) throw err;
      applyCookie(undefined);
      if (err.retryAfterSeconds !== undefined) reply.header('Retry-After', String(err.retryAfterSeconds));
      return sendError(reply, err.code, err.message, session?.csrfToken, err.details);
    }
  });

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
    request.log.error({ err }, 'unexpected error');
    return sendError(reply, 'internal.unexpected');
  });

  return app;
}
