/**
 * Importing one TLD of a Dédalo ontology file into the work database, on both engines: each of
 * the three formats installs the `mus` fixture (every implemented model, unimplemented ones kept,
 * relations into a TLD that is never installed, labels in a language the archive does not offer)
 * and the loaded ontology has its sections; importing again (in any format) changes nothing;
 * export → import → export gives the same bytes; a changed file reports what changed; a result
 * that would break the ontology, a dry run and an unreadable file write nothing; records are
 * never touched.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bootstrapDatabase, ROOT_USER_ID } from '../../../src/work/bootstrap/bootstrap-database.js';
import { exportTld } from '../../../src/work/ontology/import/export-tld.js';
import {
  type ImportTldOptions,
  importOntologyTld,
  OntologyImportRefused,
} from '../../../src/work/ontology/import/import-tld.js';
import { loadOntology } from '../../../src/work/ontology/load-ontology.js';
import { loadStoredOntology, readOntologyVersion } from '../../../src/work/ontology/ontology-store.js';
import type { SqlClient } from '../../../src/work/store/sql-client.js';
import { type FreshDatabase, workEngineCases } from '../../helpers/work-engines.js';
import { insertRecordValues, text } from '../../helpers/work-records.js';

const dir = join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => readFileSync(join(dir, name), 'utf8');
const FORMATS = [
  ['mus.jer_dd.sql', 'jer_dd/sql-insert'],
  ['mus.jer_dd.copy.sql', 'jer_dd/copy'],
  ['mus.dd_ontology.copy.sql', 'dd_ontology/copy'],
] as const;
const MUS_NODES = 47;

const options = (text: string, more: Partial<ImportTldOptions> = {}): ImportTldOptions => ({
  text,
  fileName: '/somewhere/mus.file.sql',
  tld: 'mus',
  userId: ROOT_USER_ID,
  via: 'cli',
  now: new Date('2026-11-26T21:00:00Z'),
  ...more,
});

async function rowCount(db: SqlClient, sql: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM (${sql}) q`);
  return Number(rows[0]!.n);
}

describe.each(workEngineCases())('ontology import of one TLD ($engine)', ({ freshDatabase }) => {
  let fresh: FreshDatabase | undefined;
  afterEach(async () => {
    await fresh?.dispose();
    fresh = undefined;
  });

  const start = async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await bootstrapDatabase(db, loadOntology(), { rootPassword: 'x' });
    return db;
  };

  it.each(FORMATS)('imports %s (%s): the mus sections load, records untouched', async (name, format) => {
    const db = await start();
    await insertRecordValues(db, loadOntology(), 'oh1', 1, { oh14: [text('OH-1')] });
    const recordsBefore = await db.query('SELECT * FROM matrix ORDER BY section_tipo, section_id');

    const report = await importOntologyTld(db, options(fixture(name), { fileName: `/tmp/${name}` }));
    expect(report).toMatchObject({
      file: name,
      format,
      tld: 'mus',
      name: 'Museum',
      written: true,
      added: { count: MUS_NODES },
      changed: { count: 0 },
      removed: { count: 0 },
      unchanged: 0,
      relations_to_tlds_not_installed: { numisdata: 2 },
      attached_to_root: [{ tipo: 'mus1', parent: null }],
      labels_in_languages_not_offered: ['lg-ita'],
      refused: [],
    });
    expect(report.added.tipos.slice(0, 3)).toEqual(['mus1', 'mus2', 'mus3']);
    expect(Object.keys(report.models_not_implemented).sort()).toEqual([
      'button_new',
      'component_3d',
      'component_geolocation',
      'component_iri',
      'component_svg',
      'section_list',
    ]);

    const { ontology } = await loadStoredOntology(db);
    expect(ontology.node('mus1')?.parent).toBe(ontology.rootTipo);
    expect(ontology.node('mus4')?.label).toEqual({
      'lg-spa': 'Número de inventario',
      'lg-cat': "Número d'inventari",
      'lg-eng': 'Inventory number',
      'lg-fra': "Numéro d'inventaire",
      'lg-ita': 'Numero di inventario',
    });
    expect(ontology.node('mus4')?.properties).toEqual({ mandatory: true, unique: true });
    expect(ontology.sections().map((s) => s.tipo)).toEqual(
      expect.arrayContaining(['mus2', 'mus30', 'mus40', 'mus50', 'mus60']),
    );
    expect(ontology.tableOf('mus2')).toBe('matrix');
    expect(ontology.sectionComponents('mus2').map((c) => c.tipo)).toContain('mus13');
    // Relations into a TLD that is not installed are ignored by the loaded ontology, kept stored.
    expect(ontology.node('mus17')?.target_section_tipo).toEqual(['ts1']);
    expect(ontology.node('mus35')?.target_section_tipo).toBeUndefined();
    const stored = await db.query(`SELECT relations FROM dd_ontology WHERE tipo = 'mus35'`);
    expect(stored.rows[0]).toEqual({ relations: [{ tipo: 'numisdata1' }] });
    expect(ontology.notImplemented.map((n) => n.tipo)).toEqual(
      expect.arrayContaining(['mus22', 'mus27', 'mus28', 'mus29', 'mus34']),
    );
    const tld = await db.query(`SELECT name, source FROM main_dd WHERE tld = 'mus'`);
    expect(tld.rows).toEqual([{ name: 'Museum', source: `import ${name}` }]);
    // The model nodes its elements name are kept (so Dédalo model tipos stay resolvable).
    expect(await rowCount(db, `SELECT 1 FROM dd_ontology WHERE is_model`)).toBeGreaterThan(0);
    // Languages are not added: lg-ita labels are kept, lg-ita is not offered.
    expect(ontology.isLanguage('lg-ita')).toBe(false);

    expect((await db.query('SELECT * FROM matrix ORDER BY section_tipo, section_id')).rows).toEqual(
      recordsBefore.rows,
    );
    const activity = await db.query<{ data: Record<string, unknown> }>(
      `SELECT misc->'dd551'->0->'value' AS data FROM matrix_activity
       WHERE string->'dd545'->0->>'value' = 'ontology_import'`,
    );
    expect(activity.rows.map((r) => r.data)).toEqual([
      { tld: 'mus', file: name, format, added: MUS_NODES, changed: 0, removed: 0, via: 'cli' },
    ]);
  });

  it('imports again, in every format, with nothing to change; export → import → export is identical', async () => {
    const db = await start();
    await importOntologyTld(db, options(fixture('mus.jer_dd.sql')));
    for (const [name] of FORMATS) {
      const again = await importOntologyTld(db, options(fixture(name)));
      expect([again.added.count, again.changed.count, again.removed.count, again.unchanged]).toEqual([
        0,
        0,
        0,
        MUS_NODES,
      ]);
    }
    for (const format of ['dd_ontology', 'jer_dd'] as const) {
      const exported = await exportTld(db, 'mus', format);
      // The export holds mus and the model nodes it names: mus is chosen without --tld.
      const back = await importOntologyTld(db, options(exported, { tld: null }));
      expect([back.added.count, back.changed.count, back.removed.count]).toEqual([0, 0, 0]);
      expect(await exportTld(db, 'mus', format)).toBe(exported);
    }
  });

  it('reports what changed and what was removed; the TLD then holds exactly the file', async () => {
    const db = await start();
    await importOntologyTld(db, options(fixture('mus.dd_ontology.copy.sql')));
    const edited = fixture('mus.dd_ontology.copy.sql')
      .replace('"lg-eng":"Inventory number"', '"lg-eng":"Accession number"')
      .split('\n')
      .filter((line) => !line.includes('\tmus42\t'))
      .join('\n');
    const report = await importOntologyTld(db, options(edited));
    expect(report).toMatchObject({
      changed: { count: 1, tipos: ['mus4'] },
      removed: { count: 1, tipos: ['mus42'] },
      added: { count: 0 },
    });
    const { ontology } = await loadStoredOntology(db);
    expect(ontology.node('mus4')?.label['lg-eng']).toBe('Accession number');
    expect(ontology.node('mus42')).toBeUndefined();
  });

  it('refuses a result that would break the ontology, a dry run writes nothing, a bad file is refused', async () => {
    const db = await start();
    const version = await readOntologyVersion(db);
    const count = await rowCount(db, 'SELECT 1 FROM dd_ontology');

    // A portal whose target is an installed element that is not a section.
    const broken = fixture('mus.dd_ontology.copy.sql').replace('[{"tipo":"mus30"}]', '[{"tipo":"oh14"}]');
    const err = await importOntologyTld(db, options(broken)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OntologyImportRefused);
    expect((err as OntologyImportRefused).reason).toBe('broken');
    expect((err as OntologyImportRefused).problems).toEqual(['mus12 targets oh14, not a section']);

    const dry = await importOntologyTld(db, options(fixture('mus.jer_dd.sql'), { dryRun: true }));
    expect(dry).toMatchObject({ dry_run: true, written: false, added: { count: MUS_NODES } });

    const bad = await importOntologyTld(db, options('COPY public.jer_dd (x) FROM stdin;\n\\.\n')).catch(
      (e: unknown) => e,
    );
    expect(bad).toMatchObject({ reason: 'bad_file' });

    // A file holding several TLDs with elements needs the TLD named.
    const several = await importOntologyTld(db, options(fixture('mus.jer_dd.sql'), { tld: null })).catch(
      (e: unknown) => e,
    );
    expect(several).toMatchObject({ reason: 'tld_required' });
    expect((several as OntologyImportRefused).problems[0]).toMatch(/dd, mus/);

    expect(await readOntologyVersion(db)).toBe(version);
    expect(await rowCount(db, 'SELECT 1 FROM dd_ontology')).toBe(count);
    expect(await rowCount(db, `SELECT 1 FROM main_dd WHERE tld = 'mus'`)).toBe(0);
  });
});
