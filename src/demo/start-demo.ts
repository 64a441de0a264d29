/**
 * `npm start` with no configuration: starts both APIs on this machine.
 *
 * - Work API on port 3000 (`WORK_PORT` changes it), an embedded PGlite database in
 *   `WORK_DATA_DIR` (default ./data/work), created and bootstrapped on first run. Root's password
 *   is `DEDALO_ROOT_PASSWORD`, or a generated one printed once, at that first run.
 * - Publication API on `PORT` (default 3100) over a demo archive, generated on first run into
 *   embedded SQLite files. Any variable of the publication configuration still applies.
 *
 * The work server is the same one `npm run start:work` runs (src/work/server.ts); only its port
 * and default log level are fixed here, because PORT, HOST and LOG_LEVEL belong to the
 * publication API in this combined process.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../common/config-error.js';
import { loadEnvFile } from '../common/env-file.js';
import { loadPublicationConfig } from '../publication/config.js';
import { startPublicationServer } from '../publication/server.js';
import { loadWorkConfig } from '../work/config.js';
import { startWorkServer } from '../work/server.js';
import { writeSqliteDemo } from './index.js';

const DEMO_DB = 'demo_archive';
const DEMO_INTERVIEWS = 300;
const WORK_DEMO_PORT = '3000';

async function ensurePublicationDemo(dir: string): Promise<void> {
  const file = join(dir, `${DEMO_DB}.sqlite`);
  if (existsSync(file)) return;
  mkdirSync(dir, { recursive: true });
  console.log(`Generating the demo archive (${DEMO_INTERVIEWS} interviews) in ${file} ...`);
  await writeSqliteDemo(file, { interviews: DEMO_INTERVIEWS, seed: 1 }, (done, total) => {
    process.stderr.write(`\r  ${Math.round((done / total) * 100)}%`);
  });
  process.stderr.write('\n');
}

async function main(): Promise<void> {
  loadEnvFile();
  const env = process.env;
  // Both configurations are validated before anything starts, so a mistake stops both.
  const workConfig = loadWorkConfig({
    ...env,
    PORT: env.WORK_PORT ?? WORK_DEMO_PORT,
    LOG_LEVEL: env.WORK_LOG_LEVEL ?? 'warn',
  });
  const dir = resolve(env.DB_SQLITE_DIR ?? './data/publication');
  const publicationConfig = loadPublicationConfig({
    LOG_LEVEL: 'warn',
    ...env,
    DB_DRIVER: 'sqlite',
    DB_SQLITE_DIR: dir,
    DB_NAMES: env.DB_NAMES ?? DEMO_DB,
  });

  await ensurePublicationDemo(dir);
  const work = await startWorkServer(workConfig);
  let publication: Awaited<ReturnType<typeof startPublicationServer>>;
  try {
    publication = await startPublicationServer(publicationConfig);
  } catch (err) {
    await work.close().catch(() => {});
    throw err;
  }

  console.log(`Work API (RQO JSON) listening on ${work.url}`);
  console.log(
    `Cataloguing web client on ${new URL(work.url).origin}${workConfig.uiPath.replace(/\/?$/, '/')}`,
  );
  if (work.bootstrap.generatedRootPassword) {
    // Shown once and never stored in clear: note it now.
    console.log(
      `  Root password (generated; shown only this once): ${work.bootstrap.generatedRootPassword}\n` +
        '  Log in as "root"; to choose it instead, set DEDALO_ROOT_PASSWORD before the first start\n' +
        `  (or delete ${workConfig.dataDir} to start over).`,
    );
  } else if (work.bootstrap.created) {
    console.log('  Root password: the value of DEDALO_ROOT_PASSWORD.');
  } else {
    console.log(
      `  Existing database in ${workConfig.dataDir}: root's password is the one set at its first start.`,
    );
  }
  console.log(`  try: curl -H 'Content-Type: application/json' -d '{"action":"start"}' ${work.url}\n`);
  console.log(`Publication API v2 (demo archive "${DEMO_DB}") listening on ${publication.url}/`);
  console.log(`  try: curl '${publication.url}/${DEMO_DB}/tables/interview/records?lang=lg-eng&limit=2'`);

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(1), 30_000).unref();
    Promise.allSettled([work.close(), publication.close()]).then((results) =>
      process.exit(results.every((r) => r.status === 'fulfilled') ? 0 : 1),
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(err instanceof ConfigError ? 2 : 1);
});
