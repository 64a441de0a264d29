import { afterEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/work/auth/password-hash.js';
import { bootstrapDatabase } from '../../src/work/bootstrap/bootstrap-database.js';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { readCounter } from '../../src/work/store/counters.js';
import type { SqlQueryable } from '../../src/work/store/sql-client.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';

const ontology = loadOntology();

interface Row {
  section_tipo: string;
  section_id: number;
  string: Record<string, { id: number; lang: string; value: string }[]>;
  relation: Record<string, { type: string; section_tipo: string; section_id: number }[]>;
  misc: Record<string, { tipo: string; section_tipo: string; value: number }[]>;
  meta: Record<string, number>;
}

const rows = async (db: SqlQueryable, table: string) =>
  (await db.query<Row>(`SELECT * FROM ${table} ORDER BY section_tipo, section_id`)).rows;

/** A profile's level on (section_tipo, tipo), 0 when absent, as permissions will read it. */
function level(profile: Row, sectionTipo: string, tipo: string): number {
  return profile.misc.dd774?.find((i) => i.section_tipo === sectionTipo && i.tipo === tipo)?.value ?? 0;
}

describe.each(workEngineCases())('first-start bootstrap ($engine)', ({ freshDatabase }) => {
  let fresh: FreshDatabase | undefined;
  afterEach(async () => {
    await fresh?.dispose();
    fresh = undefined;
  });

  it('creates root, the default project and the two profiles exactly once', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    const first = await bootstrapDatabase(db, ontology, { rootPassword: 'correct horse battery' });
    expect(first.created).toBe(true);
    expect(first.migrationsApplied.length).toBeGreaterThan(0);
    expect(first.generatedRootPassword).toBeUndefined();

    const users = await rows(db, 'matrix_users');
    expect(users.map((u) => [u.section_tipo, u.section_id])).toEqual([['dd128', -1]]);
    const root = users[0]!;
    expect(root.string.dd132).toEqual([{ id: 1, lang: 'lg-nolan', value: 'root' }]);
    expect(root.relation.dd244).toEqual([
      { type: 'dd151', section_tipo: 'dd64', section_id: 1, from_component_tipo: 'dd244' },
    ]);
    expect(root.relation.dd170?.[0]).toMatchObject({ type: 'dd675', section_tipo: 'dd153', section_id: 1 });
    const hash = root.string.dd133![0]!.value;
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse battery')).toBe(false);

    const projects = await rows(db, 'matrix_projects');
    expect(projects.map((p) => [p.section_tipo, p.section_id])).toEqual([['dd153', 1]]);

    const profiles = await rows(db, 'matrix_profiles');
    expect(profiles.map((p) => [p.section_id, p.string.dd237?.[0]?.value])).toEqual([
      [1, 'Admin'],
      [2, 'Cataloguer'],
    ]);
    const [admin, cataloguer] = profiles as [Row, Row];
    for (const [section, tipo] of [
      ['oh1', 'oh1'],
      ['oh1', 'oh16'],
      ['dd128', 'dd133'],
      ['dd88', 'dd88'],
      ['ts1', 'hierarchy25'],
    ]) {
      expect(level(admin, section!, tipo!)).toBe(3);
    }
    expect(level(cataloguer, 'oh1', 'oh1')).toBe(2);
    expect(level(cataloguer, 'oh1', 'oh24')).toBe(2);
    expect(level(cataloguer, 'rsc167', 'rsc36')).toBe(2);
    expect(level(cataloguer, 'ts1', 'hierarchy25')).toBe(1);
    // Indexing writes the term's indexations: that component, and only it, is writable.
    expect(level(cataloguer, 'ts1', 'hierarchy40')).toBe(2);
    expect(level(cataloguer, 'ts1', 'ts1')).toBe(1);
    expect(level(cataloguer, 'dd100', 'dd100')).toBe(1);
    expect(level(cataloguer, 'dd88', 'dd88')).toBe(0);
    expect(level(cataloguer, 'dd128', 'dd132')).toBe(0);
    // Read on the lists its fields point into: Publishable (dd64) and Projects (dd153).
    for (const [section, tipo] of [
      ['dd64', 'dd64'],
      ['dd64', 'dd62'],
      ['dd153', 'dd153'],
      ['dd153', 'dd156'],
    ])
      expect(level(cataloguer, section!, tipo!)).toBe(1);
    expect(level(cataloguer, 'dd234', 'dd774')).toBe(0);

    const yesNo = await rows(db, 'matrix');
    expect(yesNo.map((r) => [r.section_tipo, r.section_id, r.string.dd62?.[0]?.value])).toEqual([
      ['dd64', 1, 'Yes'],
      ['dd64', 2, 'No'],
    ]);
    expect(await readCounter(db, 'dd153')).toBe(1);
    expect(await readCounter(db, 'dd234')).toBe(2);
    expect(await readCounter(db, 'dd64')).toBe(2);
    expect(await readCounter(db, 'dd128')).toBe(0);
    await db.close();

    // A second start, even with another password, leaves everything as it was.
    const again = await fresh.open();
    const second = await bootstrapDatabase(again, ontology, { rootPassword: 'another password' });
    expect(second).toEqual({ migrationsApplied: [], ontologyInstalled: false, created: false });
    expect(await rows(again, 'matrix_users')).toEqual(users);
    expect(await rows(again, 'matrix_profiles')).toEqual(profiles);
    expect(await rows(again, 'matrix_projects')).toEqual(projects);
    expect(await readCounter(again, 'dd234')).toBe(2);
  });

  it('an existing install: the untouched default Cataloguer gets read on its lists and indexing at the next start, an edited one never', async () => {
    const LISTS = new Set(['dd64', 'dd153']);
    /** The profile as the first release made it: no item on the value lists, indexations read only. */
    const asFirstRelease = (db: SqlQueryable) =>
      db.query(
        `UPDATE matrix_profiles SET misc = jsonb_set(misc, '{dd774}', (
           SELECT jsonb_agg(CASE WHEN i->>'tipo' = 'hierarchy40' THEN jsonb_set(i, '{value}', '1') ELSE i END)
           FROM jsonb_array_elements(misc->'dd774') i
           WHERE NOT (i->>'section_tipo' = ANY($1))))
         WHERE section_tipo = 'dd234' AND section_id = 2`,
        [[...LISTS]],
      );
    const cataloguer = async (db: SqlQueryable) =>
      (await rows(db, 'matrix_profiles')).find((p) => p.section_id === 2)!;

    fresh = await freshDatabase();
    const db = await fresh.open();
    await bootstrapDatabase(db, ontology, { rootPassword: 'pw' });
    await asFirstRelease(db);
    expect(level(await cataloguer(db), 'dd64', 'dd64')).toBe(0);
    expect(level(await cataloguer(db), 'ts1', 'hierarchy40')).toBe(1);
    const admin = (await rows(db, 'matrix_profiles')).find((p) => p.section_id === 1)!;

    const next = await bootstrapDatabase(db, ontology, { rootPassword: 'pw' });
    // Four list items added, and every term section's indexation raised to write.
    const indexations = accessItemsUnder(ontology, 'dd100', 0).filter((i) => i.tipo === 'hierarchy40');
    expect(next.cataloguerTopUp).toBe(4 + indexations.length);
    const topped = await cataloguer(db);
    for (const [section, tipo] of [
      ['dd64', 'dd64'],
      ['dd64', 'dd62'],
      ['dd153', 'dd153'],
      ['dd153', 'dd156'],
    ])
      expect(level(topped, section!, tipo!)).toBe(1);
    expect(level(topped, 'ts1', 'hierarchy40')).toBe(2);
    // One item per element: the raised one replaced, not doubled.
    expect(
      (topped.misc.dd774 ?? []).filter((i) => i.section_tipo === 'ts1' && i.tipo === 'hierarchy40'),
    ).toHaveLength(1);
    // Nothing else moved: its other levels, the Admin profile.
    expect(level(topped, 'oh1', 'oh1')).toBe(2);
    expect(level(topped, 'dd128', 'dd128')).toBe(0);
    expect((await rows(db, 'matrix_profiles')).find((p) => p.section_id === 1)).toEqual(admin);
    // Written as any save is: a history row and an activity row.
    const history = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM matrix_time_machine WHERE section_tipo = 'dd234' AND section_id = 2 AND tipo = 'dd774'`,
    );
    expect(history.rows[0]!.n).toBe(1);
    const activity = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM matrix_activity WHERE string->'dd546'->0->>'value' = 'dd774'`,
    );
    expect(activity.rows[0]!.n).toBe(1);
    // Again: nothing to add.
    expect((await bootstrapDatabase(db, ontology, { rootPassword: 'pw' })).cataloguerTopUp).toBeUndefined();

    // An administrator took the reads away (the profile has history now): never widened again.
    await asFirstRelease(db);
    expect((await bootstrapDatabase(db, ontology, { rootPassword: 'pw' })).cataloguerTopUp).toBeUndefined();
    expect(level(await cataloguer(db), 'dd64', 'dd64')).toBe(0);
    await db.close();
  });

  it('generates a root password when none is configured, and it verifies', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    const report = await bootstrapDatabase(db, ontology);
    expect(report.created).toBe(true);
    const password = report.generatedRootPassword!;
    expect(password.length).toBeGreaterThanOrEqual(20);
    const [root] = await rows(db, 'matrix_users');
    expect(await verifyPassword(root!.string.dd133![0]!.value, password)).toBe(true);
    expect((await bootstrapDatabase(db, ontology)).generatedRootPassword).toBeUndefined();
  });

  it('two instances starting at once bootstrap once', async () => {
    fresh = await freshDatabase();
    const a = await fresh.open();
    // PGlite is one embedded backend per directory: a second instance means a second client
    // only on PostgreSQL; on PGlite both starts share the one client.
    const b = fresh.database.engine === 'postgres' ? await fresh.open() : a;
    const reports = await Promise.all([
      bootstrapDatabase(a, ontology, { rootPassword: 'first instance' }),
      bootstrapDatabase(b, ontology, { rootPassword: 'second instance' }),
    ]);
    expect(reports.filter((r) => r.created)).toHaveLength(1);
    expect(await rows(a, 'matrix_users')).toHaveLength(1);
    expect(await rows(a, 'matrix_profiles')).toHaveLength(2);
  });
});
