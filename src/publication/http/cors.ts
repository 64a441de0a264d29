/**
 * Cross-origin access (CORS_ORIGIN: `*`, or a list of origins; unset means no CORS headers at
 * all). Preflights are answered at the door (edge-hooks.ts), before rate limiting, API keys and
 * the not-found handler (which would answer OPTIONS with a bare 204 + Allow). An origin that is
 * not allowed gets no CORS headers and its browser blocks the answer.
 * `Access-Control-Allow-Credentials` is never sent: the API key is a header the page sets
 * itself, not an ambient credential, which is what keeps `*` safe.
 *
 * Everything that does not depend on the request is computed once here, so a request without
 * an Origin header costs one property read.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

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

/** A CORS preflight: the browser asking permission, not the client asking for data. */
export function isPreflight(request: FastifyRequest): boolean {
  return (
    request.method === 'OPTIONS' &&
    request.headers.origin !== undefined &&
    request.headers['access-control-request-method'] !== undefined
  );
}

export interface CorsPolicy {
  /**
   * Sets the CORS headers an allowed origin gets; answers a preflight and returns true when it
   * did (the request is then over).
   */
  apply(request: FastifyRequest, reply: FastifyReply): boolean;
  /**
   * With a list of origins the answer depends on Origin (headers for one, none for another), so
   * shared caches must key on it; with `*` every origin gets the same answer and nothing varies.
   */
  readonly variesOnOrigin: boolean;
}

/** The CORS policy of CORS_ORIGIN, or undefined when CORS is off (no work per request at all). */
export function corsPolicy(allowed: '*' | readonly string[] | undefined): CorsPolicy | undefined {
  if (allowed === undefined) return undefined;
  const any = allowed === '*';
  const origins = new Set(any ? [] : allowed);
  return {
    variesOnOrigin: !any,
    apply(request, reply) {
      const origin = request.headers.origin;
      if (origin === undefined || !(any || origins.has(origin))) return false;
      reply.header('Access-Control-Allow-Origin', any ? '*' : origin);
      if (isPreflight(request)) {
        reply
          .code(204)
          .header('Access-Control-Allow-Methods', ALLOW_METHODS)
          .header('Access-Control-Allow-Headers', ALLOW_HEADERS)
          .header('Access-Control-Max-Age', MAX_AGE_SECONDS)
          .send();
        return true;
      }
      reply.header('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      return false;
    },
  };
}
