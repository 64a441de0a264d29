/**
 * Lets a graceful shutdown end. Node's server.close() reaps the connections that are idle when
 * it starts, and Fastify tells requests that arrive afterwards to close, but a request already
 * in flight finishes on a keep-alive connection that would then stay open until the keep-alive
 * time-out (72 s) and hold the process. Answers sent while the app is closing therefore carry
 * `Connection: close`: the client does not reuse the connection and Node closes it once sent.
 */
import type { FastifyInstance } from 'fastify';

export function installCloseOnShutdown(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('Connection', 'close');
    return payload;
  });
}
