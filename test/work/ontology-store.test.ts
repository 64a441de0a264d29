/**
 * The ontology as data in the work database, on both engines: the first start installs the
 * default content into dd_ontology and loads back exactly the default ontology; a database of
 * before migration 12 keeps its records; a change written by SQL bumps the version and is
 * picked up by the next `current()`, while an Ontology already handed to a request stays as it
 * was; a broken change never replaces a working ontology; a broken table stops the start with
 * every problem named.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bootstrapDatabase } from '../../src/work/bootstrap/bootstrap-database.js';
import { loadWorkConfig } from '../../src/work/config.js';
import { defaultOntologySource } from '../../src/work/ontology/default-ontology.js';
import { loadOntology, OntologyError } from '../../src/work/ontology/load-ontology.js';
import {
  installDefaultOntology,
  LiveOntology,
  loadStoredOntology,
  readOntologyVersion,
  readStoredOntology,
} from '../../src/work/ontology/ontology-store.js';
import { startWorkServer } from '../../src/work/server.js';
import { MATRIX_TABLES_V1 } from '../../src/work/store/matrix-tables.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import { MIGRATIONS } from '../../src/work/store/migrations.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';
import { TEST_ROOT_PASSWORD } from '../helpers/work-server.js';

const defaults = loadOntology();

describe.each(workEngineCases())('the ontology in the database ($engine)', ({ freshDatabase }) => {
  let fresh: FreshDatabase | undefined;
  afterEach(async () => {
    await fresh?.dispose();
    fresh = undefined;
  });

  it('installs the default content on first start and loads back the same ontology', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    const report = await bootstrapDatabase(db, loadOntology(), { rootPassword: 'x' });
    expect(report.ontologyInstalled).toBe(true);
    const { rows } = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM dd_ontology');
    expect(Number(rows[0]!.n)).toBe(defaultOntologySource().nodes.length);
    const tlds = await db.query<{ tld: string }>('SELECT tld FROM main_dd ORDER BY tld');
    expect(tlds.rows.map((r) => r.tld)).toEqual(['dd', 'hierarchy', 'oh', 'ontology', 'rsc', 'ts']);
    // Dédalo's columns: labels per language in term, targets in relations, the TLD.
    const oh24 = await db.query(
      `SELECT parent, term, model, relations, tld, is_translatable, order_number FROM dd_ontology WHERE tipo = 'oh24'`,
    );
    expect(oh24.rows[0]).toEqual({
      parent: 'oh2',
      term: { 'lg-eng': 'Informants', 'lg-spa': 'Informantes', 'lg-cat': 'Informants' },
      model: 'component_portal',
      relations: [{ tipo: 'rsc197' }],
      tld: 'oh',
      is_translatable: false,
      order_number: 4,
    });

    // The stored source is the default content, node for node and in the same order.
    const stored = await readStoredOntology(db);
    expect(stored.problems).toEqual([]);
    expect(stored.source.nodes).toEqual(defaultOntologySource().nodes);
    expect(stored.source.languages).toEqual(defaultOntologySource().languages);
    const { ontology } = await loadStoredOntology(db);
    expect(ontology.sections().map((s) => s.tipo)).toEqual(defaults.sections().map((s) => s.tipo));
    expect(ontology.sectionComponents('oh1')).toEqual(defaults.sectionComponents('oh1'));
    expect(ontology.tableOf('dd542')).toBe('matrix_activity');
    expect(ontology.node('dd542')?.read_only).toBe(true);

    // A second start installs nothing again.
    expect((await bootstrapDatabase(db, loadOntology())).ontologyInstalled).toBe(false);
    expect(await installDefaultOntology(db)).toBe(false);
  });

  it('migrates a database of before the ontology tables with every record untouched', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await migrateSchema(
      db,
      MIGRATIONS.filter((m) => m.version < 12),
    );
    for (const table of MATRIX_TABLES_V1) {
      await db.query(
        `INSERT INTO ${table} (section_tipo, section_id, string, meta) VALUES ('oh1', 7, $1::jsonb, '{"oh14": 1}'::jsonb)`,
        [JSON.stringify({ oh14: [{ id: 1, lang: 'lg-nolan', value: `kept in ${table}` }] })],
      );
    }
    // Later migrations may add columns (matrix_activity's import ids, NULL on existing rows):
    // what must be untouched is every value a row had.
    const ADDED_LATER = ['import_id', 'undo_of_import'];
    const rowsOf = async (table: string) =>
      (
        await db.query<Record<string, unknown>>(
          `SELECT * FROM ${table} WHERE section_tipo = 'oh1' AND section_id = 7`,
        )
      ).rows.map((row) => {
        for (const column of ADDED_LATER) {
          expect(row[column] ?? null).toBeNull();
          delete row[column];
        }
        return row;
      });
    const before = await Promise.all(MATRIX_TABLES_V1.map(rowsOf));

    const report = await bootstrapDatabase(db, async (d) => (await loadStoredOntology(d)).ontology, {
      rootPassword: 'x',
    });
    expect(report.migrationsApplied).toContain(12);
    expect(report.ontologyInstalled).toBe(true);
    expect(await Promise.all(MATRIX_TABLES_V1.map(rowsOf))).toEqual(before);
    expect((await loadStoredOntology(db)).ontology.sections()).toEqual(defaults.sections());
  });

  it('picks up a change written by SQL at the next request; an ontology in use stays as it was', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await bootstrapDatabase(db, loadOntology(), { rootPassword: 'x' });
    const live = await LiveOntology.open(db);
    const inFlight = await live.current();
    const version = await readOntologyVersion(db);
    expect(live.version).toBe(version);

    await db.query(
      `UPDATE dd_ontology SET term = term || '{"lg-eng": "Interview code"}' WHERE tipo = 'oh14'`,
    );
    await db.query(
      `INSERT INTO dd_ontology (tipo, parent, term, model, order_number, tld)
       VALUES ('oh90', 'oh2', '{"lg-eng": "Place"}', 'component_input_text', 99, 'oh')`,
    );
    expect(await readOntologyVersion(db)).toBe(version + 2);

    const next = await live.current();
    expect(next).not.toBe(inFlight);
    expect(next.node('oh14')?.label['lg-eng']).toBe('Interview code');
    expect(next.sectionComponents('oh1').map((c) => c.tipo)).toContain('oh90');
    expect(next.sectionComponents('oh1').at(6)?.tipo).toBe('oh90'); // after oh17, its group's last
    // The request that started before the change still sees the version it started with.
    expect(inFlight.node('oh14')?.label['lg-eng']).toBe('Code');
    expect(inFlight.node('oh90')).toBeUndefined();
    // No change: the same object, no reload.
    expect(await live.current()).toBe(next);
  });

  it('keeps the last good ontology when a change breaks it, and says what is wrong', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await bootstrapDatabase(db, loadOntology(), { rootPassword: 'x' });
    const refused: string[][] = [];
    const live = await LiveOntology.open(db, (problems) => refused.push(problems));
    const good = await live.current();
    await db.query(`UPDATE dd_ontology SET model = 'Component_Input_Text' WHERE tipo = 'oh14'`);
    expect(await live.current()).toBe(good);
    expect(await live.current()).toBe(good);
    expect(refused).toEqual([['oh14 has a model "Component_Input_Text" that is not a model name']]);
    // Fixed: loaded again.
    await db.query(`UPDATE dd_ontology SET model = 'component_input_text' WHERE tipo = 'oh14'`);
    const fixed = await live.current();
    expect(fixed).not.toBe(good);
    expect(fixed.node('oh14')?.model).toBe('component_input_text');
  });

  it('refuses to start on a broken ontology, naming every problem', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await bootstrapDatabase(db, loadOntology(), { rootPassword: TEST_ROOT_PASSWORD });
    await db.query(`UPDATE dd_ontology SET model = 'Component_Input_Text' WHERE tipo = 'oh14'`);
    await db.query(`UPDATE dd_ontology SET parent = 'zz1' WHERE tipo = 'oh16'`);
    await db.query(`UPDATE dd_ontology SET relations = '[{"tipo": "oh14"}]' WHERE tipo = 'oh24'`);
    await db.query(
      `INSERT INTO dd_ontology (tipo, parent, term, model, tld) VALUES ('xx1', 'oh1', '{"lg-eng": "x"}', 'section_group', 'xx')`,
    );
    await db.close();
    const config = loadWorkConfig({ PORT: '0', LOG_LEVEL: 'silent', ...fresh.env });
    const error = await startWorkServer(config).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(OntologyError);
    expect((error as OntologyError).problems).toEqual([
      'xx1 belongs to the TLD xx, which is not registered',
      'oh14 has a model "Component_Input_Text" that is not a model name',
      'oh24 targets oh14, not a section',
      'oh16 has a missing parent zz1',
    ]);
    expect((error as OntologyError).message).toMatch(/^Invalid ontology \(4 problems\):/);
  });
});
