/**
 * Reading and writing whole matrix rows and single components. Table and column names come from
 * the closed lists in matrix-tables.ts (checked here), never from a request; every value is
 * bound. Reads of many records are one statement (`= ANY($ids)`), so a page costs the same
 * whatever its size.
 */
import { DATA_COLUMNS, type DataColumn, isMatrixTable, type MatrixTable } from './matrix-tables.js';
import type { RecordKey } from './records.js';
import type { SqlQueryable } from './sql-client.js';

/** A matrix row as stored: component items by typed column, then by component tipo. */
export interface MatrixRow {
  section_tipo: string;
  section_id: number;
  string: Record<string, unknown[]>;
  relation: Record<string, unknown[]>;
  date: Record<string, unknown[]>;
  number: Record<string, unknown[]>;
  media: Record<string, unknown[]>;
  misc: Record<string, unknown[]>;
  /** Per component, the last item id minted (ids are never reused). */
  meta: Record<string, number>;
  /**
   * Per component, its version: the id of the history row its last write wrote (absent: 0,
   * never saved through the work API). Absent from rows read without it (publishing).
   */
  versions?: Record<string, number>;
  created_at: Date | string;
  created_by: number | null;
  modified_at: Date | string | null;
  modified_by: number | null;
}

const ROW_COLUMNS =
  'section_tipo, section_id, string, relation, date, number, media, misc, meta, versions, created_at, created_by, modified_at, modified_by';

export function checkedTable(name: string): MatrixTable {
  if (!isMatrixTable(name)) throw new Error(`not a matrix table: ${name}`);
  return name;
}

export function checkedColumn(name: string): DataColumn {
  if (!(DATA_COLUMNS as readonly string[]).includes(name)) throw new Error(`not a data column: ${name}`);
  return name as DataColumn;
}

/**
 * A row read for the components it shows (readShownRecords): its key, its components' versions
 * and the data columns asked for; a MatrixRow is one too.
 */
export type ShownRow = Pick<MatrixRow, 'section_tipo' | 'section_id' | 'versions'> &
  Partial<Pick<MatrixRow, DataColumn>>;

/** The items of one component in a row (`[]` when absent or malformed). */
export function componentItems(row: ShownRow, column: DataColumn, tipo: string): unknown[] {
  const value = row[column]?.[tipo];
  return Array.isArray(value) ? value : [];
}

/** The last item id minted for a component (0 when none). */
export function lastItemId(row: MatrixRow, tipo: string): number {
  const value = row.meta?.[tipo];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A component's version in a row (0 when it was never saved through the work API). */
export function componentVersion(row: ShownRow, tipo: string): number {
  const value = row.versions?.[tipo];
  // jsonb numbers come back as numbers on both engines; a hand-edited string is read too.
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** One record, or undefined. `forUpdate` locks the row until the transaction ends. */
export async function readRecord(
  db: SqlQueryable,
  table: MatrixTable,
  key: RecordKey,
  options: { forUpdate?: boolean } = {},
): Promise<MatrixRow | undefined> {
  const { rows } = await db.query<MatrixRow>(
    `SELECT ${ROW_COLUMNS} FROM ${checkedTable(table)} WHERE section_tipo = $1 AND section_id = $2${
      options.forUpdate ? ' FOR UPDATE' : ''
    }`,
    [key.section_tipo, key.section_id],
  );
  return rows[0];
}

/** Several records of one section in one statement, returned in the order of `ids` (missing ones skipped). */
export async function readRecords(
  db: SqlQueryable,
  table: MatrixTable,
  sectionTipo: string,
  ids: readonly number[],
): Promise<MatrixRow[]> {
  return rowsInIdOrder<MatrixRow>(db, ROW_COLUMNS, table, sectionTipo, ids);
}

/** `columns` of records of one section in one statement, in the order of `ids` (missing ones skipped). */
async function rowsInIdOrder<R extends { section_id: number }>(
  db: SqlQueryable,
  columns: string,
  table: MatrixTable,
  sectionTipo: string,
  ids: readonly number[],
): Promise<R[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<R>(
    `SELECT ${columns} FROM ${checkedTable(table)} WHERE section_tipo = $1 AND section_id = ANY($2::integer[])`,
    [sectionTipo, [...ids]],
  );
  const byId = new Map(rows.map((r) => [Number(r.section_id), r]));
  return ids.map((id) => byId.get(id)).filter((r): r is R => r !== undefined);
}

/**
 * Like readRecords, but only the data columns given (with the key and the versions): what a
 * page shows. A list page needs neither `meta` nor the row's dates, and PostgreSQL sends every
 * jsonb and timestamp column of every row as text that pg then parses back.
 */
export async function readShownRecords(
  db: SqlQueryable,
  table: MatrixTable,
  sectionTipo: string,
  ids: readonly number[],
  columns: ReadonlySet<DataColumn>,
): Promise<ShownRow[]> {
  const data = DATA_COLUMNS.filter((c) => columns.has(c));
  return rowsInIdOrder<ShownRow>(
    db,
    ['section_tipo', 'section_id', ...data, 'versions'].join(', '),
    table,
    sectionTipo,
    ids,
  );
}

/** The next `limit` records of a section after `afterId`, by ascending id (one statement). */
export async function readRecordsAfter(
  db: SqlQueryable,
  table: MatrixTable,
  sectionTipo: string,
  afterId: number,
  limit: number,
): Promise<MatrixRow[]> {
  const { rows } = await db.query<MatrixRow>(
    `SELECT ${ROW_COLUMNS} FROM ${checkedTable(table)}
     WHERE section_tipo = $1 AND section_id > $2 ORDER BY section_id LIMIT $3`,
    [sectionTipo, afterId, limit],
  );
  return rows;
}

/**
 * Replaces one component's items (an empty array removes the key), its item counter and its
 * version, and stamps the modification. Returns false when the record does not exist. Callers
 * go through store/component-write.ts, which writes the history row first and passes its id as
 * the version.
 */
export async function writeComponent(
  db: SqlQueryable,
  table: MatrixTable,
  key: RecordKey,
  column: DataColumn,
  tipo: string,
  items: readonly unknown[],
  lastId: number,
  stamp: { userId: number; now: Date; version: number },
): Promise<boolean> {
  const col = checkedColumn(column);
  const { rowCount } = await db.query(
    `UPDATE ${checkedTable(table)} SET
       ${col} = CASE WHEN jsonb_array_length($3::jsonb) = 0 THEN ${col} - $4::text
                ELSE jsonb_set(${col}, ARRAY[$4::text], $3::jsonb, true) END,
       meta = jsonb_set(meta, ARRAY[$4::text], to_jsonb($5::integer), true),
       versions = jsonb_set(versions, ARRAY[$4::text], to_jsonb($8::bigint), true),
       modified_at = $6::timestamptz, modified_by = $7
     WHERE section_tipo = $1 AND section_id = $2`,
    [
      key.section_tipo,
      key.section_id,
      JSON.stringify(items),
      tipo,
      lastId,
      stamp.now.toISOString(),
      stamp.userId,
      stamp.version,
    ],
  );
  return rowCount > 0;
}

/**
 * Empties every component of a record (delete_data), keeping the row and its item counters.
 * `versions` are the new versions of the emptied components (the ids of their history rows),
 * merged over the stored ones; kept components keep theirs.
 */
export async function clearRecordData(
  db: SqlQueryable,
  table: MatrixTable,
  key: RecordKey,
  userId: number,
  now: Date,
  keep: Partial<Record<DataColumn, Record<string, unknown[]>>> = {},
  versions: Record<string, number> = {},
): Promise<boolean> {
  const values = DATA_COLUMNS.map((c) => JSON.stringify(keep[c] ?? {}));
  const { rowCount } = await db.query(
    `UPDATE ${checkedTable(table)} SET string = $3::jsonb, relation = $4::jsonb, date = $5::jsonb,
       number = $6::jsonb, media = $7::jsonb, misc = $8::jsonb, modified_at = $9::timestamptz, modified_by = $10,
       versions = versions || $11::jsonb
     WHERE section_tipo = $1 AND section_id = $2`,
    [key.section_tipo, key.section_id, ...values, now.toISOString(), userId, JSON.stringify(versions)],
  );
  return rowCount > 0;
}

export async function deleteRecordRow(
  db: SqlQueryable,
  table: MatrixTable,
  key: RecordKey,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `DELETE FROM ${checkedTable(table)} WHERE section_tipo = $1 AND section_id = $2`,
    [key.section_tipo, key.section_id],
  );
  return rowCount > 0;
}

/**
 * Records of `table` holding a locator that points at `target`, for inverse-reference lookups:
 * one containment test per relation component that may point there (`relation @> {"<tipo>":
 * [{section_tipo, section_id}]}`, which the GIN index on `relation` answers), with the target's
 * section_id as a number and as a string, since imported data may store either. `componentTipos`
 * are the relation components of the table's sections that can hold such a locator (the caller
 * asks the ontology); none: no statement at all.
 */
export async function recordsPointingAt(
  db: SqlQueryable,
  table: MatrixTable,
  target: RecordKey,
  componentTipos: readonly string[],
): Promise<MatrixRow[]> {
  if (componentTipos.length === 0) return [];
  const params: string[] = [];
  const tests = componentTipos.flatMap((tipo) =>
    [target.section_id, String(target.section_id)].map((id) => {
      params.push(JSON.stringify({ [tipo]: [{ section_tipo: target.section_tipo, section_id: id }] }));
      return `m.relation @> $${params.length}::jsonb`;
    }),
  );
  const { rows } = await db.query<MatrixRow>(
    `SELECT ${ROW_COLUMNS} FROM ${checkedTable(table)} m WHERE ${tests.join(' OR ')}`,
    params,
  );
  return rows;
}
