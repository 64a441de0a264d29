/**
 * Entry point of `npm run start:publication`: reads the environment (and `.env`), starts the
 * server, prints its URL, and shuts down cleanly on SIGTERM/SIGINT (stop accepting, finish
 * in-flight requests, close the pools).
 */
import { ConfigError } from '../common/config-error.js';
import { loadEnvFile } from '../common/env-file.js';
import { loadPublicationConfig } from './config.js';
import { startPublicationServer } from './server.js';

async function main(): Promise<void> {
  loadEnvFile();
  const config = loadPublicationConfig(process.env);
  const server = await startPublicationServer(config);
  console.log(`Publication API v2 listening on ${server.url}/`);
  let closing = false;
  // Fastify's close stops accepting, answers 503 to new requests on kept-alive connections,
  // waits for in-flight requests, then runs the onClose hooks (database pools, rate-limit store).
  // In-flight requests end by REQUEST_TIMEOUT_MS at the latest; past that plus a margin
  // something is stuck, and an orchestrator waiting for the exit is better served by exit 1.
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const graceMs = config.requestTimeoutMs + 10_000;
    setTimeout(() => {
      server.app.log.error({ graceMs }, 'shutdown did not finish in time; exiting anyway');
      process.exit(1);
    }, graceMs).unref();
    // Answers sent while closing say Connection: close (http/close-connections.ts); this also
    // reaps a connection whose answer was already on its way when the shutdown began.
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

main().catch((err) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
