/**
 * Record rows in the matrix tables. The table name is the only identifier spliced into SQL and
 * is checked against the closed list in matrix-tables.ts; every value is bound.
 */
import { DATA_COLUMNS, type DataColumn, isMatrixTable, type MatrixTable } from './matrix-tables.js';
import type { SqlQueryable } from './sql-client.js';

export interface RecordKey {
  section_tipo: string;
  section_id: number;
}

/** Component data grouped by typed column: column -> component tipo -> items. */
export type RecordColumns = Partial<Record<DataColumn, Record<string, unknown[]>>>;

function table(name: MatrixTable): MatrixTable {
  if (!isMatrixTable(name)) throw new Error(`not a matrix table: ${String(name)}`);
  return name;
}

export async function recordExists(db: SqlQueryable, name: MatrixTable, key: RecordKey): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM ${table(name)} WHERE section_tipo = $1 AND section_id = $2`,
    [key.section_tipo, key.section_id],
  );
  return rowCount > 0;
}

/** Inserts a record; `meta` holds each component's last minted item id. */
export async function insertRecord(
  db: SqlQueryable,
  name: MatrixTable,
  key: RecordKey,
  columns: RecordColumns,
  meta: Record<string, number>,
  userId: number,
): Promise<void> {
  const values = DATA_COLUMNS.map((c) => JSON.stringify(columns[c] ?? {}));
  await db.query(
    `INSERT INTO ${table(name)}
       (section_tipo, section_id, string, relation, date, number, media, misc, meta, created_by)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, $5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb, $9::jsonb, $10)`,
    [key.section_tipo, key.section_id, ...values, JSON.stringify(meta), userId],
  );
}

export interface NewRecord {
  key: RecordKey;
  columns: RecordColumns;
  meta: Record<string, number>;
}

/**
 * Inserts many records with one statement: the same columns and JSON as insertRecord, passed as
 * parallel arrays and expanded by unnest (one round trip and one plan for the whole batch, which
 * is what makes seeding 100k-record archives take minutes instead of the better part of an hour).
 * The caller chooses the transaction.
 */
export async function insertRecords(
  db: SqlQueryable,
  name: MatrixTable,
  records: readonly NewRecord[],
  userId: number,
): Promise<void> {
  if (records.length === 0) return;
  const data = DATA_COLUMNS.map((c) => records.map((r) => JSON.stringify(r.columns[c] ?? {})));
  await db.query(
    `INSERT INTO ${table(name)}
       (section_tipo, section_id, string, relation, date, number, media, misc, meta, created_by)
     SELECT section_tipo, section_id, string::jsonb, relation::jsonb, date::jsonb, number::jsonb,
       media::jsonb, misc::jsonb, meta::jsonb, $10::integer
     FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[], $5::text[], $6::text[],
       $7::text[], $8::text[], $9::text[])
       AS r(section_tipo, section_id, string, relation, date, number, media, misc, meta)`,
    [
      records.map((r) => r.key.section_tipo),
      records.map((r) => r.key.section_id),
      ...data,
      records.map((r) => JSON.stringify(r.meta)),
      userId,
    ],
  );
}
