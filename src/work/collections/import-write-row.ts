/**
 * Writing one row of a CSV import (Dédalo CSV or a mapped spreadsheet) inside the caller's
 * transaction, through the API's own write paths: the record is created by create-record.ts
 * (with the row's id when it names one, the counter moved past it), each changed component is
 * saved by records/save-component.ts (history, version, observers, inverse references, the
 * rights ceiling), with the same checks as `create` and `save` (level, project scope, the
 * global-admin flag). The record gets ONE activity row for the whole row (import-activity.ts)
 * instead of one for its creation and one per component saved. A component whose value would not change is not written at all, so a file
 * imported twice writes nothing the second time. Media and components of models this archive
 * does not implement keep their stored items: they are written by the store's one component
 * write (history row and version) since save refuses them.
 *
 * Anything refused throws; the caller rolls the row back (its savepoint) and reports it.
 */
import { assertCan, isGlobalAdmin, PermissionDenied, type UserAccess } from '../auth/permissions.js';
import { type AccountGuard, assertMayWriteComponent } from '../auth/rights-ceiling.js';
import { applyChanges, type ChangeObject } from '../components/apply-changes.js';
import { componentSpec } from '../components/component-values.js';
import { lockHeldByOther } from '../locks/component-locks.js';
import { inUseError } from '../locks/in-use-error.js';
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import { rowInScope } from '../read/page-builder.js';
import { createRecordIn, createRecordWithIdIn } from '../records/create-record.js';
import { saveComponentIn } from '../records/save-component.js';
import { logActivity } from '../store/activity.js';
import { writeVersionedComponent } from '../store/component-write.js';
import type { MatrixTable } from '../store/matrix-tables.js';
import { componentItems, lastItemId, type MatrixRow, readRecord } from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';
import type { ComponentChange } from './cell-changes.js';
import { importActivity } from './import-activity.js';
import { resolveByKey } from './match-by-key.js';
import type { MappedChange } from './read-mapped-csv.js';

export type RowOutcome = 'created' | 'updated' | 'unchanged';

export interface ImportWriteContext {
  ontology: Ontology;
  access: UserAccess;
  sectionTipo: string;
  table: MatrixTable;
  now: Date;
  /** The run's id (null in a dry run): the record's activity row names it. */
  importId: number | null;
}

export interface ChangeRow {
  action: 'update_or_create' | 'create';
  sectionId?: number;
  changes: readonly MappedChange[];
}

/** A refusal raised while writing one change: which component it was (for the report's column). */
export class ChangeRefused extends Error {
  constructor(
    readonly tipo: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'ChangeRefused';
  }
}

/** JSON with object keys sorted, so a stored value (jsonb orders keys its own way) compares. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** A component's items compared without their ids (a value saved again mints new ones; the bulk path compares the same way). */
export const withoutIds = (items: readonly unknown[]) =>
  canonical(
    items.map((i) => {
      if (i === null || typeof i !== 'object' || Array.isArray(i)) return i;
      const { id: _id, ...rest } = i as Record<string, unknown>;
      // Locator ids are stored as numbers by the save path and as text by some imports.
      if (typeof rest.section_id === 'string' && /^\d+$/.test(rest.section_id)) {
        rest.section_id = Number(rest.section_id);
      }
      return rest;
    }),
  );

export const noHooks = {
  createTarget: async () => {
    throw new Error('an import never creates targets');
  },
  columnValues: async () => new Map<string, string>(),
};

/** A component another user is editing (their live lock) is not written, as `save` refuses it. */
export async function assertNotLocked(
  tx: SqlQueryable,
  ctx: { access: UserAccess; now: Date },
  key: RecordKey,
  tipo: string,
): Promise<void> {
  const lockKey = { ...key, component_tipo: tipo };
  const holder = await lockHeldByOther(tx, lockKey, ctx.access.userId, ctx.now);
  if (holder) throw inUseError(lockKey, holder);
}

/** The record the row writes to, created when needed (with the checks `create` makes). */
async function openRecord(
  tx: SqlQueryable,
  ctx: ImportWriteContext,
  row: ChangeRow,
  guard: AccountGuard,
): Promise<{ key: RecordKey; record: MatrixRow; created: boolean }> {
  const { ontology, access, sectionTipo, table, now } = ctx;
  // The row's one activity row is written by writeChangeRow once the record is written.
  const base = { sectionTipo, userId: access.userId, projectIds: access.projectIds, now, activity: false };
  let created = false;
  let key: RecordKey;
  if (row.action === 'create' || row.sectionId === undefined) {
    assertCan(access, 'create', sectionTipo);
    key = { section_tipo: sectionTipo, section_id: await createRecordIn(tx, ontology, base) };
    created = true;
  } else {
    key = { section_tipo: sectionTipo, section_id: row.sectionId };
    const existing = await readRecord(tx, table, key, { forUpdate: true });
    if (existing) {
      if (!rowInScope(ontology, access, existing)) {
        throw new PermissionDenied(access.userId, 'project_scope', sectionTipo);
      }
      guard.beforeChange(existing);
    } else {
      assertCan(access, 'create', sectionTipo);
      await createRecordWithIdIn(tx, ontology, { ...base, sectionId: row.sectionId });
      created = true;
    }
  }
  const record = await readRecord(tx, table, key, { forUpdate: true });
  if (!record) throw new Error(`${sectionTipo} ${key.section_id} vanished while importing`);
  return { key, record, created };
}

/** The set_data changes a change stands for (match by key resolved, `clear` per language). */
async function setDataOf(
  tx: SqlQueryable,
  ctx: ImportWriteContext,
  record: MatrixRow,
  change: MappedChange,
): Promise<{ lang: string; value: unknown[] }[]> {
  if (change.kind === 'match_by_key') {
    return [{ lang: NO_LANG, value: await resolveByKey(tx, ctx.ontology, change) }];
  }
  if (change.kind === 'set_data') return [{ lang: change.lang, value: change.value }];
  // clear: every language the component holds.
  const items = componentItems(record, change.column, change.tipo) as { lang?: unknown }[];
  const langs = [...new Set(items.map((i) => (typeof i?.lang === 'string' ? i.lang : NO_LANG)))];
  return langs.map((lang) => ({ lang, value: [] }));
}

/** Stored items (media, models not implemented) written as they are, when they differ. */
async function writeStored(
  tx: SqlQueryable,
  ctx: ImportWriteContext,
  key: RecordKey,
  record: MatrixRow,
  change: ComponentChange & { kind: 'stored' | 'clear' },
): Promise<boolean> {
  const items = change.kind === 'stored' ? change.items : [];
  const before = componentItems(record, change.column, change.tipo);
  if (canonical(before) === canonical(items)) return false;
  assertCan(ctx.access, 'save', ctx.sectionTipo, change.tipo);
  await assertNotLocked(tx, ctx, key, change.tipo);
  const ids = items.map((i) =>
    typeof (i as { id?: unknown })?.id === 'number' ? (i as { id: number }).id : 0,
  );
  const lastId = Math.max(lastItemId(record, change.tipo), ...ids);
  const version = await writeVersionedComponent(tx, {
    table: ctx.table,
    key,
    column: change.column,
    tipo: change.tipo,
    items,
    lastId,
    lang: NO_LANG,
    userId: ctx.access.userId,
    now: ctx.now,
  });
  record[change.column] = { ...record[change.column], [change.tipo]: [...items] };
  record.meta = { ...record.meta, [change.tipo]: lastId };
  record.versions = { ...record.versions, [change.tipo]: version };
  return true;
}

/** Writes one accepted row; answers what it did. Throws ChangeRefused or a permission refusal. */
export async function writeChangeRow(
  tx: SqlQueryable,
  ctx: ImportWriteContext,
  row: ChangeRow,
  guard: AccountGuard,
): Promise<{ outcome: RowOutcome; key: RecordKey }> {
  const { ontology, access, sectionTipo, now } = ctx;
  const opened = await openRecord(tx, ctx, row, guard);
  const { key, created } = opened;
  let record = opened.record;
  let written = false;
  const components: string[] = [];
  for (const change of row.changes) {
    try {
      if (
        change.kind === 'stored' ||
        (change.kind === 'clear' && (change.column === 'media' || change.column === 'misc'))
      ) {
        if (
          await writeStored(tx, ctx, key, record, change as ComponentChange & { kind: 'stored' | 'clear' })
        ) {
          components.push(change.tipo);
          written = true;
        }
        continue;
      }
      const spec = componentSpec(ontology, ontology.node(change.tipo)!);
      for (const { lang, value } of await setDataOf(tx, ctx, record, change)) {
        const changes: ChangeObject[] = [{ action: 'set_data', value }];
        const before = componentItems(record, spec.column, spec.tipo);
        // The value the save would leave, computed without writing: equal to the stored one
        // (ids aside), nothing is written and the component keeps its version.
        const applied = await applyChanges(
          spec,
          ontology,
          { items: before, lastId: lastItemId(record, spec.tipo) },
          changes,
          lang,
          noHooks,
        );
        // Translations: the language's own items (the save puts the others first, so the
        // whole value's order is not the test).
        const slice = (items: readonly unknown[]) =>
          spec.translatable ? items.filter((i) => (i as { lang?: unknown })?.lang === lang) : items;
        if (withoutIds(slice(applied.items)) === withoutIds(slice(before))) continue;
        assertCan(access, 'save', sectionTipo, spec.tipo);
        assertMayWriteComponent(access, sectionTipo, spec.tipo);
        await assertNotLocked(tx, ctx, key, spec.tipo);
        const outcome = await saveComponentIn(tx, ontology, {
          key,
          spec,
          lang,
          changes,
          userId: access.userId,
          projectIds: access.projectIds,
          ...(isGlobalAdmin(access) ? {} : { filterProjectsAllowed: access.projectIds }),
          guard,
          activity: false,
          now,
        });
        record = outcome.row;
        components.push(spec.tipo);
        written = true;
      }
    } catch (error) {
      throw new ChangeRefused(change.tipo, error);
    }
  }
  // A created user or profile is judged even when the row wrote nothing into it.
  if (created) await guard.afterChange(tx, key);
  if (created || written) {
    await logActivity(
      tx,
      importActivity({
        userId: access.userId,
        sectionTipo,
        sectionId: key.section_id,
        created,
        components,
        importId: ctx.importId,
        when: now,
      }),
    );
  }
  return { outcome: created ? 'created' : written ? 'updated' : 'unchanged', key };
}
