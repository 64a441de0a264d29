/**
 * The import's bulk path (docs/import-export.md, "Speed"): a run of consecutive CSV rows that
 * each CREATE a record is written with a handful of multi-row statements instead of a save per
 * component, and writes exactly what the per-row path (import-write-row.ts) would: the same
 * record rows (values, item counters, versions, creation and modification stamps), one history
 * row per component written and one activity row per record (import-activity.ts), in the
 * same order (so the same ids on a fresh database), the section counter moved to the same value.
 *
 * The rules are the save path's own functions: applyChanges on each value, the comparison that
 * skips a value equal to the stored one, checkedAddedLocators, assertMandatoryFilled, the unique
 * rule (its holders read once per component for the whole run, then the run's earlier rows), the
 * rights checks (once per component for the run instead of per row). Checks needing the database
 * are one statement per target table or unique component for the run. A row refused by a rule is
 * left out (it consumes no id, as its rolled-back savepoint would not); the others are written.
 *
 * Not handled here (the caller sends such rows through the per-row path, see bulkSection):
 * records that exist (updates), stored/clear/match-by-key cells, sections with computed
 * components or parent/children components (their observers write other records), user and
 * profile sections (the rights ceiling judges each), and a run where a new record turns out to
 * carry another user's live lock (BulkFallBack: the whole run is redone row by row).
 */
import { assertCan, isGlobalAdmin, type UserAccess } from '../auth/permissions.js';
import { assertMayWriteComponent, isAccountSection } from '../auth/rights-ceiling.js';
import { applyChanges, type ChangeObject } from '../components/apply-changes.js';
import {
  type ComponentSpec,
  componentSpec,
  type Locator,
  targetKey,
} from '../components/component-values.js';
import { recordsLockedByOthers } from '../locks/component-locks.js';
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import {
  assertMandatoryFilled,
  comparedValues,
  duplicateValueError,
  holdersOfValues,
  isUniqueChecked,
  lockUniqueComponent,
} from '../records/component-rules.js';
import { creatorProjectFilter, projectFilterOf } from '../records/create-record.js';
import { checkedAddedLocators, historyItems, missingTargetError } from '../records/save-component.js';
import { logActivities } from '../store/activity.js';
import { recordComponentHistories } from '../store/history.js';
import { DATA_COLUMNS, type MatrixTable } from '../store/matrix-tables.js';
import { checkedTable, componentItems, lastItemId, type MatrixRow } from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';
import { importActivity } from './import-activity.js';
import { ChangeRefused, type ChangeRow, noHooks, withoutIds } from './import-write-row.js';

/** A row the bulk path may take: it creates its record and every change is a plain value. */
export interface BulkRow {
  line: number;
  row: ChangeRow;
  now: Date;
}

export type BulkOutcome =
  | { line: number; created: RecordKey }
  | { line: number; refused: unknown; tipo?: string };

/** The run cannot be written in bulk (a new record carries a live lock): redo it row by row. */
export class BulkFallBack extends Error {}

const INVERSE_MODELS = new Set(['component_relation_parent', 'component_relation_children']);

/**
 * Whether a section's new records may take the bulk path: no computed component (its observer
 * rewrites it after each save), no parent/children component (saving one writes the target
 * records), not a user or profile section (the rights ceiling judges every account written).
 */
export function bulkSection(ontology: Ontology, sectionTipo: string): boolean {
  if (isAccountSection(sectionTipo)) return false;
  return ontology
    .sectionComponents(sectionTipo)
    .every((node) => !INVERSE_MODELS.has(node.model) && !componentSpec(ontology, node).computed);
}

/** Whether a row is one the bulk path writes (given that its id, if any, names no record). */
export function bulkRow(row: ChangeRow): boolean {
  return row.changes.every((c) => c.kind === 'set_data' || c.kind === 'clear');
}

/** One step of a row's writes, in the order the per-row path would meet it. */
type Step =
  | { tipo: string; error: unknown }
  | { tipo: string; spec: ComponentSpec; targets: Locator[] }
  | {
      tipo: string;
      spec: ComponentSpec;
      /** The values the unique query would look for (comparedValues: trimmed). */
      unique: (string | number)[];
      /** What a later row's query would find stored: each text as btrim() leaves it. */
      held: (string | number)[];
    };

interface Prepared {
  line: number;
  now: Date;
  sectionId?: number;
  record: MatrixRow;
  steps: Step[];
  /** The components written, in order: their history rows and activity rows. */
  writes: { spec: ComponentSpec; lang: string; items: unknown[] }[];
  /** Refused before any component (the create right). */
  refused?: unknown;
}

export interface BulkContext {
  ontology: Ontology;
  access: UserAccess;
  sectionTipo: string;
  table: MatrixTable;
  /** The run's id: each record's activity row names it. */
  importId: number | null;
}

/** The record as create-record.ts inserts it (its project filter only), in memory. */
function newRecord(ctx: BulkContext, now: Date): MatrixRow {
  const filter = projectFilterOf(ctx.ontology, ctx.sectionTipo);
  return {
    section_tipo: ctx.sectionTipo,
    section_id: 0,
    string: {},
    relation: filter ? { [filter.tipo]: creatorProjectFilter(filter.tipo, ctx.access.projectIds) } : {},
    date: {},
    number: {},
    media: {},
    misc: {},
    meta: {},
    versions: {},
    created_at: now.toISOString(),
    created_by: ctx.access.userId,
    modified_at: null,
    modified_by: null,
  } as unknown as MatrixRow;
}

/** Runs a check once for the run: its refusal (or undefined) is every row's. */
function memo(cache: Map<string, unknown>, key: string, check: () => void): unknown {
  if (!cache.has(key)) {
    try {
      check();
      cache.set(key, undefined);
    } catch (error) {
      cache.set(key, error);
    }
  }
  return cache.get(key);
}

/** What the per-row path would do with the row, computed in memory (writeChangeRow's loop). */
async function prepare(ctx: BulkContext, rights: Map<string, unknown>, input: BulkRow): Promise<Prepared> {
  const { access, sectionTipo } = ctx;
  const record = newRecord(ctx, input.now);
  const prepared: Prepared = {
    line: input.line,
    now: input.now,
    ...(input.row.sectionId !== undefined && input.row.action !== 'create'
      ? { sectionId: input.row.sectionId }
      : {}),
    record,
    steps: [],
    writes: [],
  };
  const createRefusal = memo(rights, '\u0000create', () => assertCan(access, 'create', sectionTipo));
  if (createRefusal) return { ...prepared, refused: createRefusal };
  const allowed = isGlobalAdmin(access) ? undefined : access.projectIds;
  for (const change of input.row.changes) {
    // An emptied cell: every language the new record holds (only its project filter holds any;
    // media and stored columns hold nothing yet), as import-write-row.ts's setDataOf.
    if (change.kind === 'clear' && (change.column === 'media' || change.column === 'misc')) continue;
    const values =
      change.kind === 'set_data'
        ? [{ lang: change.lang, value: change.value }]
        : change.kind === 'clear'
          ? [
              ...new Set(
                (componentItems(record, change.column, change.tipo) as { lang?: unknown }[]).map((i) =>
                  typeof i?.lang === 'string' ? i.lang : NO_LANG,
                ),
              ),
            ].map((lang) => ({ lang, value: [] as unknown[] }))
          : undefined;
    if (!values) throw new Error('the bulk path takes plain values and emptied cells only');
    for (const { lang, value } of values) {
      if (!(await prepareValue(ctx, rights, prepared, change.tipo, lang, value, allowed))) return prepared;
    }
  }
  return prepared;
}

/** One value of a row (writeChangeRow's inner loop); false when it refused the row. */
async function prepareValue(
  ctx: BulkContext,
  rights: Map<string, unknown>,
  prepared: Prepared,
  tipo: string,
  lang: string,
  value: unknown[],
  allowed: readonly number[] | undefined,
): Promise<boolean> {
  const { ontology, access, sectionTipo } = ctx;
  const { record } = prepared;
  const step = (error: unknown) => prepared.steps.push({ tipo, error });
  const spec = componentSpec(ontology, ontology.node(tipo)!);
  const changes: ChangeObject[] = [{ action: 'set_data', value }];
  const before = componentItems(record, spec.column, spec.tipo);
  let applied: Awaited<ReturnType<typeof applyChanges>>;
  try {
    applied = await applyChanges(
      spec,
      ontology,
      { items: before, lastId: lastItemId(record, spec.tipo) },
      changes,
      lang,
      noHooks,
    );
  } catch (error) {
    step(error);
    return false;
  }
  const slice = (items: readonly unknown[]) =>
    spec.translatable ? items.filter((i) => (i as { lang?: unknown })?.lang === lang) : items;
  if (withoutIds(slice(applied.items)) === withoutIds(slice(before))) return true;
  const denied = memo(rights, spec.tipo, () => {
    assertCan(access, 'save', sectionTipo, spec.tipo);
    assertMayWriteComponent(access, sectionTipo, spec.tipo);
  });
  if (denied) {
    step(denied);
    return false;
  }
  if (spec.kind === 'relation') {
    try {
      // The record's own key is not known yet: it matters only to parent/children components,
      // which keep a section off this path.
      const added = checkedAddedLocators(
        ontology,
        spec,
        { section_tipo: sectionTipo, section_id: 0 },
        before,
        applied.items,
        allowed,
      );
      if (added.length > 0) prepared.steps.push({ tipo: spec.tipo, spec, targets: added });
    } catch (error) {
      step(error);
      return false;
    }
  }
  try {
    assertMandatoryFilled(ontology, spec, applied.items);
  } catch (error) {
    step(error);
    return false;
  }
  if (isUniqueChecked(ontology, spec)) {
    const values = comparedValues(spec, applied.items);
    // btrim() trims spaces only; comparedValues trims every blank (the query's two sides).
    const held = applied.items.flatMap((i): (string | number)[] => {
      const v = (i as { value?: unknown } | null)?.value;
      if (spec.kind === 'text' && typeof v === 'string') return [v.replace(/^ +| +$/g, '')];
      if (spec.kind === 'number' && typeof v === 'number' && Number.isFinite(v)) return [v];
      return [];
    });
    if (values.length > 0) prepared.steps.push({ tipo: spec.tipo, spec, unique: values, held });
  }
  record[spec.column] = { ...record[spec.column], [spec.tipo]: [...applied.items] };
  record.meta = { ...record.meta, [spec.tipo]: applied.lastId };
  prepared.writes.push({ spec, lang, items: applied.items });
  return true;
}

/** A unique value as the database compares it: lower() of an already trimmed text, or numeric. */
const uniqueKey = (spec: ComponentSpec, value: string | number) =>
  spec.kind === 'number' ? `n${Number(value)}` : `t${String(value).toLowerCase()}`;

/** The counter as allocateSectionId and moveCounterPast would leave it, simulated for the run. */
class Counter {
  constructor(
    private value: number | null,
    private highest: number,
  ) {}
  /** The id a row takes (its own, or the next), without moving anything yet. */
  peek(sectionId: number | undefined): number {
    if (sectionId !== undefined) return sectionId;
    return (this.value ?? this.highest) + 1;
  }
  take(sectionId: number | undefined): number {
    const id = this.peek(sectionId);
    this.highest = Math.max(this.highest, id);
    this.value = sectionId === undefined ? id : Math.max(this.value ?? this.highest, this.highest);
    return id;
  }
  get current(): number | null {
    return this.value;
  }
}

/** The JSON columns of a record as the per-row path leaves them (emptied components removed). */
function stored(record: MatrixRow) {
  const out: Record<string, unknown> = {};
  for (const column of DATA_COLUMNS) {
    out[column] = Object.fromEntries(
      Object.entries(record[column] ?? {}).filter(
        ([, items]) => !(Array.isArray(items) && items.length === 0),
      ),
    );
  }
  return out;
}

/**
 * Writes a run of rows that create records; answers each row's outcome in order. Throws
 * BulkFallBack (or a database error) with nothing written: the caller's savepoint rolls back and
 * it redoes the run row by row.
 */
export async function writeCreateRun(
  tx: SqlQueryable,
  ctx: BulkContext,
  rows: readonly BulkRow[],
): Promise<BulkOutcome[]> {
  const { ontology, access, sectionTipo } = ctx;
  const table = checkedTable(ctx.table);
  const rights = new Map<string, unknown>();
  const prepared: Prepared[] = [];
  for (const row of rows) prepared.push(await prepare(ctx, rights, row));

  // The link targets of the whole run: one statement per table.
  const byTable = new Map<MatrixTable, Map<string, Locator>>();
  for (const p of prepared) {
    for (const s of p.steps) {
      if (!('targets' in s)) continue;
      for (const l of s.targets) {
        const t = ontology.tableOf(l.section_tipo);
        if (!t) continue;
        const m = byTable.get(checkedTable(t)) ?? new Map<string, Locator>();
        m.set(targetKey(l), l);
        byTable.set(checkedTable(t), m);
      }
    }
  }
  const existing = new Set<string>();
  for (const [t, list] of byTable) {
    const locators = [...list.values()];
    const { rows: found } = await tx.query<{ section_tipo: string; section_id: number }>(
      `SELECT t.section_tipo, t.section_id FROM ${t} t
       JOIN unnest($1::text[], $2::integer[]) AS w(section_tipo, section_id)
         ON t.section_tipo = w.section_tipo AND t.section_id = w.section_id`,
      [locators.map((l) => l.section_tipo), locators.map((l) => Number(l.section_id))],
    );
    for (const r of found) existing.add(targetKey(r));
  }

  // The holders of the run's unique values: one statement per component, under its lock.
  const holders = new Map<string, Map<string, { section_id: number; value: string }>>();
  const uniqueSpecs = new Map<string, { spec: ComponentSpec; values: Set<string | number> }>();
  for (const p of prepared) {
    for (const s of p.steps) {
      if (!('unique' in s)) continue;
      const u = uniqueSpecs.get(s.tipo) ?? { spec: s.spec, values: new Set() };
      for (const v of s.unique) u.values.add(v);
      uniqueSpecs.set(s.tipo, u);
    }
  }
  for (const [tipo, { spec, values }] of uniqueSpecs) {
    await lockUniqueComponent(tx, sectionTipo, tipo);
    const found = await holdersOfValues(
      tx,
      ctx.table,
      { section_tipo: sectionTipo, section_id: -2147483648 },
      spec,
      [...values],
    );
    const first = new Map<string, { section_id: number; value: string }>();
    for (const h of found) {
      const k = uniqueKey(spec, h.value);
      if (!first.has(k)) first.set(k, h);
    }
    holders.set(tipo, first);
  }

  // The counter, locked until the transaction ends, as the per-row path's upsert locks it.
  const { rows: counterRows } = await tx.query<{ value: number }>(
    'SELECT value FROM matrix_counter WHERE section_tipo = $1 FOR UPDATE',
    [sectionTipo],
  );
  const { rows: maxRows } = await tx.query<{ max: number }>(
    `SELECT COALESCE(max(section_id), 0) AS max FROM ${table} WHERE section_tipo = $1`,
    [sectionTipo],
  );
  const counter = new Counter(
    counterRows[0] ? Number(counterRows[0].value) : null,
    Number(maxRows[0]?.max ?? 0),
  );

  // Row by row, in order: the database checks, then the id (a refused row takes none).
  const created = new Set<string>();
  const outcomes: BulkOutcome[] = [];
  const accepted: (Prepared & { key: RecordKey })[] = [];
  for (const p of prepared) {
    if (p.refused !== undefined) {
      outcomes.push({ line: p.line, refused: p.refused });
      continue;
    }
    const id = counter.peek(p.sectionId);
    const self = targetKey({ section_tipo: sectionTipo, section_id: id });
    let refusal: { tipo: string; error: unknown } | undefined;
    for (const s of p.steps) {
      if ('error' in s) {
        refusal = { tipo: s.tipo, error: s.error };
        break;
      }
      if ('targets' in s) {
        const missing = s.targets.find((l) => {
          const k = targetKey(l);
          return !existing.has(k) && !created.has(k) && k !== self;
        });
        if (missing) {
          refusal = { tipo: s.tipo, error: missingTargetError(s.spec, missing) };
          break;
        }
        continue;
      }
      const held = holders.get(s.tipo)!;
      let best: { section_id: number; value: string } | undefined;
      for (const v of s.unique) {
        const h = held.get(uniqueKey(s.spec, v));
        if (h && h.section_id !== id && (!best || h.section_id < best.section_id)) best = h;
      }
      if (best) {
        refusal = {
          tipo: s.tipo,
          error: duplicateValueError(ontology, s.spec, sectionTipo, best.section_id, best.value),
        };
        break;
      }
    }
    if (refusal) {
      outcomes.push({
        line: p.line,
        refused: new ChangeRefused(refusal.tipo, refusal.error),
        tipo: refusal.tipo,
      });
      continue;
    }
    counter.take(p.sectionId);
    created.add(self);
    for (const s of p.steps) {
      if (!('unique' in s)) continue;
      const held = holders.get(s.tipo)!;
      for (const v of s.held) {
        const k = uniqueKey(s.spec, v);
        const h = held.get(k);
        // The per-row query answers the lowest id holding the value.
        if (!h || id < h.section_id) held.set(k, { section_id: id, value: String(v) });
      }
    }
    accepted.push({ ...p, key: { section_tipo: sectionTipo, section_id: id } });
    outcomes.push({ line: p.line, created: { section_tipo: sectionTipo, section_id: id } });
  }
  if (accepted.length === 0) return outcomes;

  // A lock naming a record before it exists is refused by the per-row path: redo the run so.
  const locked = await recordsLockedByOthers(
    tx,
    sectionTipo,
    accepted.map((a) => a.key.section_id),
    access.userId,
    accepted[0]!.now,
  );
  if (locked.size > 0) throw new BulkFallBack(`${locked.size} new records are locked`);

  // History rows, in the per-row path's order; each component's version is its last one.
  const history = accepted.flatMap((a) =>
    a.writes.map((w) => ({
      key: a.key,
      tipo: w.spec.tipo,
      lang: w.lang,
      items: historyItems(w.spec, w.items),
      userId: access.userId,
      when: a.now,
    })),
  );
  const ids = await recordComponentHistories(tx, history);
  let next = 0;
  const records = accepted.map((a) => {
    const versions: Record<string, number> = {};
    for (const w of a.writes) versions[w.spec.tipo] = ids[next++]!;
    const written = a.writes.length > 0;
    return [
      a.key.section_id,
      stored(a.record),
      a.record.meta,
      versions,
      a.now.toISOString(),
      written ? a.now.toISOString() : null,
      written ? access.userId : null,
    ];
  });
  const { rowCount } = await tx.query(
    `INSERT INTO ${table}
       (section_tipo, section_id, string, relation, date, number, media, misc, meta, versions,
        created_by, created_at, modified_at, modified_by)
     SELECT $1, (r->>0)::integer, r->1->'string', r->1->'relation', r->1->'date', r->1->'number',
       r->1->'media', r->1->'misc', r->2, r->3, $2, (r->>4)::timestamptz, (r->>5)::timestamptz,
       (r->>6)::integer
     FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(r, n)
     ORDER BY n
     ON CONFLICT (section_tipo, section_id) DO NOTHING`,
    [sectionTipo, access.userId, JSON.stringify(records)],
  );
  // A record created meanwhile by another transaction: the per-row path refuses that row.
  if (rowCount !== accepted.length) throw new BulkFallBack('a record of the run exists already');

  // One activity row per record, as the per-row path writes it.
  await logActivities(
    tx,
    accepted.map((a) =>
      importActivity({
        userId: access.userId,
        sectionTipo,
        sectionId: a.key.section_id,
        created: true,
        components: a.writes.map((w) => w.spec.tipo),
        importId: ctx.importId,
        when: a.now,
      }),
    ),
  );
  if (counter.current !== null) {
    await tx.query(
      `INSERT INTO matrix_counter (section_tipo, value) VALUES ($1, $2)
       ON CONFLICT (section_tipo) DO UPDATE SET value = EXCLUDED.value`,
      [sectionTipo, counter.current],
    );
  }
  return outcomes;
}
