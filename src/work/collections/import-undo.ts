/**
 * Undoing an import (docs/import-export.md, "Undoing an import"), in one transaction: every
 * record the import updated goes back to the state it had before the import's first write to
 * it (each component that differs is written again, with its history row and a new version),
 * every record it created is removed (a whole-record snapshot in its history first, as
 * `delete_record` does), each with an activity row; every row written carries the undone
 * import's id (`undo_of_import`). The state before comes from `import_records`, kept by the
 * database while the import ran (migration 14).
 *
 * Refused with 409 `import.undo_conflict`, naming the records, when one was changed after the
 * import (its versions are not those the import left; deleted; or a record the import created
 * is now linked from a record outside the import), unless `force`: then they are put back too,
 * and links to removed records made after the import are left as they are (listed).
 *
 * Who: a global administrator, or the user who ran the import, within the rights the write
 * paths check (save on each component put back, delete on the sections of created records, the
 * records in their projects, the rights ceiling on users and profiles).
 */
import { assertCan, isGlobalAdmin, PermissionDenied, type UserAccess } from '../auth/permissions.js';
import { accountGuard, assertMayWriteComponent } from '../auth/rights-ceiling.js';
import { WorkError } from '../dispatch/error-registry.js';
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import { rowInScope } from '../read/page-builder.js';
import { logActivity } from '../store/activity.js';
import { writeVersionedComponent } from '../store/component-write.js';
import { recordSnapshot } from '../store/history.js';
import { DATA_COLUMNS, MATRIX_TABLES, type MatrixTable } from '../store/matrix-tables.js';
import {
  checkedTable,
  componentItems,
  deleteRecordRow,
  lastItemId,
  type MatrixRow,
  readRecord,
  recordsPointingAt,
} from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';
import type { SqlClient, SqlQueryable } from '../store/sql-client.js';
import { readImport, tagUndoTransaction } from './import-register.js';
import { canonical } from './import-write-row.js';

export interface UndoConflictRecord {
  section_tipo: string;
  section_id: number;
  /** `changed`: saved since; `deleted`: removed since; `linked`: a created record now linked from outside. */
  why: 'changed' | 'deleted' | 'linked';
  /** The latest change by someone else: which component, who, when. */
  tipo?: string | null;
  user_id?: number | null;
  username?: string | null;
  at?: string;
  /** `linked`: the record that links to it. */
  from?: RecordKey;
}

export interface UndoResult {
  import_id: number;
  /** Records put back to their state before the import. */
  restored: number;
  /** Records the import created, removed. */
  removed: number;
  /** Records changed after the import that `force` put back anyway. */
  overwritten: UndoConflictRecord[];
}

interface TouchedRow {
  table_name: string;
  section_tipo: string;
  section_id: number;
  created: boolean;
  before: (MatrixRow & Record<string, unknown>) | null;
  after_versions: Record<string, number>;
}

/** The latest history row of a record written by anyone but this import. */
async function lastOtherChange(tx: SqlQueryable, importId: number, key: RecordKey) {
  const { rows } = await tx.query<{
    tipo: string | null;
    user_id: number | null;
    username: string | null;
    created_at: Date | string;
  }>(
    `SELECT tm.tipo, tm.user_id, tm.created_at, u.string->'dd132'->0->>'value' AS username
     FROM matrix_time_machine tm
     LEFT JOIN matrix_users u ON u.section_tipo = 'dd128' AND u.section_id = tm.user_id
     WHERE tm.section_tipo = $1 AND tm.section_id = $2 AND tm.import_id IS DISTINCT FROM $3::bigint
     ORDER BY tm.id DESC LIMIT 1`,
    [key.section_tipo, key.section_id, importId],
  );
  const r = rows[0];
  return r
    ? {
        tipo: r.tipo,
        user_id: r.user_id === null ? null : Number(r.user_id),
        username: r.username ?? null,
        at: new Date(r.created_at).toISOString(),
      }
    : {};
}

const describe = (c: UndoConflictRecord) =>
  `${c.section_tipo} ${c.section_id} ${
    c.why === 'deleted'
      ? 'was deleted'
      : c.why === 'linked'
        ? `is now linked from ${c.from!.section_tipo} ${c.from!.section_id}`
        : `was changed${c.tipo ? ` (${c.tipo}` : ' ('}${c.username ? ` by ${c.username}` : c.user_id != null ? ` by user ${c.user_id}` : ''}${c.at ? ` at ${c.at}` : ''})`
  }`;

/** Puts one updated record back: each component that differs from its state before. */
async function restoreRecord(
  tx: SqlQueryable,
  ontology: Ontology,
  access: UserAccess,
  table: MatrixTable,
  current: MatrixRow,
  before: MatrixRow,
  now: Date,
): Promise<string[]> {
  const key = { section_tipo: current.section_tipo, section_id: Number(current.section_id) };
  const guard = accountGuard(ontology, access);
  guard.beforeChange(current);
  const written: string[] = [];
  for (const column of DATA_COLUMNS) {
    const tipos = new Set([...Object.keys(current[column] ?? {}), ...Object.keys(before[column] ?? {})]);
    for (const tipo of tipos) {
      const items = componentItems(before, column, tipo);
      if (canonical(componentItems(current, column, tipo)) === canonical(items)) continue;
      if (!isGlobalAdmin(access)) {
        assertCan(access, 'save', key.section_tipo, ontology.node(tipo) ? tipo : undefined);
        assertMayWriteComponent(access, key.section_tipo, tipo);
      }
      await writeVersionedComponent(tx, {
        table,
        key,
        column,
        tipo,
        items,
        lastId: Math.max(lastItemId(current, tipo), lastItemId(before, tipo)),
        lang: NO_LANG,
        userId: access.userId,
        now,
      });
      written.push(tipo);
    }
  }
  // An import of Dédalo records set their creation stamps: those go back too.
  if (
    String(before.created_by) !== String(current.created_by) ||
    new Date(before.created_at).getTime() !== new Date(current.created_at).getTime()
  ) {
    await tx.query(
      `UPDATE ${table} SET created_at = $3::timestamptz, created_by = $4 WHERE section_tipo = $1 AND section_id = $2`,
      [key.section_tipo, key.section_id, new Date(before.created_at).toISOString(), before.created_by],
    );
  }
  await guard.afterChange(tx, key);
  return written;
}

export async function undoImport(
  db: SqlClient,
  ontology: Ontology,
  access: UserAccess,
  importId: number,
  options: { force?: boolean; now: Date },
): Promise<UndoResult> {
  const { now } = options;
  return db.transaction(async (tx) => {
    const run = await readImport(tx, importId, { forUpdate: true });
    if (!run) throw new WorkError('resource.not_found', `import ${importId} does not exist`);
    if (!isGlobalAdmin(access) && run.user_id !== access.userId) {
      throw new PermissionDenied(access.userId, 'global_admin');
    }
    if (run.undone_at !== null) {
      throw new WorkError(
        'import.undo_conflict',
        `import ${importId} was undone already (${run.undone_at})`,
        undefined,
        { undone_at: run.undone_at, undone_by: run.undone_by, records: [] },
      );
    }
    if (run.status === 'running') {
      throw new WorkError('import.undo_conflict', `import ${importId} is still running`, undefined, {
        records: [],
      });
    }
    await tagUndoTransaction(tx, importId);
    const { rows: touched } = await tx.query<TouchedRow>(
      `SELECT table_name, section_tipo, section_id, created, before, after_versions FROM import_records
       WHERE import_id = $1 ORDER BY section_tipo, section_id`,
      [importId],
    );
    const createdKeys = new Set(
      touched.filter((t) => t.created).map((t) => `${t.section_tipo} ${t.section_id}`),
    );
    const conflicts: UndoConflictRecord[] = [];
    const current = new Map<TouchedRow, MatrixRow | undefined>();
    for (const t of touched) {
      const table = checkedTable(t.table_name);
      const key = { section_tipo: t.section_tipo, section_id: Number(t.section_id) };
      const row = await readRecord(tx, table, key, { forUpdate: true });
      current.set(t, row);
      if (!row) {
        // A created record already gone is what undo wants; an updated one gone is a change.
        if (!t.created) conflicts.push({ ...key, why: 'deleted' });
        continue;
      }
      if (!isGlobalAdmin(access) && !rowInScope(ontology, access, row)) {
        throw new PermissionDenied(access.userId, 'project_scope', key.section_tipo);
      }
      if (canonical(row.versions ?? {}) !== canonical(t.after_versions ?? {})) {
        conflicts.push({ ...key, why: 'changed', ...(await lastOtherChange(tx, importId, key)) });
      }
    }
    // A record the import created, linked since from a record the undo does not remove.
    for (const t of touched.filter((x) => x.created && current.get(x))) {
      const key = { section_tipo: t.section_tipo, section_id: Number(t.section_id) };
      for (const table of MATRIX_TABLES.filter((m) => m !== 'matrix_activity')) {
        const pointing = await recordsPointingAt(
          tx,
          table,
          key,
          ontology.relationComponentsInto(table, key.section_tipo),
        );
        for (const p of pointing) {
          const from = { section_tipo: p.section_tipo, section_id: Number(p.section_id) };
          const fromKey = `${from.section_tipo} ${from.section_id}`;
          if (createdKeys.has(fromKey)) continue;
          // A record the import updated goes back to before, when it did not link here.
          const restored = touched.find((x) => !x.created && `${x.section_tipo} ${x.section_id}` === fromKey);
          if (restored && !conflicts.some((c) => `${c.section_tipo} ${c.section_id}` === fromKey)) continue;
          conflicts.push({ ...key, why: 'linked', from });
        }
      }
    }
    if (conflicts.length > 0 && !options.force) {
      const listed = conflicts.slice(0, 10).map(describe).join('; ');
      throw new WorkError(
        'import.undo_conflict',
        `${conflicts.length} record(s) of import ${importId} changed after it: ${listed}${conflicts.length > 10 ? '; …' : ''}. Nothing was undone; undo with force to put them back anyway`,
        undefined,
        { records: conflicts.slice(0, 1000) },
      );
    }
    let restored = 0;
    let removed = 0;
    for (const t of touched) {
      const row = current.get(t);
      if (!row || t.created || !t.before) continue;
      const table = checkedTable(t.table_name);
      const tipos = await restoreRecord(tx, ontology, access, table, row, t.before, now);
      await logActivity(tx, {
        userId: access.userId,
        what: 'save',
        where: t.section_tipo,
        when: now,
        data: {
          section_tipo: t.section_tipo,
          section_id: Number(t.section_id),
          components: tipos,
          undo_of_import: importId,
        },
      });
      restored++;
    }
    for (const t of touched) {
      const row = current.get(t);
      if (!row || !t.created) continue;
      const table = checkedTable(t.table_name);
      const key = { section_tipo: t.section_tipo, section_id: Number(t.section_id) };
      if (!isGlobalAdmin(access)) assertCan(access, 'delete', key.section_tipo);
      accountGuard(ontology, access).beforeChange(row);
      await recordSnapshot(tx, { row, userId: access.userId, when: now });
      await deleteRecordRow(tx, table, key);
      await logActivity(tx, {
        userId: access.userId,
        what: 'delete',
        where: key.section_tipo,
        when: now,
        data: { section_id: key.section_id, delete_mode: 'delete_record', undo_of_import: importId },
      });
      removed++;
    }
    await tx.query('UPDATE imports SET undone_at = $2::timestamptz, undone_by = $3 WHERE id = $1', [
      importId,
      now.toISOString(),
      access.userId,
    ]);
    return { import_id: importId, restored, removed, overwritten: options.force ? conflicts : [] };
  });
}
