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
