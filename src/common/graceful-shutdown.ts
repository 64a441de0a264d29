/**
 * SIGTERM/SIGINT handling shared by both services: stop accepting, let in-flight requests finish
 * (Fastify's close answers 503 to new requests on kept-alive connections, waits for the running
 * ones, then runs the onClose hooks that close pools and stores), exit 0. Past `graceMs`
 * something is stuck, and an orchestrator waiting for the exit is better served by exit 1.
 */
import type { FastifyInstance } from 'fastify';
import { ConfigError } from './config-error.js';

export function exitOnSignals(
  server: { app: FastifyInstance; close(): Promise<void> },
  graceMs: number,
): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    setTimeout(() => {
      server.app.log.error({ graceMs }, 'shutdown did not finish in time; exiting anyway');
      process.exit(1);
    }, graceMs).unref();
    // Reaps a kept-alive connection whose answer was already on its way when the shutdown began.
    setInterval(() => server.app.server.closeIdleConnections(), 250).unref();
    server.close().then(
      () => {
        server.app.log.info('shut down cleanly');
        process.exit(0);
      },
      (err: unknown) => {
        server.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** Entry points' last resort: a configuration problem exits 2 with its message, anything else 1. */
export function exitOnStartFailure(err: unknown): never {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
}
