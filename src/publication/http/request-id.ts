/**
 * Request ids for logs and the X-Request-Id header. An incoming X-Request-Id that is a sane
 * token is kept, so a proxy's or client's trace id follows the request; otherwise one is minted
 * as a per-process random prefix and a counter: unique across restarts and instances like a
 * UUID for the purpose of finding a request in the logs, for the price of an increment instead
 * of 16 random bytes formatted per request.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A `genReqId` for Fastify: echoes a sane incoming id, otherwise `<prefix>-<counter>`. */
export function requestIdMinter(): (req: IncomingMessage) => string {
  // 60 random bits: two processes sharing a prefix is as unlikely as a UUID collision in practice.
  const prefix = randomBytes(8).toString('base64url').slice(0, 10);
  let counter = 0;
  return (req) => {
    const incoming = req.headers['x-request-id'];
    if (typeof incoming === 'string' && SANE_ID.test(incoming)) return incoming;
    counter += 1;
    return `${prefix}-${counter.toString(36)}`;
  };
}
