/**
 * Deleting records of one section inside a caller's transaction, in one of the two modes of
 * `dd_core_api.delete`:
 * - `delete_data` keeps the row (its section_id stays taken) and empties every component except
 *   the project filter. Keeping the filter keeps the emptied record inside the same projects, so
 *   the people who could see it still can (and can fill it again), instead of it moving to the
 *   default project as upstream's TS port does. A whole-record snapshot and one history row per
 *   emptied component (per language) keep every value recoverable.
 * - `delete_record` takes the snapshot first, removes every locator pointing at the record from
 *   the other records (each rewritten component gets its history row), then removes the row.
 *   A record whose children component (model component_relation_children, e.g. ts1 hierarchy49)
 *   is not empty is not deleted: it is reported back so the action can say so in one notice.
 * Each deleted record gets an activity row ('delete'). Deleting a TLD's record of the ontology's
 * TLD section uninstalls the TLD: the delete action asks ontology/ontology-edit.ts around this.
 *
 * The activity log (matrix_activity) is not searched for inbound locators: its rows say who did
 * what (dd543 points at the user) and are an audit trail written only by the server; rewriting
 * them would falsify history. Every other matrix table is.
 */
import type { AccountGuard } from '../auth/rights-ceiling.js';
import { componentSpec } from '../components/component-values.js';
import { inverseComponentOf } from '../components/observers.js';
import type { Ontology } from '../ontology/load-ontology.js';
import { NO_LANG } from '../ontology/load-ontology.js';
import { logActivity } from '../store/activity.js';
import { writeVersionedComponent } from '../store/component-write.js';
import { recordComponentHistory, recordSnapshot } from '../store/history.js';
import { DATA_COLUMNS, type DataColumn, MATRIX_TABLES, type MatrixTable } from '../store/matrix-tables.js';
import {
  clearRecordData,
  componentItems,
  deleteRecordRow,
  lastItemId,
  type MatrixRow,
  readRecord,
  recordsPointingAt,
} from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';
import { projectFilterOf, writableSectionTable } from './create-record.js';

export const DELETE_MODES = ['delete_data', 'delete_record'] as const;
export type DeleteMode = (typeof DELETE_MODES)[number];

/** Tables searched for locators pointing at a deleted record (see the module comment). */
export const INVERSE_REFERENCE_TABLES: readonly MatrixTable[] = MATRIX_TABLES.filter(
  (t) => t !== 'matrix_activity',
);

export interface DeleteRecordsArgs {
  sectionTipo: string;
  /** Records to delete, in order; ids that no longer exist are skipped. */
  ids: readonly number[];
  mode: DeleteMode;
  userId: number;
  now: Date;
  /**
   * The rights ceiling (auth/rights-ceiling.ts): shown each deleted record and each record whose
   * locators to it are removed, before the change (locked) and after it (before the commit).
   */
  guard?: AccountGuard;
}

export interface DeleteRecordsOutcome {
  /** Records deleted (emptied, for delete_data), in the order asked. */
  deleted: number[];
  /** Records kept because they have children (delete_record only). */
  refusedWithChildren: number[];
  /** Asked for but not found (already gone). */
  missing: number[];
}

const pointsAt = (item: unknown, target: RecordKey): boolean => {
  if (typeof item !== 'object' || item === null) return false;
  const { section_tipo, section_id } = item as { section_tipo?: unknown; section_id?: unknown };
  // Imported data may hold the id as a string ("12"): compare as text.
  return section_tipo === target.section_tipo && String(section_id) === String(target.section_id);
};

/** The languages of a component's items (lg-nolan for items without one). */
function langsOf(items: readonly unknown[]): string[] {
  const langs = new Set<string>();
  for (const item of items) {
    const lang = (item as { lang?: unknown } | null)?.lang;
    langs.add(typeof lang === 'string' ? lang : NO_LANG);
  }
  return [...langs];
}

/** True when a children component of the section holds anything. */
function hasChildren(ontology: Ontology, row: MatrixRow): boolean {
  return ontology
    .sectionComponents(row.section_tipo)
    .some(
      (c) =>
        c.model === 'component_relation_children' &&
        componentItems(row, ontology.dataColumnOf(c.tipo) ?? 'relation', c.tipo).length > 0,
    );
}

/**
 * Removes every locator pointing at `target` from the records of every searched table (the
 * target itself excluded: its row is about to go), one history row per rewritten component.
 */
async function removeInboundReferences(
  tx: SqlQueryable,
  ontology: Ontology,
  target: RecordKey,
  userId: number,
  now: Date,
  guard?: AccountGuard,
): Promise<void> {
  for (const table of INVERSE_REFERENCE_TABLES) {
    const pointing = await recordsPointingAt(
      tx,
      table,
      target,
      ontology.relationComponentsInto(table, target.section_tipo),
    );
    for (const found of pointing) {
      const key = { section_tipo: found.section_tipo, section_id: Number(found.section_id) };
      if (key.section_tipo === target.section_tipo && key.section_id === target.section_id) continue;
      // Re-read under a lock: a save committed since the search must not be overwritten.
      const row = await readRecord(tx, table, key, { forUpdate: true });
      if (!row) continue;
      let changed = false;
      for (const [tipo, value] of Object.entries(row.relation ?? {})) {
        if (!Array.isArray(value) || !value.some((item) => pointsAt(item, target))) continue;
        if (!changed) guard?.beforeChange(row);
        changed = true;
        const kept = value.filter((item) => !pointsAt(item, target));
        await writeVersionedComponent(tx, {
          table,
          key,
          column: 'relation',
          tipo,
          items: kept,
          lastId: lastItemId(row, tipo),
          lang: NO_LANG,
          userId,
          now,
        });
      }
      // A user losing its first profile falls back to the next one it lists: judged as it now is.
      if (changed) await guard?.afterChange(tx, key);
    }
  }
}

const MIRRORED_MODELS = new Set(['component_relation_parent', 'component_relation_children']);

/**
 * Keeps parent and children components mirrored (A's parent P <-> P's child A, as the save's
 * observers keep them) when `self`'s component `tipo` gains (`add`) or loses (`remove`) the
 * locators `targets`: each target's inverse component gets or loses its locator to `self`, with
 * a history row. Targets are locked in a fixed order, like the save does, so two writers touching
 * the same records cannot deadlock on their order.
 */
export async function mirrorParentChildren(
  tx: SqlQueryable,
  ontology: Ontology,
  self: RecordKey,
  tipo: string,
  targets: readonly unknown[],
  change: 'add' | 'remove',
  userId: number,
  now: Date,
): Promise<void> {
  const node = ontology.node(tipo);
  if (!node || !MIRRORED_MODELS.has(node.model)) return;
  const spec = componentSpec(ontology, node);
  const keys = new Map<string, RecordKey>();
  for (const item of targets) {
    const { section_tipo, section_id } = (item ?? {}) as { section_tipo?: unknown; section_id?: unknown };
    const id = Number(section_id);
    if (typeof section_tipo !== 'string' || !Number.isSafeInteger(id)) continue;
    keys.set(`${section_tipo}\u0000${id}`, { section_tipo, section_id: id });
  }
  for (const k of [...keys.keys()].sort()) {
    const target = keys.get(k)!;
    if (target.section_tipo === self.section_tipo && target.section_id === self.section_id) continue;
    const inverse = inverseComponentOf(ontology, spec, target.section_tipo);
    const table = ontology.tableOf(target.section_tipo);
    if (!inverse || !table) continue;
    const row = await readRecord(tx, table, target, { forUpdate: true });
    if (!row) continue;
    const items = componentItems(row, inverse.column, inverse.tipo);
    const has = items.some((item) => pointsAt(item, self));
    let lastId = lastItemId(row, inverse.tipo);
    let next: unknown[];
    if (change === 'add') {
      if (has) continue;
      lastId += 1;
      next = [
        ...items,
        {
          id: lastId,
          type: inverse.relationType,
          section_tipo: self.section_tipo,
          section_id: self.section_id,
          from_component_tipo: inverse.tipo,
        },
      ];
    } else {
      if (!has) continue;
      next = items.filter((item) => !pointsAt(item, self));
    }
    await writeVersionedComponent(tx, {
      table,
      key: target,
      column: inverse.column,
      tipo: inverse.tipo,
      items: next,
      lastId,
      lang: NO_LANG,
      userId,
      now,
    });
  }
}

/**
 * Empties the record's components except the project filter; one history row per emptied
 * component and language, holding the (empty) value written, the last of them the component's
 * new version. An emptied parent or children component also leaves the records it named (their
 * mirror component stops naming this one).
 */
async function clearData(
  tx: SqlQueryable,
  ontology: Ontology,
  table: MatrixTable,
  row: MatrixRow,
  userId: number,
  now: Date,
): Promise<void> {
  const key = { section_tipo: row.section_tipo, section_id: Number(row.section_id) };
  const filterTipo = projectFilterOf(ontology, row.section_tipo)?.tipo;
  const keep: Partial<Record<DataColumn, Record<string, unknown[]>>> = {};
  const versions: Record<string, number> = {};
  for (const column of DATA_COLUMNS) {
    for (const [tipo, items] of Object.entries(row[column] ?? {})) {
      if (tipo === filterTipo) {
        keep[column] = { ...keep[column], [tipo]: items };
        continue;
      }
      if (!Array.isArray(items) || items.length === 0) continue;
      await mirrorParentChildren(tx, ontology, key, tipo, items, 'remove', userId, now);
      for (const lang of langsOf(items)) {
        versions[tipo] = await recordComponentHistory(tx, { key, tipo, lang, items: [], userId, when: now });
      }
    }
  }
  await clearRecordData(tx, table, key, userId, now, keep, versions);
}

/**
 * Deletes `args.ids` of one section in `args.mode`. Run inside `db.transaction`: a failure
 * anywhere leaves every record as it was. The caller has checked levels and project scope.
 */
export async function deleteRecordsIn(
  tx: SqlQueryable,
  ontology: Ontology,
  args: DeleteRecordsArgs,
): Promise<DeleteRecordsOutcome> {
  const { table } = writableSectionTable(ontology, args.sectionTipo);
  const outcome: DeleteRecordsOutcome = { deleted: [], refusedWithChildren: [], missing: [] };
  for (const id of [...new Set(args.ids)]) {
    const key = { section_tipo: args.sectionTipo, section_id: id };
    const row = await readRecord(tx, table, key, { forUpdate: true });
    if (!row) {
      outcome.missing.push(id);
      continue;
    }
    args.guard?.beforeChange(row);
    if (args.mode === 'delete_record') {
      if (hasChildren(ontology, row)) {
        outcome.refusedWithChildren.push(id);
        continue;
      }
      // The snapshot comes first: everything after it may change the row or remove it.
      await recordSnapshot(tx, { row, userId: args.userId, when: args.now });
      await removeInboundReferences(tx, ontology, key, args.userId, args.now, args.guard);
      await deleteRecordRow(tx, table, key);
    } else {
      await recordSnapshot(tx, { row, userId: args.userId, when: args.now });
      await clearData(tx, ontology, table, row, args.userId, args.now);
      await args.guard?.afterChange(tx, key);
    }
    await logActivity(tx, {
      userId: args.userId,
      what: 'delete',
      where: args.sectionTipo,
      when: args.now,
      data: { section_id: id, delete_mode: args.mode },
    });
    outcome.deleted.push(id);
  }
  return outcome;
}
