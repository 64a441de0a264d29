/**
 * Deleted records and bringing one back. `delete_record` keeps a snapshot of the whole row in
 * the time machine (store/history.ts) before removing it; this module lists the snapshots of a
 * section whose record is gone, and restores one: the row comes back under its own id with every
 * component the snapshot holds, each written the one way components are written (a history row,
 * then the value with that row as its version: component-write.ts), parent/children mirrors put
 * back, and an activity row ('restore'). Everything in the caller's transaction.
 *
 * What does not come back: the locators other records held to it, which the deletion removed
 * from them (each removal has its history row there and can be restored from that record's
 * history). A record whose id exists again (imported, or a counter moved back) is not restored:
 * the id belongs to that record now.
 */
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import { logActivity } from '../store/activity.js';
import { writeVersionedComponent } from '../store/component-write.js';
import { DATA_COLUMNS, type MatrixTable } from '../store/matrix-tables.js';
import { checkedTable } from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';
import { insertNewRow, PROJECT_SECTION, projectFilterOf } from './create-record.js';
import { mirrorParentChildren } from './delete-records.js';

/** The row as the snapshot keeps it (store/history.ts recordSnapshot). */
interface SnapshotData {
  string?: Record<string, unknown[]>;
  relation?: Record<string, unknown[]>;
  date?: Record<string, unknown[]>;
  number?: Record<string, unknown[]>;
  media?: Record<string, unknown[]>;
  misc?: Record<string, unknown[]>;
  meta?: Record<string, number>;
  created_at?: string;
  created_by?: number | null;
}

export interface DeletedRecord {
  section_id: number;
  /** The snapshot's history row. */
  history_id: number;
  /** ISO 8601. */
  deleted_at: string;
  deleted_by: { user_id: number | null; username: string | null; full_username: string | null };
  /** A line that says which record it was: its first texts (markup removed), at most 160 characters. */
  summary: string;
}

/** Where a non-admin's view of deleted records ends: the section's project filter and their projects. */
export interface DeletedScope {
  filterTipo: string;
  projectIds: readonly number[];
}

const MAX_SUMMARY = 160;

/** The first two texts of the snapshot, in the order of the section's components, `lang` first. */
function summaryOf(ontology: Ontology, sectionTipo: string, data: SnapshotData, lang: string): string {
  const texts: string[] = [];
  for (const c of ontology.sectionComponents(sectionTipo)) {
    const items = data.string?.[c.tipo];
    if (!Array.isArray(items) || items.length === 0 || c.model === 'component_password') continue;
    const values = items as { lang?: string; value?: unknown }[];
    const chosen = values.find((v) => v.lang === lang) ?? values.find((v) => v.lang === NO_LANG) ?? values[0];
    const text =
      typeof chosen?.value === 'string' ? chosen.value.replace(/<[^>]*>|\[[^\]\n]{1,200}\]/g, ' ') : '';
    const clean = text.replace(/\s+/g, ' ').trim();
    if (clean) texts.push(clean);
    if (texts.length === 2) break;
  }
  const line = texts.join(' · ');
  return line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1)}…` : line;
}

/** The condition "the snapshot names one of the projects" (a parameter list of project ids as text). */
const IN_PROJECTS = (filterParam: string, idsParam: string) =>
  `EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(tm.data->'relation'->${filterParam}, '[]'::jsonb)) e
     WHERE e->>'section_tipo' = '${PROJECT_SECTION}' AND e->>'section_id' = ANY(${idsParam}::text[]))`;

/**
 * The section's records deleted with `delete_record` and not back since, newest deletion first:
 * the latest snapshot of each id whose row does not exist. `scope` limits them to snapshots
 * naming one of the projects (non-admins).
 */
export async function listDeletedRecords(
  db: SqlQueryable,
  ontology: Ontology,
  args: {
    sectionTipo: string;
    table: MatrixTable;
    lang: string;
    limit: number;
    offset: number;
    scope?: DeletedScope;
  },
): Promise<{ total: number; records: DeletedRecord[] }> {
  const params: unknown[] = [args.sectionTipo];
  let scoped = '';
  if (args.scope) {
    params.push(args.scope.filterTipo, args.scope.projectIds.map(String));
    scoped = `AND ${IN_PROJECTS('$2', '$3')}`;
  }
  const latest = `SELECT DISTINCT ON (tm.section_id) tm.id, tm.section_id, tm.data, tm.user_id, tm.created_at
     FROM matrix_time_machine tm
     WHERE tm.kind = 'snapshot' AND tm.section_tipo = $1
       AND NOT EXISTS (SELECT 1 FROM ${checkedTable(args.table)} r WHERE r.section_tipo = $1 AND r.section_id = tm.section_id)
       ${scoped}
     ORDER BY tm.section_id, tm.id DESC`;
  const count = await db.query<{ n: number | string }>(`SELECT count(*) AS n FROM (${latest}) d`, params);
  const limitAt = params.length + 1;
  const { rows } = await db.query<{
    id: number | string;
    section_id: number;
    data: SnapshotData;
    user_id: number | null;
    created_at: Date | string;
    username: string | null;
    full_username: string | null;
  }>(
    `SELECT d.*, u.string->'dd132'->0->>'value' AS username, u.string->'dd452'->0->>'value' AS full_username
     FROM (${latest}) d
     LEFT JOIN matrix_users u ON u.section_tipo = 'dd128' AND u.section_id = d.user_id
     ORDER BY d.id DESC LIMIT $${limitAt} OFFSET $${limitAt + 1}`,
    [...params, args.limit, args.offset],
  );
  return {
    total: Number(count.rows[0]?.n ?? 0),
    records: rows.map((r) => ({
      section_id: Number(r.section_id),
      history_id: Number(r.id),
      deleted_at: new Date(r.created_at).toISOString(),
      deleted_by: {
        user_id: r.user_id === null ? null : Number(r.user_id),
        username: r.username ?? null,
        full_username: r.full_username ?? null,
      },
      summary: summaryOf(ontology, args.sectionTipo, r.data, args.lang),
    })),
  };
}

/** The latest snapshot of a record, or undefined when it was never deleted with delete_record. */
export async function latestSnapshot(
  db: SqlQueryable,
  key: RecordKey,
): Promise<{ id: number; data: SnapshotData } | undefined> {
  const { rows } = await db.query<{ id: number | string; data: SnapshotData }>(
    `SELECT id, data FROM matrix_time_machine
     WHERE kind = 'snapshot' AND section_tipo = $1 AND section_id = $2 ORDER BY id DESC LIMIT 1`,
    [key.section_tipo, key.section_id],
  );
  const row = rows[0];
  return row ? { id: Number(row.id), data: row.data } : undefined;
}

/** Whether the snapshot names one of the projects (the scope a non-admin restores within). */
export function snapshotInScope(data: SnapshotData, scope: DeletedScope): boolean {
  const items = data.relation?.[scope.filterTipo];
  if (!Array.isArray(items)) return false;
  return items.some((i) => {
    const l = i as { section_tipo?: unknown; section_id?: unknown };
    return l.section_tipo === PROJECT_SECTION && scope.projectIds.map(String).includes(String(l.section_id));
  });
}

/** The scope a non-admin sees deleted records of a section within (undefined: no project filter). */
export function deletedScopeOf(
  ontology: Ontology,
  sectionTipo: string,
  projectIds: readonly number[],
): DeletedScope | undefined {
  const filter = projectFilterOf(ontology, sectionTipo);
  return filter ? { filterTipo: filter.tipo, projectIds } : undefined;
}

/**
 * Puts the record of `snapshot` back under its id, inside the caller's transaction. The caller
 * checked rights and that the row does not exist (insertNewRow refuses a taken id anyway).
 */
export async function restoreRecordIn(
  tx: SqlQueryable,
  ontology: Ontology,
  args: {
    key: RecordKey;
    table: MatrixTable;
    snapshot: { id: number; data: SnapshotData };
    userId: number;
    now: Date;
  },
): Promise<void> {
  const { key, table, snapshot } = args;
  const meta = snapshot.data.meta ?? {};
  await insertNewRow(tx, table, key, {}, meta, args.userId, args.now);
  // The record was created then, by them: the restore is a change, not a creation.
  if (snapshot.data.created_at) {
    await tx.query(
      `UPDATE ${checkedTable(table)} SET created_at = $3::timestamptz, created_by = $4
       WHERE section_tipo = $1 AND section_id = $2`,
      [key.section_tipo, key.section_id, snapshot.data.created_at, snapshot.data.created_by ?? args.userId],
    );
  }
  for (const column of DATA_COLUMNS) {
    for (const [tipo, items] of Object.entries(snapshot.data[column] ?? {})) {
      if (!Array.isArray(items) || items.length === 0) continue;
      const node = ontology.node(tipo);
      const langs = new Set(items.map((i) => (i as { lang?: unknown }).lang));
      const only = langs.size === 1 ? [...langs][0] : undefined;
      await writeVersionedComponent(tx, {
        table,
        key,
        column,
        tipo,
        items,
        lastId: Math.max(meta[tipo] ?? 0, ...items.map((i) => Number((i as { id?: unknown }).id) || 0)),
        lang: typeof only === 'string' ? only : NO_LANG,
        // A password's value never leaves its row (as a save writes it).
        ...(node?.model === 'component_password'
          ? { historyItems: items.map((i) => ({ ...(i as object), value: '[password restored]' })) }
          : {}),
        userId: args.userId,
        now: args.now,
      });
      await mirrorParentChildren(tx, ontology, key, tipo, items, 'add', args.userId, args.now);
    }
  }
  await logActivity(tx, {
    userId: args.userId,
    what: 'restore',
    where: key.section_tipo,
    when: args.now,
    data: { section_id: key.section_id, restored_from: snapshot.id },
  });
}
