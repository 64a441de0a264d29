/**
 * The whole per-request edge of the publication API: one onRequest and one onSend hook, each
 * doing only what the request at hand needs, with everything that depends only on the
 * configuration computed here once.
 *
 * On the way in, in this order: the request id header; CORS (answering preflights), before
 * anything that can refuse, so a page can read a 429 or 401; the rate limit, before the API
 * key, so guessing keys costs tokens like any other request; the key; then the request's
 * statement budget is opened (request-context.ts). The favicon and preflights skip the limit, the key
 * and the budget.
 *
 * On the way out: X-Response-Time; `Connection: close` while shutting down; with API keys,
 * cacheable answers become private; Vary for whatever the answer depends on (the key, the
 * origin, the encoding); compression of large bodies for clients that ask (compression.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MetricsRouteConfig } from '../../common/metrics.js';
import type { PublicationConfig } from '../config.js';
import { ProblemError } from '../problems.js';
import { apiKeyCheck } from './api-key-guard.js';
import { COMPRESS_THRESHOLD, compress, compressibleLength, negotiateEncoding } from './compression.js';
import { corsPolicy, isPreflight } from './cors.js';
import { sendProblem } from './error-handling.js';
import { pathOf } from './query-params.js';
import { createRateLimiter } from './rate-limit.js';
import { openBudget } from './request-context.js';
import { appendVary } from './vary.js';

/** How long past REQUEST_TIMEOUT_MS the backstop waits for the request's own time-out answer. */
const DEADLINE_GRACE_MS = 1_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The backstop of the request's deadline; cleared when its answer is sent. */
    deadlineTimer: NodeJS.Timeout | null;
  }
}

function answerLate(request: FastifyRequest, reply: FastifyReply): void {
  if (reply.sent || reply.raw.headersSent || request.raw.destroyed) return;
  sendProblem(
    request,
    reply,
    new ProblemError('timeout', 'the request took longer than the server allows (REQUEST_TIMEOUT_MS)'),
  );
}

export function installEdgeHooks(app: FastifyInstance, config: PublicationConfig): void {
  app.decorateRequest('statementBudget', null);
  app.decorateRequest('deadlineTimer', null);
  const cors = corsPolicy(config.corsOrigin);
  const limiter = createRateLimiter(app, config);
  const checkKey = apiKeyCheck(config.apiKeys);
  // v1 clients authenticate with their own `code` parameter (v1/), never with an API key.
  const v1Prefix = config.v1 ? `${config.v1.basePath}/` : undefined;
  const { requestTimeoutMs, requestMaxStatements } = config;
  const favicons = new Set(['/favicon.ico', `${config.basePath}/favicon.ico`]);
  const isFavicon = (url: string) => url.includes('/favicon.ico') && favicons.has(pathOf(url));

  /** What every answer varies on, whatever its body; Accept-Encoding is added per body. */
  const baseVary = [checkKey ? 'X-API-Key' : '', cors?.variesOnOrigin ? 'Origin' : '']
    .filter((t) => t !== '')
    .join(', ');
  const varyWithEncoding = baseVary === '' ? 'Accept-Encoding' : `${baseVary}, Accept-Encoding`;

  /**
   * The request passed the door: its statement budget starts now (request-context.ts), and so
   * does its deadline. Each statement stops at the budget's deadline by itself; this timer is
   * the backstop for waits outside a statement (a shared catalogue read, a pool): whatever the
   * request still waits for, it is answered 504 shortly after REQUEST_TIMEOUT_MS.
   */
  const admit = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    openBudget(request, requestTimeoutMs, requestMaxStatements);
    request.deadlineTimer = setTimeout(
      answerLate,
      requestTimeoutMs + DEADLINE_GRACE_MS,
      request,
      reply,
    ).unref();
    done();
  };

  const afterRateLimit = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    // The metrics endpoint has its own guard (METRICS_TOKEN), so a scraper needs no API key.
    const keyed =
      checkKey &&
      request.method !== 'OPTIONS' &&
      !(v1Prefix && request.url.startsWith(v1Prefix)) &&
      !(request.routeOptions.config as MetricsRouteConfig).metricsScrape;
    const refusal = keyed ? checkKey(request) : undefined;
    if (refusal) {
      sendProblem(request, reply, refusal);
      return;
    }
    admit(request, reply, done);
  };

  // Callback style, not async: no promise per request unless the rate-limit store is remote.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    if (cors?.apply(request, reply)) return; // a preflight, answered
    if (isPreflight(request) || isFavicon(request.url)) {
      done();
      return;
    }
    const charged = limiter.charge(request, reply);
    if (charged instanceof Promise) {
      charged.then(
        (refusal) => {
          if (refusal) sendProblem(request, reply, refusal);
          else afterRateLimit(request, reply, done);
        },
        (err: Error) => done(err),
      );
      return;
    }
    if (charged) {
      sendProblem(request, reply, charged);
      return;
    }
    afterRateLimit(request, reply, done);
  });

  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.deadlineTimer) clearTimeout(request.deadlineTimer);
    reply.header('X-Response-Time', `${reply.elapsedTime.toFixed(2)}ms`);
    // An answer in flight at shutdown must not keep its keep-alive connection (and the
    // process) open until the keep-alive time-out: the client closes it once this is read.
    if (closing) reply.header('Connection', 'close');
    if (checkKey) {
      const cache = reply.getHeader('cache-control');
      if (typeof cache === 'string' && cache.startsWith('public')) {
        reply.header('Cache-Control', `private${cache.slice('public'.length)}`);
      }
    }
    const length =
      payload == null || reply.hasHeader('content-encoding')
        ? undefined
        : compressibleLength(payload, reply.getHeader('content-type'));
    const vary = length === undefined ? baseVary : varyWithEncoding;
    if (vary !== '') {
      if (reply.hasHeader('vary')) for (const token of vary.split(', ')) appendVary(reply, token);
      else reply.header('Vary', vary);
    }
    const encoding =
      length !== undefined && length >= COMPRESS_THRESHOLD
        ? negotiateEncoding(request.headers['accept-encoding'])
        : undefined;
    if (encoding === undefined) {
      done(null, payload);
      return;
    }
    compress(payload as string | Buffer, encoding, (err, body) => {
      if (err) {
        // Send the body as it is rather than fail an answer that is otherwise complete.
        request.log.warn({ err }, 'compression failed');
        done(null, payload);
        return;
      }
      reply.header('Content-Encoding', encoding);
      reply.removeHeader('content-length');
      done(null, body);
    });
  });
}
