/**
 * Entry point of `npm run start:work`: reads the environment (and `.env`), starts the server
 * (migrating and, on an empty database, bootstrapping it), prints a generated root password
 * once, and shuts down cleanly on SIGTERM/SIGINT.
 */
import { loadEnvFile } from '../common/env-file.js';
import { exitOnSignals, exitOnStartFailure } from '../common/graceful-shutdown.js';
import { loadWorkConfig } from './config.js';
import { OntologyError } from './ontology/load-ontology.js';
import { startWorkServer } from './server.js';
import { DataDirLocked } from './store/data-dir-lock.js';

async function main(): Promise<void> {
  loadEnvFile();
  const config = loadWorkConfig(process.env);
  const server = await startWorkServer(config);
  const { bootstrap } = server;
  if (bootstrap.created) {
    console.log('Work database bootstrapped: root user, default project, Admin and Cataloguer profiles.');
  }
  if (bootstrap.generatedRootPassword) {
    // Shown once and never stored in clear: the operator must note it now.
    console.log(
      `\n  Root password (generated; shown only this once): ${bootstrap.generatedRootPassword}\n` +
        '  Log in as "root" and change it, or set DEDALO_ROOT_PASSWORD before the first start.\n',
    );
  }
  console.log(`Work API listening on ${server.url}`);
  console.log(`Cataloguing web client on ${new URL(server.url).origin}${config.uiPath.replace(/\/?$/, '/')}`);
  exitOnSignals(server, 30_000);
}

main().catch((err: unknown) => {
  // Another process has the embedded database open: say who, and what to do; no stack.
  if (err instanceof DataDirLocked) {
    console.error(err.message);
    process.exit(3);
  }
  // A broken ontology in the database: every problem, listed; no stack (docs/ontology.md).
  if (err instanceof OntologyError) {
    console.error(`The work server did not start. ${err.message}`);
    process.exit(1);
  }
  exitOnStartFailure(err);
});
