/**
 * `npm start` with no configuration: makes sure a demo archive exists (generating one into
 * embedded SQLite files on first run), then serves it through the publication API and prints
 * the URL. Any variable of the publication configuration still applies (PORT, HOST, ...).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../common/config-error.js';
import { loadEnvFile } from '../common/env-file.js';
import { loadPublicationConfig } from '../publication/config.js';
import { startPublicationServer } from '../publication/server.js';
import { writeSqliteDemo } from './index.js';

const DEMO_DB = 'demo_archive';
const DEMO_INTERVIEWS = 300;

async function main(): Promise<void> {
  loadEnvFile();
  const dir = resolve(process.env.DB_SQLITE_DIR ?? './data/publication');
  const file = join(dir, `${DEMO_DB}.sqlite`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    console.log(`Generating the demo archive (${DEMO_INTERVIEWS} interviews) in ${file} ...`);
    await writeSqliteDemo(file, { interviews: DEMO_INTERVIEWS, seed: 1 }, (done, total) => {
      process.stderr.write(`\r  ${Math.round((done / total) * 100)}%`);
    });
    process.stderr.write('\n');
  }
  const config = loadPublicationConfig({
    LOG_LEVEL: 'warn',
    ...process.env,
    DB_DRIVER: 'sqlite',
    DB_SQLITE_DIR: dir,
    DB_NAMES: process.env.DB_NAMES ?? DEMO_DB,
  });
  const server = await startPublicationServer(config);
  console.log(`Publication API v2 (demo archive "${DEMO_DB}") listening on ${server.url}/`);
  console.log(`  try: curl '${server.url}/${DEMO_DB}/tables/interview/records?lang=lg-eng&limit=2'`);
  const shutdown = () => server.close().then(() => process.exit(0));
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(err instanceof ConfigError ? 2 : 1);
});
