import { afterEach, describe, expect, it } from 'vitest';
import { MATRIX_TABLES_V1 } from '../../src/work/store/matrix-tables.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import { MIGRATIONS } from '../../src/work/store/migrations.js';
import { componentVersion, readRecord } from '../../src/work/store/record-rows.js';
import type { SqlQueryable } from '../../src/work/store/sql-client.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';

/** Everything a migration could change: columns (with types and defaults) and indexes. */
async function schemaFingerprint(db: SqlQueryable): Promise<string> {
  const columns = await db.query(
    `SELECT table_name, column_name, data_type, is_nullable, column_default
     FROM information_schema.columns WHERE table_schema = 'public'
     ORDER BY table_name, ordinal_position`,
  );
  const indexes = await db.query(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`,
  );
  return JSON.stringify({ columns: columns.rows, indexes: indexes.rows });
}

const latest = Math.max(...MIGRATIONS.map((m) => m.version));

describe.each(workEngineCases())('schema migrations ($engine)', ({ freshDatabase }) => {
  let fresh: FreshDatabase | undefined;
  afterEach(async () => {
    await fresh?.dispose();
    fresh = undefined;
  });

  it('creates every table on an empty database and records the version', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    const report = await migrateSchema(db);
    expect(report).toEqual({ applied: MIGRATIONS.map((m) => m.version), version: latest });
    const { rows } = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    expect(rows.map((r) => r.table_name)).toEqual([
      'component_locks',
      'dd_ontology',
      'dd_ontology_languages',
      'idempotency_keys',
      'import_records',
      'imports',
      'last_sweep',
      'login_known_addresses',
      'login_throttle',
      'main_dd',
      'matrix',
      'matrix_activity',
      'matrix_counter',
      'matrix_hierarchy',
      'matrix_number_search',
      'matrix_ontology',
      'matrix_ontology_main',
      'matrix_profiles',
      'matrix_projects',
      'matrix_sort_key',
      'matrix_string_search',
      'matrix_time_machine',
      'matrix_users',
      'ontology_version',
      'permissions_version',
      'publish_watermarks',
      'schema_migrations',
      'server_secrets',
      'sessions',
    ]);
    const matrixColumns = await db.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
       WHERE table_name = 'matrix_users' AND data_type = 'jsonb' ORDER BY ordinal_position`,
    );
    expect(matrixColumns.rows.map((r) => r.column_name)).toEqual([
      'string',
      'relation',
      'date',
      'number',
      'media',
      'misc',
      'meta',
      'versions',
    ]);
  });

  it('changes nothing on a second start (a new client on the same database)', async () => {
    fresh = await freshDatabase();
    const first = await fresh.open();
    await migrateSchema(first);
    const before = await schemaFingerprint(first);
    await first.close();

    const second = await fresh.open();
    expect(await migrateSchema(second)).toEqual({ applied: [], version: latest });
    expect(await schemaFingerprint(second)).toBe(before);
    const { rows } = await second.query<{ version: number }>('SELECT version FROM schema_migrations');
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('rolls a failing migration back whole and applies it on the next run', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await migrateSchema(db);
    const broken = {
      version: latest + 1,
      name: 'test: second statement fails',
      statements: ['CREATE TABLE half_made (id integer)', 'SELECT no_such_function()'],
    };
    await expect(migrateSchema(db, [...MIGRATIONS, broken])).rejects.toThrow();
    const half = await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_made'`);
    expect(half.rowCount).toBe(0);
    const fixed = { ...broken, statements: ['CREATE TABLE half_made (id integer)'] };
    expect(await migrateSchema(db, [...MIGRATIONS, fixed])).toEqual({
      applied: [latest + 1],
      version: latest + 1,
    });
  });
  it('migration 7 rewrites activity dates written as {value: {start}} to date items {start}', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await migrateSchema(
      db,
      MIGRATIONS.filter((m) => m.version < 7),
    );
    const start = { year: 2026, month: 11, day: 24, hour: 10, minute: 2, second: 3 };
    await db.query(
      `INSERT INTO matrix_activity (section_tipo, section_id, date) VALUES ('dd542', 1, $1::jsonb)`,
      [JSON.stringify({ dd547: [{ id: 1, lang: 'lg-nolan', value: { start } }] })],
    );
    await migrateSchema(db);
    const { rows } = await db.query<{ date: unknown }>(
      "SELECT date FROM matrix_activity WHERE section_tipo = 'dd542' AND section_id = 1",
    );
    expect(rows[0]!.date).toEqual({ dd547: [{ id: 1, lang: 'lg-nolan', start }] });
  });

  it('migration 10 gives every matrix table component versions, keeping every row as it was (version 0)', async () => {
    fresh = await freshDatabase();
    const db = await fresh.open();
    await migrateSchema(
      db,
      MIGRATIONS.filter((m) => m.version < 10),
    );
    const string = { oh14: [{ id: 1, lang: 'lg-nolan', value: 'WC-1' }] };
    const relation = {
      oh22: [{ type: 'dd675', section_tipo: 'dd153', section_id: 1, from_component_tipo: 'oh22' }],
    };
    for (const table of MATRIX_TABLES_V1) {
      await db.query(
        `INSERT INTO ${table} (section_tipo, section_id, string, relation, meta, created_by, modified_at, modified_by)
         VALUES ('oh1', 7, $1::jsonb, $2::jsonb, '{"oh14": 1}'::jsonb, 3, '2026-01-02T03:04:05Z', 4)`,
        [JSON.stringify(string), JSON.stringify(relation)],
      );
    }
    const rowsOf = async (table: string) =>
      (
        await db.query(
          `SELECT section_tipo, section_id, string, relation, date, number, media, misc, meta, created_at,
             created_by, modified_at, modified_by FROM ${table}`,
        )
      ).rows;
    const before = await Promise.all(MATRIX_TABLES_V1.map(rowsOf));

    expect(await migrateSchema(db)).toEqual({
      applied: [10, ...MIGRATIONS.filter((m) => m.version > 10).map((m) => m.version)],
      version: latest,
    });
    expect(await Promise.all(MATRIX_TABLES_V1.map(rowsOf))).toEqual(before);
    for (const table of MATRIX_TABLES_V1) {
      const { rows } = await db.query<{ versions: unknown }>(`SELECT versions FROM ${table}`);
      expect(rows, table).toEqual([{ versions: {} }]);
      const row = (await readRecord(db, table, { section_tipo: 'oh1', section_id: 7 }))!;
      expect(row.string).toEqual(string);
      expect(componentVersion(row, 'oh14')).toBe(0);
    }
  });
});
