/**
 * Section id allocation from `matrix_counter`. One upsert increments and returns the counter, so
 * concurrent callers (other requests, other server instances) always get distinct consecutive
 * ids. Called inside the transaction that inserts the record: if the insert fails, the counter
 * rolls back with it.
 */
import type { MatrixTable } from './matrix-tables.js';
import type { SqlQueryable } from './sql-client.js';

/**
 * The next section_id of `sectionTipo`. A section without a counter row (new, or reset by the
 * maintenance widget) starts after the highest id already in its table, never at 1 over records
 * that exist. `table` comes from the ontology (a closed list), never from a request.
 */
export async function allocateSectionId(
  db: SqlQueryable,
  table: MatrixTable,
  sectionTipo: string,
): Promise<number> {
  const { rows } = await db.query<{ value: number }>(
    `INSERT INTO matrix_counter (section_tipo, value)
     VALUES ($1, (SELECT COALESCE(max(section_id), 0) + 1 FROM ${table} WHERE section_tipo = $1))
     ON CONFLICT (section_tipo) DO UPDATE SET value = matrix_counter.value + 1
     RETURNING value`,
    [sectionTipo],
  );
  return rows[0]!.value;
}

/** Sets a counter (bootstrap, maintenance "fix"); the next allocation gets value + 1. */
export async function setCounter(db: SqlQueryable, sectionTipo: string, value: number): Promise<void> {
  await db.query(
    `INSERT INTO matrix_counter (section_tipo, value) VALUES ($1, $2)
     ON CONFLICT (section_tipo) DO UPDATE SET value = EXCLUDED.value`,
    [sectionTipo, value],
  );
}

/** Removes a counter row (maintenance "reset"): the next allocation starts after the table's highest id. */
export async function deleteCounter(db: SqlQueryable, sectionTipo: string): Promise<void> {
  await db.query('DELETE FROM matrix_counter WHERE section_tipo = $1', [sectionTipo]);
}

export async function readCounter(db: SqlQueryable, sectionTipo: string): Promise<number> {
  const { rows } = await db.query<{ value: number }>(
    'SELECT value FROM matrix_counter WHERE section_tipo = $1',
    [sectionTipo],
  );
  return rows[0]?.value ?? 0;
}

/** Every counter row, by section_tipo. */
export async function readAllCounters(db: SqlQueryable): Promise<Map<string, number>> {
  const { rows } = await db.query<{ section_tipo: string; value: number }>(
    'SELECT section_tipo, value FROM matrix_counter',
  );
  return new Map(rows.map((r) => [r.section_tipo, r.value]));
}

/** The highest positive section_id of each section stored in `table` (sections without rows are absent). */
export async function highestSectionIds(db: SqlQueryable, table: MatrixTable): Promise<Map<string, number>> {
  const { rows } = await db.query<{ section_tipo: string; max: number }>(
    `SELECT section_tipo, max(section_id) AS max FROM ${table} WHERE section_id > 0 GROUP BY section_tipo`,
  );
  return new Map(rows.map((r) => [r.section_tipo, r.max]));
}

/** The highest positive section_id of one section (0 when it has none). */
export async function highestSectionId(
  db: SqlQueryable,
  table: MatrixTable,
  sectionTipo: string,
): Promise<number> {
  const { rows } = await db.query<{ max: number | null }>(
    `SELECT max(section_id) AS max FROM ${table} WHERE section_tipo = $1 AND section_id > 0`,
    [sectionTipo],
  );
  return rows[0]?.max ?? 0;
}

/**
 * Moves a section's counter past `sectionId` (a record created with a given id: an import), so
 * the next allocation never hands it out again. Never moves it back, and a section without a
 * counter row starts after the highest id already in its table, as allocateSectionId does.
 */
export async function moveCounterPast(
  db: SqlQueryable,
  table: MatrixTable,
  sectionTipo: string,
  sectionId: number,
): Promise<void> {
  await db.query(
    `INSERT INTO matrix_counter (section_tipo, value)
     VALUES ($1, GREATEST($2::integer, (SELECT COALESCE(max(section_id), 0) FROM ${table} WHERE section_tipo = $1)))
     ON CONFLICT (section_tipo) DO UPDATE SET value = GREATEST(matrix_counter.value, EXCLUDED.value)`,
    [sectionTipo, sectionId],
  );
}
