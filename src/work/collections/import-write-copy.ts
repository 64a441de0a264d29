/**
 * Writing one Dédalo 6 record (read-matrix-copy.ts) inside the caller's transaction. The record
 * already is in our stored shape, item ids numbered the Dédalo way (translations share theirs)
 * and both sides of every parent/children link present, so its components are written as they
 * are by the store's one component write (history row, version) rather than re-minted by a save
 * (which would renumber the items and mirror links the package already holds). The checks are
 * the API's: create on the section for a new record, save on each component written, project
 * scope, the global-admin flag, the rights ceiling; every locator must point at a record that
 * exists or that the same file holds. A component equal to the stored one is not written; the
 * record's Dédalo stamps (created, modified: who and when) are kept. Components the record does
 * not hold are left as they are.
 */
import { assertCan, PermissionDenied, type UserAccess } from '../auth/permissions.js';
import { type AccountGuard, assertMayWriteComponent } from '../auth/rights-ceiling.js';
import { isComponentModel } from '../ontology/component-models.js';
import type { Ontology } from '../ontology/load-ontology.js';
import { rowInScope } from '../read/page-builder.js';
import { createRecordWithIdIn, writableSectionTable } from '../records/create-record.js';
import { logActivity } from '../store/activity.js';
import { writeVersionedComponent } from '../store/component-write.js';
import { DATA_COLUMNS } from '../store/matrix-tables.js';
import {
  checkedTable,
  componentItems,
  lastItemId,
  type MatrixRow,
  readRecord,
} from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';
import { CellRefused } from './cell-changes.js';
import { importActivity } from './import-activity.js';
import { assertNotLocked, ChangeRefused, canonical, type RowOutcome } from './import-write-row.js';
import type { MatrixCopyRecord } from './read-matrix-copy.js';

export interface CopyWriteContext {
  ontology: Ontology;
  access: UserAccess;
  now: Date;
  /** `section_tipo section_id` of every record the file holds (a link may point forward). */
  inFile: ReadonlySet<string>;
  /** The run's id: the record's activity row names it. */
  importId: number | null;
}

const keyOf = (sectionTipo: string, sectionId: unknown) => `${sectionTipo} ${Number(sectionId)}`;

/** Refuses locators to records that neither exist nor come later in the file. */
async function assertTargets(tx: SqlQueryable, ctx: CopyWriteContext, record: MatrixCopyRecord) {
  const wanted = new Map<string, { section_tipo: string; section_id: number; tipo: string }>();
  for (const [tipo, items] of Object.entries(record.columns.relation)) {
    for (const l of items as { section_tipo: string; section_id: number }[]) {
      const k = keyOf(l.section_tipo, l.section_id);
      if (!ctx.inFile.has(k)) wanted.set(k, { section_tipo: l.section_tipo, section_id: l.section_id, tipo });
    }
  }
  for (const target of wanted.values()) {
    const table = ctx.ontology.tableOf(target.section_tipo);
    const found =
      table !== undefined &&
      (
        await tx.query(`SELECT 1 FROM ${checkedTable(table)} WHERE section_tipo = $1 AND section_id = $2`, [
          target.section_tipo,
          target.section_id,
        ])
      ).rowCount > 0;
    if (!found) {
      throw new ChangeRefused(
        target.tipo,
        new CellRefused(
          'locator_target',
          `${target.tipo}: the locator to ${target.section_tipo} ${target.section_id} points at a record that does not exist`,
        ),
      );
    }
  }
}

const STAMPS = ['created_at', 'created_by', 'modified_at', 'modified_by'] as const;

function sameStamp(stored: unknown, wanted: string | number): boolean {
  if (stored === null || stored === undefined) return false;
  if (typeof wanted === 'number') return Number(stored) === wanted;
  return new Date(stored as string).getTime() === new Date(wanted).getTime();
}

export async function writeCopyRecord(
  tx: SqlQueryable,
  ctx: CopyWriteContext,
  record: MatrixCopyRecord,
  guard: AccountGuard,
): Promise<{ outcome: RowOutcome; key: RecordKey }> {
  const { ontology, access, now } = ctx;
  const sectionTipo = record.section_tipo;
  const { table } = writableSectionTable(ontology, sectionTipo);
  const key: RecordKey = { section_tipo: sectionTipo, section_id: record.section_id };
  await assertTargets(tx, ctx, record);
  let stored: MatrixRow | undefined = await readRecord(tx, table, key, { forUpdate: true });
  let created = false;
  if (stored) {
    if (!rowInScope(ontology, access, stored)) {
      throw new PermissionDenied(access.userId, 'project_scope', sectionTipo);
    }
    guard.beforeChange(stored);
  } else {
    assertCan(access, 'create', sectionTipo);
    await createRecordWithIdIn(tx, ontology, {
      sectionTipo,
      sectionId: record.section_id,
      userId: access.userId,
      projectIds: access.projectIds,
      // One activity row for the whole record, below.
      activity: false,
      now,
    });
    created = true;
    stored = (await readRecord(tx, table, key, { forUpdate: true }))!;
  }
  let written = false;
  const tipos: string[] = [];
  for (const column of DATA_COLUMNS) {
    for (const [tipo, items] of Object.entries(record.columns[column])) {
      if (canonical(componentItems(stored, column, tipo)) === canonical(items)) continue;
      try {
        // A component the ontology lacks (kept under misc) needs save on the section itself.
        const known = isComponentModel(ontology.node(tipo)?.model ?? '') || column === 'misc';
        assertCan(access, 'save', sectionTipo, known && ontology.node(tipo) ? tipo : undefined);
        assertMayWriteComponent(access, sectionTipo, tipo);
        await assertNotLocked(tx, ctx, key, tipo);
        await writeVersionedComponent(tx, {
          table,
          key,
          column,
          tipo,
          items,
          lastId: Math.max(lastItemId(stored, tipo), record.meta[tipo] ?? 0),
          lang: 'lg-nolan',
          userId: access.userId,
          now,
        });
      } catch (error) {
        throw new ChangeRefused(tipo, error);
      }
      tipos.push(tipo);
      written = true;
    }
  }
  if (created || tipos.length > 0) {
    await logActivity(
      tx,
      importActivity({
        userId: access.userId,
        sectionTipo,
        sectionId: record.section_id,
        created,
        components: tipos,
        importId: ctx.importId,
        when: now,
      }),
    );
  }
  // Dédalo's stamps, after the writes (which stamp the record as modified now).
  const stamps = STAMPS.filter((s) => record[s] !== undefined);
  const current = written ? undefined : stored;
  if (stamps.some((s) => current === undefined || !sameStamp(current[s], record[s]!))) {
    await tx.query(
      `UPDATE ${table} SET ${stamps.map((s, i) => `${s} = $${i + 3}${s.endsWith('_at') ? '::timestamptz' : '::integer'}`).join(', ')}
       WHERE section_tipo = $1 AND section_id = $2`,
      [sectionTipo, record.section_id, ...stamps.map((s) => record[s])],
    );
    written = true;
  }
  if (written || created) await guard.afterChange(tx, key);
  return { outcome: created ? 'created' : written ? 'updated' : 'unchanged', key };
}
