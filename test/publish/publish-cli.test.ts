/**
 * The publish CLI as an operator runs it (the compiled entry, as `npm run publish` does): a
 * summary and exit 0 on success, exit 3 with a message naming the target when it cannot be
 * reached, exit 2 on bad usage. Against a real PGlite work database and a SQLite target. The
 * CLI reads the ontology stored in that database: a section added there by SQL gets a starting
 * map (`--print-map --section`) the CLI then publishes with, and a map naming what the ontology
 * lacks is refused before anything is written, each bad name listed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { installDefaultOntology, loadStoredOntology } from '../../src/work/ontology/ontology-store.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import { addNodes } from '../helpers/ontology-edits.js';
import { seedPublishArchive } from '../helpers/publish-fixture.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';
import { insertRecordValues, number, text } from '../helpers/work-records.js';

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
    // The archive's own ontology: the default one plus a section added by SQL.
    await installDefaultOntology(db);
    await addNodes(db, [
      { tipo: 'oh8801', parent: 'oh0', model: 'section', label: { 'lg-eng': 'Recordings' } },
      { tipo: 'oh8802', parent: 'oh8801', model: 'component_input_text', label: { 'lg-eng': 'Shelf mark' } },
      {
        tipo: 'oh8803',
        parent: 'oh8801',
        model: 'component_text_area',
        label: { 'lg-eng': 'Summary', 'lg-spa': 'Resumen' },
        translatable: true,
      },
      { tipo: 'oh8804', parent: 'oh8801', model: 'component_number', label: { 'lg-eng': 'Minutes' } },
      {
        tipo: 'oh8805',
        parent: 'oh8801',
        model: 'component_portal',
        label: { 'lg-eng': 'People' },
        target_section_tipo: ['rsc197'],
      },
      {
        tipo: 'oh8806',
        parent: 'oh8801',
        model: 'component_radio_button',
        label: { 'lg-eng': 'Publishable' },
        target_section_tipo: ['dd64'],
      },
      {
        tipo: 'oh8807',
        parent: 'oh8801',
        model: 'component_filter',
        label: { 'lg-eng': 'Projects' },
        target_section_tipo: ['dd153'],
      },
    ]);
    const { ontology } = await loadStoredOntology(db);
    await insertRecordValues(db, ontology, 'oh8801', 1, {
      oh8802: [text('SM-1')],
      oh8803: [text('Side A', 'lg-eng'), text('Cara A', 'lg-spa', 2)],
      oh8804: [number(42)],
      oh8806: [{ id: 1, type: 'dd151', section_tipo: 'dd64', section_id: 1, from_component_tipo: 'oh8806' }],
    });
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

  it('--print-map --section prints a starting map for a section of the stored ontology, which publishes as is', () => {
    const out = run(['--print-map', '--section', 'oh8801'], `site=sqlite:${join(tmp, 'site.sqlite')}`);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const map = JSON.parse(out.stdout);
    expect(map).toEqual({
      version: 1,
      languages: ['lg-eng', 'lg-spa', 'lg-cat', 'lg-fra'],
      fallback: 'first',
      tables: [
        {
          section_tipo: 'oh8801',
          table: 'recordings',
          translatable: true,
          publishable: 'oh8806',
          dd_relations: true,
          columns: [
            { name: 'shelf_mark', component: 'oh8802', value: 'text', type: 'varchar', full_text: false },
            { name: 'summary', component: 'oh8803', value: 'text', type: 'text', full_text: true },
            { name: 'minutes', component: 'oh8804', value: 'number', type: 'real', full_text: false },
            { name: 'people', component: 'oh8805', value: 'ids', type: 'text', full_text: false },
          ],
        },
      ],
    });
    const mapFile = join(tmp, 'recordings-map.json');
    writeFileSync(mapFile, out.stdout);
    const target = join(tmp, 'recordings.sqlite');
    const published = spawnSync(process.execPath, [CLI, '--section', 'oh8801'], {
      env: {
        PATH: process.env.PATH,
        ...fresh.env,
        PUBLISH_TARGETS: `site=sqlite:${target}`,
        PUBLICATION_MAP: mapFile,
      },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(published.status, published.stderr).toBe(0);
    const sqlite = new Database(target, { readonly: true });
    try {
      expect(
        sqlite
          .prepare('SELECT section_id, lang, shelf_mark, summary, minutes FROM recordings ORDER BY lang')
          .all(),
      ).toEqual([
        { section_id: 1, lang: 'lg-eng', shelf_mark: 'SM-1', summary: 'Side A', minutes: 42 },
        { section_id: 1, lang: 'lg-spa', shelf_mark: 'SM-1', summary: 'Cara A', minutes: 42 },
      ]);
    } finally {
      sqlite.close();
    }
    const notSection = run(['--print-map', '--section', 'oh8802'], `site=sqlite:${join(tmp, 'site.sqlite')}`);
    expect(notSection.status).toBe(2);
    expect(notSection.stderr).toContain('--section oh8802: oh8802 is a component_input_text, not a section');
  });

  it('refuses, before writing anything, a map naming what the stored ontology lacks, each bad name listed', () => {
    const mapFile = join(tmp, 'bad-map.json');
    writeFileSync(
      mapFile,
      JSON.stringify({
        version: 1,
        languages: ['lg-eng'],
        tables: [
          {
            section_tipo: 'oh8801',
            table: 'recordings',
            translatable: false,
            columns: [
              { name: 'shelf_mark', component: 'oh8802', value: 'text', type: 'varchar' },
              { name: 'gone', component: 'oh8899', value: 'text', type: 'varchar' },
            ],
          },
          {
            section_tipo: 'oh8898',
            table: 'missing',
            translatable: false,
            columns: [{ name: 'x', component: 'oh8802', value: 'text', type: 'varchar' }],
          },
        ],
      }),
    );
    const target = join(tmp, 'refused.sqlite');
    const out = spawnSync(process.execPath, [CLI, '--rebuild'], {
      env: {
        PATH: process.env.PATH,
        ...fresh.env,
        PUBLISH_TARGETS: `site=sqlite:${target}`,
        PUBLICATION_MAP: mapFile,
      },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(out.status).toBe(2);
    expect(out.stderr).toContain(`publication map ${mapFile} is invalid`);
    expect(out.stderr).toContain('tables[0].columns[1].component: oh8899 is not in the ontology');
    expect(out.stderr).toContain('tables[1].section_tipo: oh8898 is not in the ontology');
    expect(existsSync(target)).toBe(false);
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
