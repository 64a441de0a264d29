/**
 * `npm start` with no configuration: starts both APIs on this machine.
 *
 * - Work API on port 3000 (`WORK_PORT` changes it), an embedded PGlite database in
 *   `WORK_DATA_DIR` (default ./data/work), created and bootstrapped on first run. Root's password
 *   is `DEDALO_ROOT_PASSWORD`, or a generated one printed once, at that first run.
 * - Publication API on `PORT` (default 3100) over the demo archive, produced by publishing: on
 *   the first run the work database is seeded with the generated demo archive (through the work
 *   store) and published (a full rebuild) into the embedded SQLite file the API serves. Any
 *   variable of the publication configuration still applies. Publishing again (the web client's
 *   Publish buttons, `dd_diffusion_api.diffuse`) writes to the same file, and this process
 *   refreshes the API's schema cache after each run.
 *
 * The work server is the same one `npm run start:work` runs (src/work/server.ts); only its port
 * and default log level are fixed here, because PORT, HOST and LOG_LEVEL belong to the
 * publication API in this combined process.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../common/config-error.js';
import { loadEnvFile } from '../common/env-file.js';
import { loadPublicationConfig } from '../publication/config.js';
import { startPublicationServer } from '../publication/server.js';
import { loadPublishConfig } from '../publish/publish-targets.js';
import { createPublisher } from '../publish/publisher.js';
import { loadWorkConfig } from '../work/config.js';
import { startWorkServer } from '../work/server.js';
import { DataDirLocked } from '../work/store/data-dir-lock.js';
import { writeDemoMedia } from './demo-media.js';
import { seedWorkDemo } from './work-seed.js';

const DEMO_DB = 'demo_archive';
const DEMO_INTERVIEWS = 300;
const WORK_DEMO_PORT = '3000';

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
    // The demo's placeholder videos and images (demo-media.ts), served by the publication server.
    MEDIA_DIR: env.MEDIA_DIR ?? join(dir, 'media'),
  });

  const file = join(dir, `${DEMO_DB}.sqlite`);
  const publishConfig = loadPublishConfig({
    ...env,
    PUBLISH_TARGETS: env.PUBLISH_TARGETS ?? `demo=sqlite:${file}`,
  });
  let publication: Awaited<ReturnType<typeof startPublicationServer>> | undefined;
  const work = await startWorkServer(workConfig, {
    publish: { config: publishConfig, onPublished: () => publication?.refreshSchemas() },
  });
  try {
    const started = Date.now();
    if (work.bootstrap.created) {
      console.log(`Seeding the work database with the demo archive (${DEMO_INTERVIEWS} interviews) ...`);
      await seedWorkDemo(work.db, work.ontology.latest(), { interviews: DEMO_INTERVIEWS, seed: 1 });
    }
    if (work.bootstrap.created || !existsSync(file)) {
      console.log(`Publishing it to ${file} ...`);
      // The work server's own publisher, so its metrics count this run too.
      const publisher = work.publisher ?? createPublisher(publishConfig, work.ontology.latest());
      const summary = await publisher.publish(
        work.db,
        { rebuild: true },
        {
          onProgress: (p) =>
            process.stderr.write(`\r  ${Math.round((p.done / Math.max(1, p.total)) * 100)}%`),
        },
      );
      process.stderr.write('\n');
      console.log(
        `  ${summary.published} records, ${summary.rows} rows published in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
    }
    if (publicationConfig.mediaDir && existsSync(file)) writeDemoMedia(file, publicationConfig.mediaDir);
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
    Promise.allSettled([work.close(), publication?.close()]).then((results) =>
      process.exit(results.every((r) => r.status === 'fulfilled') ? 0 : 1),
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((err) => {
  // A configuration problem (2) or the embedded work database held by another process (3):
  // the message says what to do; anything else with its stack.
  const known = err instanceof ConfigError || err instanceof DataDirLocked;
  console.error(known ? err.message : err);
  process.exit(err instanceof ConfigError ? 2 : err instanceof DataDirLocked ? 3 : 1);
});
