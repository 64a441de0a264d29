/**
 * One component save inside the caller's transaction (docs/work-api.md): lock the
 * record row, apply `changed_data` to the component's current value, check every new locator
 * against the database in one query per table, write the component, its history row, the
 * observers (computed components, inverse parent/children references, each with its own history
 * row) and one activity row. Any refusal throws before the transaction commits, so a bad value
 * or a failure half-way leaves nothing written.
 *
 * The row lock (`SELECT ... FOR UPDATE`) serialises concurrent saves of one record: the second
 * reads the first's committed value, counter and versions, so no change is lost, no item id is
 * minted twice, and a save naming a version that is no longer current is refused
 * (records/stale-write.ts). Every component written gets a new version: the id of its history row.
 */

import type { AccountGuard } from '../auth/rights-ceiling.js';
import { type ApplyResult, applyChanges, type ChangeObject } from '../components/apply-changes.js';
import {
  type ComponentSpec,
  invalidValue,
  type Locator,
  targetKey,
  type ValueItem,
} from '../components/component-values.js';
import { computedObservers, computeItems, inverseComponentOf } from '../components/observers.js';
import { WorkError } from '../dispatch/error-registry.js';
import type { Ontology } from '../ontology/load-ontology.js';
import { NO_LANG } from '../ontology/load-ontology.js';
import { logActivity } from '../store/activity.js';
import { writeVersionedComponent } from '../store/component-write.js';
import type { MatrixTable } from '../store/matrix-tables.js';
import {
  checkedTable,
  componentItems,
  componentVersion,
  lastItemId,
  type MatrixRow,
  readRecord,
  readRecords,
} from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';
import { assertMandatoryFilled, assertUniqueValues } from './component-rules.js';
import { createRecordIn } from './create-record.js';
import { assertNoHierarchyCycle } from './hierarchy-cycle.js';
import { StaleVersion } from './stale-write.js';

export interface SaveComponentArgs {
  key: RecordKey;
  spec: ComponentSpec;
  /** The language of the change (lg-nolan for untranslatable components). */
  lang: string;
  /** Checked change objects; password values are already Argon2id hashes. */
  changes: readonly ChangeObject[];
  userId: number;
  /** The saver's projects: records add_new_element creates get them as their project filter. */
  projectIds: readonly number[];
  /**
   * Non-admins: a project filter (component_filter) may gain only these projects (upstream's
   * filter datalist offers a user their own projects). Undefined: no limit (global admins).
   */
  filterProjectsAllowed?: readonly number[];
  /**
   * Called with the locked row before anything is changed; throws to refuse (the caller's
   * project-scope check, made on the row this save holds instead of in a statement of its own).
   */
  assertRow?: (row: MatrixRow) => void;
  /**
   * The component's version the client edited (`data.version`): another current version throws
   * StaleVersion before anything is written. Undefined: not checked (the stock client).
   */
  expectedVersion?: number;
  /**
   * The rights ceiling (auth/rights-ceiling.ts): shown the saved row before the change, and every
   * user or profile record the save wrote or created after it, before the commit.
   */
  guard?: AccountGuard;
  /**
   * False: no activity row for this save, the caller writes one for the whole record (an import
   * logs one row per record it writes, docs/import-export.md). Default true.
   */
  activity?: boolean;
  now: Date;
}

export interface SaveComponentOutcome {
  /** The component's whole new value (every language). */
  items: unknown[];
  /** Records created by add_new_element, in order. */
  createdSectionIds: number[];
  /** Every (record, component) written, the saved one first: one history row each. */
  written: { key: RecordKey; tipo: string }[];
  /** The saved record as it now stands (the echo is read from it, not read again). */
  row: MatrixRow;
}

/** The username component: two users may not share one (login could not tell them apart). */
const USERNAME = { section: 'dd128', tipo: 'dd132' } as const;

function tableFor(ontology: Ontology, sectionTipo: string): MatrixTable {
  const table = ontology.tableOf(sectionTipo);
  if (!table) throw new Error(`${sectionTipo} has no matrix table`);
  return checkedTable(table);
}

/** The history value: the whole new value, except that a password's value never leaves the row. */
export function historyItems(spec: ComponentSpec, items: readonly unknown[]): unknown[] {
  if (spec.kind !== 'password') return [...items];
  return items.map((i) => ({
    id: (i as ValueItem).id,
    lang: (i as ValueItem).lang,
    value: '[password changed]',
  }));
}

/**
 * Refuses locators whose target record does not exist (one statement per matrix table involved,
 * whatever the number of locators). For selects the message says "not in its datalist".
 */
async function assertTargetsExist(
  tx: SqlQueryable,
  ontology: Ontology,
  spec: ComponentSpec,
  locators: readonly Locator[],
): Promise<void> {
  const byTable = new Map<MatrixTable, Locator[]>();
  for (const l of locators) {
    const table = tableFor(ontology, l.section_tipo);
    byTable.set(table, [...(byTable.get(table) ?? []), l]);
  }
  for (const [table, list] of byTable) {
    const { rows } = await tx.query<{ section_tipo: string; section_id: number }>(
      `SELECT t.section_tipo, t.section_id FROM ${table} t
       JOIN unnest($1::text[], $2::integer[]) AS w(section_tipo, section_id)
         ON t.section_tipo = w.section_tipo AND t.section_id = w.section_id`,
      [list.map((l) => l.section_tipo), list.map((l) => l.section_id)],
    );
    const found = new Set(rows.map((r) => targetKey(r)));
    const missing = list.find((l) => !found.has(targetKey(l)));
    if (missing) throw missingTargetError(spec, missing);
  }
}

/** The refusal of a locator to a record that does not exist (the import's bulk path says the same). */
export function missingTargetError(spec: ComponentSpec, missing: Locator): WorkError {
  const where = `${missing.section_tipo} ${missing.section_id}`;
  if (spec.datalist) {
    return invalidValue(spec, `${where} is not in its datalist (no such record of ${missing.section_tipo})`);
  }
  return new WorkError(
    'validation.locator_target',
    `${spec.tipo} (${spec.model}): the locator to ${where} points at a record that does not exist`,
  );
}

/**
 * The locators a relation save adds (not in `before`), after the checks that need no database:
 * a record is not its own parent or child; a non-admin's project filter gains only their
 * projects. The caller checks that the added targets exist.
 */
export function checkedAddedLocators(
  ontology: Ontology,
  spec: ComponentSpec,
  key: RecordKey,
  before: readonly unknown[],
  items: readonly unknown[],
  filterProjectsAllowed: readonly number[] | undefined,
): Locator[] {
  const self = targetKey(key);
  const known = new Set(before.map((l) => targetKey(l as Locator)));
  const added = (items as Locator[]).filter((l) => !known.has(targetKey(l)));
  if (inverseComponentOf(ontology, spec, key.section_tipo) && added.some((l) => targetKey(l) === self)) {
    throw invalidValue(spec, 'a record cannot be its own parent or child');
  }
  const foreign =
    spec.model === 'component_filter' && filterProjectsAllowed
      ? added.find((l) => !filterProjectsAllowed.includes(l.section_id))
      : undefined;
  if (foreign) {
    throw new WorkError(
      'perm.out_of_scope',
      `${spec.tipo}: project ${foreign.section_tipo} ${foreign.section_id} is not one of your projects`,
    );
  }
  return added;
}

async function assertUniqueUsername(tx: SqlQueryable, key: RecordKey, items: readonly unknown[]) {
  for (const item of items) {
    const value = (item as ValueItem).value;
    if (typeof value !== 'string' || value === '') continue;
    const { rowCount } = await tx.query(
      `SELECT 1 FROM matrix_users WHERE section_tipo = $1 AND section_id <> $2
         AND string -> $3 @> $4::jsonb LIMIT 1`,
      [USERNAME.section, key.section_id, USERNAME.tipo, JSON.stringify([{ value }])],
    );
    if (rowCount > 0)
      throw new WorkError('resource.conflict', `${USERNAME.tipo}: the username "${value}" is taken`);
  }
}

/** sort_by_column's sort texts: the first value of `columnTipo` in each target record. */
async function columnTexts(
  tx: SqlQueryable,
  ontology: Ontology,
  spec: ComponentSpec,
  locators: readonly Locator[],
  columnTipo: string,
): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const sections = [...new Set(locators.map((l) => l.section_tipo))];
  for (const sectionTipo of sections) {
    const column = ontology.dataColumnOf(columnTipo);
    if (!ontology.isComponentOf(columnTipo, sectionTipo) || (column !== 'string' && column !== 'number')) {
      throw invalidValue(
        spec,
        `sort_by_column: ${columnTipo.slice(0, 64)} is not a text or number column of ${sectionTipo}`,
      );
    }
    const ids = locators.filter((l) => l.section_tipo === sectionTipo).map((l) => l.section_id);
    for (const row of await readRecords(tx, tableFor(ontology, sectionTipo), sectionTipo, ids)) {
      const first = componentItems(row, column, columnTipo)[0] as ValueItem | undefined;
      const value = first?.value;
      texts.set(
        targetKey(row),
        typeof value === 'number' ? String(value).padStart(20, '0') : typeof value === 'string' ? value : '',
      );
    }
  }
  return texts;
}

/**
 * Writes one component with its history row (whose id becomes the component's version); keeps
 * the in-memory row in step for observers and the echo.
 */
async function writeWithHistory(
  tx: SqlQueryable,
  ontology: Ontology,
  row: MatrixRow,
  spec: ComponentSpec,
  items: readonly unknown[],
  lastId: number,
  lang: string,
  userId: number,
  now: Date,
): Promise<void> {
  const key = { section_tipo: row.section_tipo, section_id: Number(row.section_id) };
  const version = await writeVersionedComponent(tx, {
    table: tableFor(ontology, key.section_tipo),
    key,
    column: spec.column,
    tipo: spec.tipo,
    items,
    lastId,
    lang,
    historyItems: historyItems(spec, items),
    userId,
    now,
  });
  row[spec.column] = { ...row[spec.column], [spec.tipo]: [...items] };
  row.meta = { ...row.meta, [spec.tipo]: lastId };
  row.versions = { ...row.versions, [spec.tipo]: version };
}

/** Mirrors a parent/children change into the records it points at (added and removed targets). */
async function syncInverseReferences(
  tx: SqlQueryable,
  ontology: Ontology,
  args: SaveComponentArgs,
  before: readonly unknown[],
  after: readonly unknown[],
  written: SaveComponentOutcome['written'],
): Promise<void> {
  const { spec, key } = args;
  const targets = (items: readonly unknown[]) => new Map((items as Locator[]).map((l) => [targetKey(l), l]));
  const old = targets(before);
  const now = targets(after);
  const changed = [...new Set([...old.keys(), ...now.keys()])]
    .filter((k) => old.has(k) !== now.has(k))
    // A fixed order: two saves touching the same records lock them in the same order.
    .sort();
  const self = targetKey(key);
  for (const k of changed) {
    const target = (now.get(k) ?? old.get(k))!;
    const inverse = inverseComponentOf(ontology, spec, target.section_tipo);
    if (!inverse) continue;
    const targetKeyValue = { section_tipo: target.section_tipo, section_id: Number(target.section_id) };
    const row = await readRecord(tx, tableFor(ontology, target.section_tipo), targetKeyValue, {
      forUpdate: true,
    });
    // A removed target that no longer exists has nothing to clean.
    if (!row) continue;
    const items = componentItems(row, inverse.column, inverse.tipo) as Locator[];
    const has = items.some((l) => targetKey(l) === self);
    let lastId = lastItemId(row, inverse.tipo);
    let next: Locator[];
    if (now.has(k)) {
      if (has) continue;
      next = [
        ...items,
        {
          id: ++lastId,
          type: inverse.relationType!,
          section_tipo: key.section_tipo,
          section_id: key.section_id,
          from_component_tipo: inverse.tipo,
        },
      ];
    } else {
      if (!has) continue;
      next = items.filter((l) => targetKey(l) !== self);
    }
    await writeWithHistory(tx, ontology, row, inverse, next, lastId, NO_LANG, args.userId, args.now);
    written.push({ key: targetKeyValue, tipo: inverse.tipo });
  }
}

/** Runs the save inside `tx` (the caller's `db.transaction`). */
export async function saveComponentIn(
  tx: SqlQueryable,
  ontology: Ontology,
  args: SaveComponentArgs,
): Promise<SaveComponentOutcome> {
  const { key, spec, userId, now } = args;
  const table = tableFor(ontology, key.section_tipo);
  const row = await readRecord(tx, table, key, { forUpdate: true });
  if (!row) throw new WorkError('resource.not_found', `${key.section_tipo} ${key.section_id} does not exist`);
  args.assertRow?.(row);
  args.guard?.beforeChange(row);
  // After the lock and the scope check (a record out of scope is refused as such, not described).
  if (args.expectedVersion !== undefined) {
    const current = componentVersion(row, spec.tipo);
    if (current !== args.expectedVersion)
      throw new StaleVersion(row, key, spec.tipo, args.expectedVersion, current);
  }
  const before = componentItems(row, spec.column, spec.tipo);
  const created: RecordKey[] = [];

  const applied: ApplyResult = await applyChanges(
    spec,
    ontology,
    { items: before, lastId: lastItemId(row, spec.tipo) },
    args.changes,
    args.lang,
    {
      createTarget: async (sectionTipo) => {
        const id = await createRecordIn(tx, ontology, {
          sectionTipo,
          userId,
          projectIds: args.projectIds,
          now,
        });
        created.push({ section_tipo: sectionTipo, section_id: id });
        return id;
      },
      columnValues: (locators, columnTipo) => columnTexts(tx, ontology, spec, locators, columnTipo),
    },
  );

  if (spec.kind === 'relation') {
    // Records add_new_element just created are checked too: this transaction sees them.
    const added = checkedAddedLocators(
      ontology,
      spec,
      key,
      before,
      applied.items,
      args.filterProjectsAllowed,
    );
    if (spec.model === 'component_relation_parent' || spec.model === 'component_relation_children') {
      await assertNoHierarchyCycle(tx, ontology, spec, key, added);
    }
    if (added.length > 0) await assertTargetsExist(tx, ontology, spec, added);
  }
  if (key.section_tipo === USERNAME.section && spec.tipo === USERNAME.tipo) {
    await assertUniqueUsername(tx, key, applied.items);
  }
  // The ontology's rules on the whole new value (records/component-rules.ts).
  assertMandatoryFilled(ontology, spec, applied.items);
  await assertUniqueValues(tx, ontology, table, key, spec, applied.items);

  const written: SaveComponentOutcome['written'] = [{ key, tipo: spec.tipo }];
  await writeWithHistory(tx, ontology, row, spec, applied.items, applied.lastId, args.lang, userId, now);

  for (const observer of computedObservers(ontology, key.section_tipo, spec.tipo)) {
    const current = componentItems(row, observer.column, observer.tipo);
    const computed = computeItems(ontology, observer, row, lastItemId(row, observer.tipo));
    if (JSON.stringify(computed.items) === JSON.stringify(current)) continue;
    await writeWithHistory(
      tx,
      ontology,
      row,
      observer,
      computed.items,
      computed.lastId,
      NO_LANG,
      userId,
      now,
    );
    written.push({ key, tipo: observer.tipo });
  }
  if (spec.kind === 'relation') {
    await syncInverseReferences(tx, ontology, args, before, applied.items, written);
  }

  if (args.guard) {
    const judged = new Set<string>();
    for (const k of [...written.map((w) => w.key), ...created]) {
      const id = `${k.section_tipo}\u0000${k.section_id}`;
      if (judged.has(id)) continue;
      judged.add(id);
      await args.guard.afterChange(tx, k);
    }
  }

  if (args.activity === false) {
    return { items: applied.items, createdSectionIds: applied.createdSectionIds, written, row };
  }
  await logActivity(tx, {
    userId,
    what: 'save',
    where: spec.tipo,
    when: now,
    data: {
      section_tipo: key.section_tipo,
      section_id: key.section_id,
      lang: args.lang,
      actions: args.changes.map((c) => c.action),
      ...(applied.createdSectionIds.length > 0 ? { created_section_ids: applied.createdSectionIds } : {}),
    },
  });
  return { items: applied.items, createdSectionIds: applied.createdSectionIds, written, row };
}
