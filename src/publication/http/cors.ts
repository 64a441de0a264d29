/**
 * Cross-origin access (CORS_ORIGIN: `*`, or a list of origins; unset means no CORS headers at
 * all). Preflights are answered here, before rate limiting, API keys and the not-found handler
 * (which would answer OPTIONS with a bare 204 + Allow). An origin that is not allowed gets no
 * CORS headers and its browser blocks the answer. `Access-Control-Allow-Credentials` is never
 * sent: the API key is a header the page sets itself, not an ambient credential, which is what
 * keeps `*` safe.
 */
import type { FastifyInstance } from 'fastify';
import { isPreflight } from './rate-limit.js';
import { appendVary } from './vary.js';

const ALLOW_METHODS = 'GET, HEAD, POST, OPTIONS';
const ALLOW_HEADERS = 'Content-Type, X-API-Key, If-None-Match, X-Request-Id';
/** Headers a page may read beyond the CORS-safelisted ones. */
const EXPOSE_HEADERS = [
  'Link',
  'ETag',
  'X-Response-Time',
  'X-Request-Id',
  'Content-Language',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
].join(', ');
/** Browsers cap this anyway (Chromium at 2 h); an hour spares most repeated preflights. */
const MAX_AGE_SECONDS = '3600';

/**
 * Sets CORS headers and answers preflights. Install it before every hook that can refuse a
 * request (rate limit, API keys): a 429 or 401 the page cannot read is useless to it.
 */
export function installCors(app: FastifyInstance, allowed: '*' | readonly string[] | undefined): void {
  if (allowed === undefined) return;
  const any = allowed === '*';
  const origins = new Set(any ? [] : allowed);
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined || !(any || origins.has(origin))) return;
    reply.header('Access-Control-Allow-Origin', any ? '*' : origin);
    if (isPreflight(request)) {
      return reply
        .code(204)
        .header('Access-Control-Allow-Methods', ALLOW_METHODS)
        .header('Access-Control-Allow-Headers', ALLOW_HEADERS)
        .header('Access-Control-Max-Age', MAX_AGE_SECONDS)
        .send();
    }
    reply.header('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  });
}

/**
 * With a list of origins the answer depends on Origin (headers for one, none for another), so
 * shared caches must key on it. A separate step because it must run after the API-key hook,
 * which sets Vary outright; with `*` every origin gets the same answer and nothing varies.
 */
export function installCorsVary(app: FastifyInstance, allowed: '*' | readonly string[] | undefined): void {
  if (allowed === undefined || allowed === '*') return;
  app.addHook('onSend', async (_request, reply, payload) => {
    appendVary(reply, 'Origin');
    return payload;
  });
}
