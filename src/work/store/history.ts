/**
 * The time machine (`matrix_time_machine`): one row per component save holding the value the
 * save wrote (the whole component, every language), and one `snapshot` row holding the whole
 * record just before `delete_record`. The rows before the newest one of a component are its
 * previous values; restoring one is saving that value again. Written inside the transaction of
 * the change it records. A component row's id is the component's version (component-write.ts),
 * so historyAuthor answers who changed a component and when.
 */
import type { MatrixRow } from './record-rows.js';
import type { RecordKey } from './records.js';
import type { SqlQueryable } from './sql-client.js';

export interface HistoryRow {
  id: number;
  kind: 'component' | 'snapshot';
  section_tipo: string;
  section_id: number;
  tipo: string | null;
  lang: string | null;
  data: unknown;
  user_id: number | null;
  /** Who saved: the user's username (dd132) and full name (dd452), null when unknown. */
  username: string | null;
  full_username: string | null;
  /** ISO 8601. */
  created_at: string;
  /** Written by an import (or by undoing one): its id and file (collections/import-records.ts). */
  import?: { id: number; undo: boolean; file_name: string };
}

/** One component's history row: the items it holds after the change, by whom and when. */
export interface ComponentHistoryEntry {
  key: RecordKey;
  tipo: string;
  lang: string;
  items: readonly unknown[];
  userId: number;
  when: Date;
}

export async function recordComponentHistory(
  db: SqlQueryable,
  entry: ComponentHistoryEntry,
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO matrix_time_machine (kind, section_tipo, section_id, tipo, lang, data, user_id, created_at)
     VALUES ('component', $1, $2, $3, $4, $5::jsonb, $6, $7::timestamptz) RETURNING id`,
    [
      entry.key.section_tipo,
      entry.key.section_id,
      entry.tipo,
      entry.lang,
      JSON.stringify(entry.items),
      entry.userId,
      entry.when.toISOString(),
    ],
  );
  return Number(rows[0]!.id);
}

/**
 * Many component history rows in one statement (an import's batch), in the order given; answers
 * their ids in that order (the ids come from the table's sequence in insertion order).
 */
export async function recordComponentHistories(
  db: SqlQueryable,
  entries: readonly ComponentHistoryEntry[],
): Promise<number[]> {
  if (entries.length === 0) return [];
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO matrix_time_machine (kind, section_tipo, section_id, tipo, lang, data, user_id, created_at)
     SELECT 'component', e->>0, (e->>1)::integer, e->>2, e->>3, e->4, (e->>5)::integer, (e->>6)::timestamptz
     FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS h(e, n)
     ORDER BY n
     RETURNING id`,
    [
      JSON.stringify(
        entries.map((e) => [
          e.key.section_tipo,
          e.key.section_id,
          e.tipo,
          e.lang,
          e.items,
          e.userId,
          e.when.toISOString(),
        ]),
      ),
    ],
  );
  // nextval runs in the ORDER BY's order: the ids, sorted, are the entries' in order.
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** The whole row (every typed column and meta) before it is removed. */
export async function recordSnapshot(
  db: SqlQueryable,
  entry: { row: MatrixRow; userId: number; when: Date },
): Promise<number> {
  const { row } = entry;
  const data = {
    string: row.string,
    relation: row.relation,
    date: row.date,
    number: row.number,
    media: row.media,
    misc: row.misc,
    meta: row.meta,
    created_at: row.created_at,
    created_by: row.created_by,
    modified_at: row.modified_at,
    modified_by: row.modified_by,
  };
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO matrix_time_machine (kind, section_tipo, section_id, tipo, lang, data, user_id, created_at)
     VALUES ('snapshot', $1, $2, NULL, NULL, $3::jsonb, $4, $5::timestamptz) RETURNING id`,
    [row.section_tipo, row.section_id, JSON.stringify(data), entry.userId, entry.when.toISOString()],
  );
  return Number(rows[0]!.id);
}

/** Who wrote a history row and when (a component version's author). */
export interface HistoryAuthor {
  user_id: number | null;
  username: string | null;
  full_username: string | null;
  /** ISO 8601. */
  created_at: string;
}

/**
 * The author of history row `id` with the user's names (one join, as the history read does), or
 * undefined when there is no such row.
 */
export async function historyAuthor(db: SqlQueryable, id: number): Promise<HistoryAuthor | undefined> {
  const { rows } = await db.query<{
    user_id: number | null;
    username: string | null;
    full_username: string | null;
    created_at: Date | string;
  }>(
    `SELECT tm.user_id, tm.created_at,
       u.string->'dd132'->0->>'value' AS username, u.string->'dd452'->0->>'value' AS full_username
     FROM matrix_time_machine tm
     LEFT JOIN matrix_users u ON u.section_tipo = 'dd128' AND u.section_id = tm.user_id
     WHERE tm.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    user_id: row.user_id === null ? null : Number(row.user_id),
    username: row.username ?? null,
    full_username: row.full_username ?? null,
    created_at: new Date(row.created_at).toISOString(),
  };
}
