/**
 * How long each server waits for a client, on both servers the same way (docs/timeouts-and-faults.md):
 * the request line and headers (Node's headersTimeout), the whole request with its body (Node's
 * requestTimeout), a socket with no traffic at all (the socket time-out, Fastify's
 * connectionTimeout), and an idle keep-alive connection between requests (keepAliveTimeout).
 * A request that is too slow gets a 408 in the server's own error format (client-errors.ts)
 * where an answer is still possible; an idle socket is closed.
 */

export interface HttpTimeouts {
  /** Request line and headers must have arrived within this (from the first byte). */
  headersMs: number;
  /** The whole request, body included, must have arrived within this. */
  requestMs: number;
  /** A socket that sends and receives nothing for this long is closed. */
  idleMs: number;
  /** An idle keep-alive connection is closed after this long between requests. */
  keepAliveMs: number;
}

/**
 * Node checks headersTimeout and requestTimeout on a timer (30 s by default, which is how a
 * 60 s header time-out became 63.6 s): check often enough for the configured limits to hold
 * to within a quarter of the shorter one (at least every second).
 */
export function checkingIntervalMs(t: Pick<HttpTimeouts, 'headersMs' | 'requestMs'>): number {
  return Math.max(50, Math.min(1_000, Math.floor(Math.min(t.headersMs, t.requestMs) / 4)));
}

/**
 * The Fastify constructor options that apply `t`. Its `http` object is Node's server options:
 * both servers also turn off Node's own missing-Host answer there (they answer it in their error
 * format), so it is set here, once, where a second `http` key cannot silently replace it.
 */
export function fastifyTimeoutOptions(t: HttpTimeouts) {
  return {
    connectionTimeout: t.idleMs,
    keepAliveTimeout: t.keepAliveMs,
    requestTimeout: t.requestMs,
    http: {
      headersTimeout: t.headersMs,
      requestTimeout: t.requestMs,
      connectionsCheckingInterval: checkingIntervalMs(t),
      requireHostHeader: false,
    },
  };
}

/** Node refuses a header time-out longer than the whole request's; say so at start instead. */
export function httpTimeoutProblems(t: HttpTimeouts, names: Record<keyof HttpTimeouts, string>): string[] {
  return t.headersMs > t.requestMs ? [`${names.headersMs} must not be longer than ${names.requestMs}`] : [];
}
