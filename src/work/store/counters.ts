/**
 * Section id allocation from `matrix_counter`. One upsert increments and returns the counter, so
 * concurrent callers (other requests, other server instances) always get distinct consecutive
 * ids. Called inside the transaction that inserts the record: if the insert fails, the counter
 * rolls back with it.
 */
import type { SqlQueryable } from './sql-client.js';

export async function allocateSectionId(db: SqlQueryable, sectionTipo: string): Promise<number> {
  const { rows } = await db.query<{ value: number }>(
    `INSERT INTO matrix_counter (section_tipo, value) VALUES ($1, 1)
     ON CONFLICT (section_tipo) DO UPDATE SET value = matrix_counter.value + 1
     RETURNING value`,
    [sectionTipo],
  );
  return rows[0]!.value;
}

/** Sets a counter (bootstrap, maintenance "fix"/"reset"); the next allocation gets value + 1. */
export async function setCounter(db: SqlQueryable, sectionTipo: string, value: number): Promise<void> {
  await db.query(
    `INSERT INTO matrix_counter (section_tipo, value) VALUES ($1, $2)
     ON CONFLICT (section_tipo) DO UPDATE SET value = EXCLUDED.value`,
    [sectionTipo, value],
  );
}

export async function readCounter(db: SqlQueryable, sectionTipo: string): Promise<number> {
  const { rows } = await db.query<{ value: number }>(
    'SELECT value FROM matrix_counter WHERE section_tipo = $1',
    [sectionTipo],
  );
  return rows[0]?.value ?? 0;
}
