/**
 * The publish CLI as an operator runs it (the compiled entry, as `npm run publish` does): a
 * summary and exit 0 on success, exit 3 with a message naming the target when it cannot be
 * reached, exit 2 on bad usage. Against a real PGlite work database and a SQLite target.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import { seedPublishArchive } from '../helpers/publish-fixture.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';

const CLI = resolve('dist/src/publish/publish-cli.js');
const pglite = workEngineCases().find((c) => c.engine === 'pglite')!;

describe.runIf(existsSync(CLI))('npm run publish (compiled CLI)', () => {
  let fresh: FreshDatabase;
  const tmp = mkdtempSync(join(tmpdir(), 'publish-cli-'));

  beforeAll(async () => {
    fresh = await pglite.freshDatabase();
    const db = await fresh.open();
    await migrateSchema(db);
    await seedPublishArchive(db, loadOntology());
    await db.close();
  });
  afterAll(async () => {
    await fresh?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  const run = (args: string[], targets: string) =>
    spawnSync(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, ...fresh.env, PUBLISH_TARGETS: targets },
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('publishes and prints a summary; exit 0', () => {
    const out = run(['--rebuild'], `site=sqlite:${join(tmp, 'site.sqlite')}`);
    expect(out.stderr).not.toMatch(/Error/);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain(`Publishing to site (SQLite ${join(tmp, 'site.sqlite')}): full rebuild`);
    expect(out.stdout).toMatch(
      /Done: 9 records read, 8 published, 0 removed, \d+ rows in [\d.]+ s \(\d+ rows\/s\)\./,
    );
    expect(out.stdout).toMatch(/Watermark of site: \d{4}-/);
    expect(existsSync(join(tmp, 'site.sqlite'))).toBe(true);
  });

  it('exits 3 naming the target when it cannot be reached, without its password', () => {
    const out = run([], 'remote=mysql://publisher:s3cret@127.0.0.1:1/site');
    expect(out.status).toBe(3);
    expect(out.stderr).toMatch(/^publication target "remote" is unavailable: /);
    expect(out.stdout + out.stderr).not.toContain('s3cret');
  });

  it('exits 2 on bad usage with the reason', () => {
    const out = run(['--id', 'x', '--section', 'oh1'], `site=sqlite:${join(tmp, 'site.sqlite')}`);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('--id must be a positive integer, got "x"');
    const unknown = run(['--section', 'dd128'], `site=sqlite:${join(tmp, 'site.sqlite')}`);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('section dd128 is not in the publication map');
  });
});
