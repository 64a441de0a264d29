/**
 * Entry point of `npm run start:publication`: reads the environment (and `.env`), starts the
 * server, prints its URL, and shuts down cleanly on SIGTERM/SIGINT (stop accepting, finish
 * in-flight requests, close the pools); SIGHUP refreshes the cached schemas after a publish run.
 */
import { loadEnvFile } from '../common/env-file.js';
import { exitOnSignals, exitOnStartFailure } from '../common/graceful-shutdown.js';
import { loadPublicationConfig } from './config.js';
import { startPublicationServer } from './server.js';

async function main(): Promise<void> {
  loadEnvFile();
  const config = loadPublicationConfig(process.env);
  const server = await startPublicationServer(config);
  console.log(`Publication API v2 listening on ${server.url}/`);
  const origin = server.url.slice(0, server.url.length - config.basePath.length);
  console.log(
    config.v1
      ? `Publication API v1 (legacy) listening on ${origin}${config.v1.basePath}/json/{action}`
      : 'Publication API v1 (legacy) is off: set V1_API_CODE to serve it',
  );
  // In-flight requests end by REQUEST_TIMEOUT_MS at the latest; allow a margin on top.
  exitOnSignals(server, config.requestTimeoutMs + 10_000);
  // After `npm run publish` added tables or columns: `kill -HUP <pid>` serves them at once
  // instead of after the schema cache's 30 s.
  process.on('SIGHUP', () => server.refreshSchemas());
}

main().catch(exitOnStartFailure);
