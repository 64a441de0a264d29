/**
 * The imports register (table `imports`, migration 14): one row per import run, and the tag that
 * makes every history and activity row written inside an import's transaction carry its id.
 * The tag is a transaction-local setting read by those tables' column defaults, so a save's
 * observers, inverse references and created records are tagged as surely as the saved
 * component, without every write path passing the id along. The same setting makes the
 * `import_records` trigger keep each touched record's state before the import (undo's input).
 */
import type { SqlQueryable } from '../store/sql-client.js';

export type ImportKind = 'dedalo_csv' | 'mapped_csv' | 'matrix_copy';

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
}

/** One import run as `list_imports` and `get_import` answer it. */
export interface ImportSummary {
  id: number;
  file_name: string;
  kind: ImportKind;
  section_tipo: string | null;
  user_id: number;
  username: string | null;
  via: 'cli' | 'api';
  started_at: string;
  finished_at: string | null;
  status: 'running' | 'done' | 'failed';
  counts: ImportCounts;
  undone_at: string | null;
  undone_by: number | null;
}

/** Marks the current transaction as import `id`'s (its writes are tagged and captured). */
export async function tagImportTransaction(tx: SqlQueryable, id: number): Promise<void> {
  await tx.query(`SELECT set_config('dedalo.import_id', $1, true)`, [String(id)]);
}

/** Marks the current transaction as the undo of import `id` (its history rows say so). */
export async function tagUndoTransaction(tx: SqlQueryable, id: number): Promise<void> {
  await tx.query(`SELECT set_config('dedalo.undo_import_id', $1, true)`, [String(id)]);
}

export async function registerImport(
  db: SqlQueryable,
  entry: {
    fileName: string;
    kind: ImportKind;
    sectionTipo: string | null;
    userId: number;
    via: 'cli' | 'api';
    now: Date;
  },
): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO imports (file_name, kind, section_tipo, user_id, via, started_at)
     VALUES ($1, $2, $3, $4, $5, $6::timestamptz) RETURNING id::text AS id`,
    [entry.fileName, entry.kind, entry.sectionTipo, entry.userId, entry.via, entry.now.toISOString()],
  );
  return Number(rows[0]!.id);
}

export async function finishImport(
  db: SqlQueryable,
  id: number,
  entry: { status: 'done' | 'failed'; counts: ImportCounts; report: unknown; now: Date },
): Promise<void> {
  await db.query(
    `UPDATE imports SET status = $2, counts = $3::jsonb, report = $4::jsonb, finished_at = $5::timestamptz
     WHERE id = $1`,
    [id, entry.status, JSON.stringify(entry.counts), JSON.stringify(entry.report), entry.now.toISOString()],
  );
}

const SUMMARY_COLUMNS = `i.id::text AS id, i.file_name, i.kind, i.section_tipo, i.user_id, i.via, i.started_at,
  i.finished_at, i.status, i.counts, i.undone_at, i.undone_by,
  u.string->'dd132'->0->>'value' AS username`;

interface SummaryRow {
  id: string;
  file_name: string;
  kind: ImportKind;
  section_tipo: string | null;
  user_id: number;
  via: 'cli' | 'api';
  started_at: Date | string;
  finished_at: Date | string | null;
  status: 'running' | 'done' | 'failed';
  counts: ImportCounts;
  undone_at: Date | string | null;
  undone_by: number | null;
  username: string | null;
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function summaryOf(r: SummaryRow): ImportSummary {
  return {
    id: Number(r.id),
    file_name: r.file_name,
    kind: r.kind,
    section_tipo: r.section_tipo,
    user_id: Number(r.user_id),
    username: r.username ?? null,
    via: r.via,
    started_at: iso(r.started_at)!,
    finished_at: iso(r.finished_at),
    status: r.status,
    counts: {
      ...{ created: 0, updated: 0, unchanged: 0, refused: 0 },
      ...(r.counts as Partial<ImportCounts>),
    },
    undone_at: iso(r.undone_at),
    undone_by: r.undone_by === null ? null : Number(r.undone_by),
  };
}

/** The newest imports first; `userId` limits the list to one importer's. */
export async function listImports(
  db: SqlQueryable,
  options: { userId?: number; limit: number; offset: number },
): Promise<ImportSummary[]> {
  const params: unknown[] = [options.limit, options.offset];
  let where = '';
  if (options.userId !== undefined) {
    params.push(options.userId);
    where = 'WHERE i.user_id = $3';
  }
  const { rows } = await db.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM imports i
     LEFT JOIN matrix_users u ON u.section_tipo = 'dd128' AND u.section_id = i.user_id
     ${where} ORDER BY i.id DESC LIMIT $1 OFFSET $2`,
    params,
  );
  return rows.map(summaryOf);
}

/** One import with its stored report, or undefined. */
export async function readImport(
  db: SqlQueryable,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<(ImportSummary & { report: unknown }) | undefined> {
  const { rows } = await db.query<SummaryRow & { report: unknown }>(
    `SELECT ${SUMMARY_COLUMNS}, i.report FROM imports i
     LEFT JOIN matrix_users u ON u.section_tipo = 'dd128' AND u.section_id = i.user_id
     WHERE i.id = $1${options.forUpdate ? ' FOR UPDATE OF i' : ''}`,
    [id],
  );
  const row = rows[0];
  return row ? { ...summaryOf(row), report: row.report ?? null } : undefined;
}
