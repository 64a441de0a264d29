/**
 * Resolves relation cells of a page of rows into the rows they refer to (resolve_relations and
 * resolve_inverse_relations), replacing each resolved cell with an array of target rows in the
 * cell's order. Targets that do not exist are skipped; a NULL cell stays NULL.
 *
 * Cost is bounded by the shape of the request, never by the number of rows: the ids of one
 * relation key are collected across the whole page (or, for a nested key, across every row its
 * parent produced) and read with one `IN` statement per target table (more only past
 * IDS_PER_STATEMENT ids), then distributed back to the cells. Target rows are decoded like
 * records (JSON cells parsed) and, when the request has `lang` and the target table is
 * multilingual, narrowed to that language; otherwise every variant comes back, ordered by lang.
 *
 * Used by the records routes; the search route can call resolveRowRelations the same way.
 */
import type { ColumnInfo, Condition, DatabaseSchema, Row, SqlValue, TableInfo } from '../db/types.js';
import { invalidQuery } from '../problems.js';
import { BOUNDS } from '../query/bounds.js';
import {
  DD_RELATIONS,
  type InverseRelations,
  inverseColumns,
  RESOLVE_INVERSE,
  RESOLVE_RELATIONS,
  type RelationKey,
  type RelationRequest,
} from '../query/relation-params.js';
import { withStableOrder } from '../query/sort-and-fields.js';
import { decodeRows, parseJsonText } from './cell-values.js';
import type { PublicationContext } from './context.js';
import {
  cellEntries,
  entryLink,
  entryLocator,
  entryValue,
  isLinkCell,
  type MatchKey,
  matchKey,
  storedKey,
} from './relation-cells.js';

/** Keeps each statement's bound-parameter list far below both engines' placeholder limits. */
const IDS_PER_STATEMENT = 1000;
const MAX_MATCHES = BOUNDS.relations.maxRowsPerValue;

export interface RelationOptions {
  relations?: RelationRequest;
  /** The request's language: narrows resolved rows of multilingual targets. */
  lang?: string;
}

/** One value of a cell, aimed at one column of one table. */
interface Ref {
  table: TableInfo;
  column: ColumnInfo;
  key: MatchKey;
}

/** A cell to replace: its refs in stored order, or null to leave a NULL cell alone. */
interface CellPlan {
  row: Row;
  column: string;
  refs: Ref[] | null;
}

interface Resolver {
  ctx: PublicationContext;
  db: string;
  schema: DatabaseSchema;
  lang?: string;
}

/** The ref for `value` matched against `columnName` of `tableName`, if both still exist. */
function refTo(
  schema: DatabaseSchema,
  tableName: string,
  columnName: string,
  value: unknown,
): Ref | undefined {
  const table = schema.tables.get(tableName);
  const column = table?.columnsByName.get(columnName);
  if (!table || !column) return undefined;
  const key = matchKey(value, column.kind);
  return key && { table, column, key };
}

/**
 * The cells of `column` to replace. A cell holding plain text that is no id of the target (a
 * file name such as `plain-string.jpg`, not JSON) is no relation: it is left as it is rather than
 * replaced by an empty list, which would lose the data.
 */
function planCells(rows: Row[], column: string, toRef: (entry: unknown) => Ref | undefined): CellPlan[] {
  const plans: CellPlan[] = [];
  for (const row of rows) {
    if (!(column in row)) continue;
    const cell = row[column];
    const entries = cellEntries(cell);
    const refs = entries === null ? null : entries.map(toRef).filter((r): r is Ref => r !== undefined);
    if (refs?.length === 0 && typeof cell === 'string' && parseJsonText(cell) === cell) continue;
    plans.push({ row, column, refs });
  }
  return plans;
}

function tooManyMatches(param: string, ref: Ref): never {
  throw invalidQuery(
    param,
    `${param}: a value matches more than ${MAX_MATCHES} rows of ${ref.table.name}.${ref.column.name}; ` +
      'resolve against a column that identifies one record (such as section_id)',
  );
}

/** Reads the target rows of one (table, column) for the given keys; returns them by key. */
async function fetchByKeys(
  r: Resolver,
  param: string,
  first: Ref,
  keys: Map<string, SqlValue>,
): Promise<Map<string, Row[]>> {
  const { table, column } = first;
  const narrow: Condition[] = r.lang && table.hasLang ? [{ column: 'lang', op: 'eq', value: r.lang }] : [];
  const values = [...keys.values()];
  const chunks: SqlValue[][] = [];
  for (let i = 0; i < values.length; i += IDS_PER_STATEMENT)
    chunks.push(values.slice(i, i + IDS_PER_STATEMENT));
  const results = await Promise.all(
    chunks.map(async (chunk) => {
      // The limit stops a non-selective table.column target from loading a whole table.
      const limit = chunk.length * MAX_MATCHES;
      const rows = await r.ctx.driver.select(r.db, {
        table: table.name,
        columns: table.columns.map((c) => c.name),
        where: [{ column: column.name, op: 'in', value: chunk }, ...narrow],
        orderBy: withStableOrder([], table),
        limit: limit + 1,
      });
      if (rows.length > limit) tooManyMatches(param, first);
      return rows;
    }),
  );
  const byKey = new Map<string, Row[]>();
  for (const row of decodeRows(results.flat(), table)) {
    const key = storedKey(row[column.name], column.kind);
    if (key === undefined) continue;
    const list = byKey.get(key);
    if (list) list.push(row);
    else byKey.set(key, [row]);
  }
  for (const list of byKey.values()) if (list.length > MAX_MATCHES) tooManyMatches(param, first);
  return byKey;
}

/**
 * Replaces the planned cells with their target rows: one read per distinct (table, column)
 * across all plans. Returns every row read, the sources of nested keys.
 */
async function resolvePlans(r: Resolver, param: string, plans: CellPlan[]): Promise<Row[]> {
  const groups = new Map<string, { first: Ref; keys: Map<string, SqlValue> }>();
  const groupOf = (ref: Ref) => `${ref.table.name}\u0000${ref.column.name}`;
  for (const plan of plans) {
    for (const ref of plan.refs ?? []) {
      const id = groupOf(ref);
      const group = groups.get(id) ?? { first: ref, keys: new Map<string, SqlValue>() };
      groups.set(id, group);
      group.keys.set(ref.key.key, ref.key.bind);
    }
  }
  const fetched = new Map<string, Map<string, Row[]>>();
  await Promise.all(
    [...groups].map(async ([id, g]) => fetched.set(id, await fetchByKeys(r, param, g.first, g.keys))),
  );
  for (const plan of plans) {
    const { refs } = plan;
    plan.row[plan.column] =
      refs === null ? null : refs.flatMap((ref) => fetched.get(groupOf(ref))?.get(ref.key.key) ?? []);
  }
  return [...fetched.values()].flatMap((byKey) => [...byKey.values()].flat());
}

function linkRef(schema: DatabaseSchema) {
  return (entry: unknown): Ref | undefined => {
    const link = entryLink(entry);
    // A link to a table this database lacks is skipped like any other missing target.
    return link && refTo(schema, link.table, 'section_id', link.value);
  };
}

function keyRefs(r: Resolver, key: RelationKey): (entry: unknown) => Ref | undefined {
  const { target } = key;
  if (target.kind === 'links') return linkRef(r.schema);
  return (entry) => refTo(r.schema, target.table, target.column, entryValue(entry));
}

async function resolveForward(
  r: Resolver,
  table: TableInfo,
  rows: Row[],
  request: RelationRequest,
): Promise<void> {
  const forward = request.forward;
  if (!forward) return;
  if (forward.mode === 'auto') {
    // Bare `auto`: every column of the page with at least one link cell; inverse columns hold
    // locators, not links, and are left to inverse resolution.
    const skip = new Set(request.inverse ? inverseColumns(request.inverse) : []);
    const columns = table.columns
      .filter((c) => c.kind === 'text' && !skip.has(c.name))
      .map((c) => c.name)
      .filter((c) => rows.some((row) => c in row && isLinkCell(row[c])));
    await Promise.all(
      columns.map((c) => resolvePlans(r, RESOLVE_RELATIONS, planCells(rows, c, linkRef(r.schema)))),
    );
    return;
  }
  // Level by level: a nested key reads the rows its parent produced, so parents finish first.
  const produced = new Map<string, Row[]>();
  for (let depth = 1; depth <= BOUNDS.relations.maxDepth; depth++) {
    const level = forward.keys.filter((k) => k.depth === depth);
    await Promise.all(
      level.map(async (k) => {
        const sources = k.parent === undefined ? rows : (produced.get(k.parent) ?? []);
        produced.set(
          k.key,
          await resolvePlans(r, RESOLVE_RELATIONS, planCells(sources, k.column, keyRefs(r, k))),
        );
      }),
    );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * publication_schema's section_tipo -> table map. Its absence or damage is reported as a 400 on
 * the parameter (the client asked for `true`, and can pass the map itself instead), never a 500.
 */
async function schemaTipoMap(r: Resolver): Promise<Map<string, string>> {
  const fail = (why: string) =>
    invalidQuery(
      RESOLVE_INVERSE,
      `${RESOLVE_INVERSE}=true reads the ${DD_RELATIONS} map of publication_schema (row id 1, column data) ` +
        `in database "${r.db}", but ${why}; pass a JSON object such as {"oh1":"interview"} instead`,
    );
  const table = r.schema.tables.get('publication_schema');
  if (!table?.columnsByName.has('id') || !table.columnsByName.has('data')) {
    throw fail('that table (with columns id and data) does not exist');
  }
  const rows = await r.ctx.driver.select(r.db, {
    table: table.name,
    columns: ['data'],
    where: [{ column: 'id', op: 'eq', value: 1 }],
    orderBy: [],
    limit: 1,
  });
  if (rows.length === 0) throw fail('it has no row with id 1');
  let data = rows[0]!.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      throw fail('its data is not valid JSON');
    }
  }
  if (!isObject(data)) throw fail('its data is not a JSON object');
  const map = data[DD_RELATIONS];
  if (!isObject(map)) throw fail(`its data has no "${DD_RELATIONS}" object`);
  // Entries naming no table (or a table this database lacks) simply resolve nothing.
  return new Map(Object.entries(map).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

async function resolveInverse(r: Resolver, rows: Row[], inverse: InverseRelations): Promise<void> {
  const byTipo = inverse.mode === 'schema' ? await schemaTipoMap(r) : inverse.byTipo;
  const byColumn = inverse.mode === 'schema' ? new Map<string, string>() : inverse.byColumn;
  const plans = inverseColumns(inverse).flatMap((column) => {
    const fixed = byColumn.get(column);
    return planCells(rows, column, (entry) => {
      const locator = entryLocator(entry);
      // A column key sends every locator of its column to one table; otherwise the tipo decides.
      const tableName = fixed ?? (locator.tipo === undefined ? undefined : byTipo.get(locator.tipo));
      return tableName === undefined ? undefined : refTo(r.schema, tableName, 'section_id', locator.value);
    });
  });
  // One plan set for all inverse columns: one statement per target table for the whole page.
  await resolvePlans(r, RESOLVE_INVERSE, plans);
}

/**
 * Resolves the relations `options.relations` asks for on `rows` (already decoded rows of
 * `table`), in place; returns the same array. The parameters were validated against the schema
 * by parseRelationParams; anything that vanished since is skipped, not trusted.
 */
export async function resolveRowRelations(
  ctx: PublicationContext,
  db: string,
  table: TableInfo,
  rows: Row[],
  options: RelationOptions,
): Promise<Row[]> {
  const request = options.relations;
  if (!request) return rows;
  const r: Resolver = { ctx, db, schema: await ctx.schemas.get(db), lang: options.lang };
  await Promise.all([
    resolveForward(r, table, rows, request),
    // Even an empty page reads publication_schema, so a broken one is reported the same way always.
    request.inverse ? resolveInverse(r, rows, request.inverse) : undefined,
  ]);
  return rows;
}
