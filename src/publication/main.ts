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
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
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
