/**
 * `records` (docs/publication-v1.md): the generic table query, built from the parsed fragments (sql-subset.ts)
 * into neutral SelectQuery objects and run through the request's driver, then portals and
 * relations resolved (portals.ts). Several tables are queried one by one and merged in memory
 * with the same order and paging a UNION ALL would give.
 */
import type { Condition, Expr, ExprOrder, Row, SelectQuery, TableInfo } from '../../db/types.js';
import { fragmentCondition, isPublicationFilter } from '../publication-filter.js';
import { parseCondition, parseFieldList, parseFullSelect, parseGroup, parseOrder } from '../sql-subset.js';
import { optBool, optInt, optLang, optList, optString, tableOf, type V1Call } from '../v1-call.js';
import { V1Error } from '../v1-errors.js';
import { shapeRow, type V1Row } from '../v1-rows.js';
import { resolveRows } from './portals.js';
import { applyMap, applyProcessResult } from './process-result.js';

/** One table's query, and the label its rows carry in `table`. */
interface TableQuery {
  info: TableInfo;
  query: SelectQuery;
}

export interface RecordsResult {
  rows: V1Row[];
  total: number | false;
}

function sectionIdCondition(options: V1Call['options']): Condition | undefined {
  const raw = optString(options, 'section_id');
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^[\d,\s]+$/.test(raw)) throw new V1Error('Error on sql request. Illegal section_id (1)');
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(Number);
  return { column: 'section_id', op: 'in', value: ids };
}

/** `ar_fields` as one fragment: an array or JSON array is joined with commas. */
function fieldsFragment(options: V1Call['options']): string {
  const v = options.ar_fields;
  if (v === undefined || v === null || v === '' || v === false) return '*';
  if (Array.isArray(v) || (typeof v === 'string' && v.trim().startsWith('['))) {
    return (optList(options, 'ar_fields') ?? ['*']).join(', ');
  }
  if (typeof v !== 'string') throw new V1Error('Error on sql request. Illegal ar_fields (1)');
  return v;
}

function defaultOrder(info: TableInfo): ExprOrder[] {
  // Upstream orders by the autoincrement `id`; published tables without it get the record key.
  const key = ['id', 'section_id'].find((c) => info.columnsByName.has(c));
  return key ? [{ expr: { kind: 'column', name: key }, desc: false }] : [];
}

function buildTableQuery(
  call: V1Call,
  info: TableInfo,
  lang: string | undefined,
  extraFilter?: Expr,
): SelectQuery {
  const { options } = call;
  const scope = { tables: [info] };
  const fields = parseFieldList('ar_fields', fieldsFragment(options), scope);
  const aliases = new Set(fields.items.map((i) => i.as).filter((a): a is string => a !== undefined));
  const where: Condition[] = [];
  const section = sectionIdCondition(options);
  if (section) where.push(section);
  const filters: Expr[] = extraFilter ? [extraFilter] : [];
  const sqlFilter = optString(options, 'sql_filter');
  if (sqlFilter !== undefined && isPublicationFilter(call, sqlFilter)) {
    const configured = fragmentCondition('sql_filter', sqlFilter, info);
    if (configured) filters.push(configured);
  } else if (sqlFilter !== undefined && sqlFilter.trim() !== '')
    filters.push(parseCondition('sql_filter', sqlFilter, scope));
  if (lang !== undefined && info.hasLang) where.push({ column: 'lang', op: 'eq', value: lang });
  const groupText = optString(options, 'group');
  const groupBy = groupText && groupText.trim() !== '' ? parseGroup('group', groupText, scope) : undefined;
  const orderRaw = options.order;
  let order: ExprOrder[];
  if (orderRaw === null || orderRaw === '' || orderRaw === 'null') order = [];
  else if (orderRaw === undefined || orderRaw === false) order = defaultOrder(info);
  else order = parseOrder('order', optString(options, 'order') ?? '', { tables: [info], aliases });
  return {
    table: info.name,
    columns: [],
    select: fields.items,
    distinct: fields.distinct,
    where,
    filter:
      filters.length === 0 ? undefined : filters.length === 1 ? filters[0] : { kind: 'and', items: filters },
    groupBy,
    orderBy: [],
    order,
  };
}

/** Compares two rows on the order's plain columns (multi-table merge); other terms tie. */
function compareRows(order: ExprOrder[], a: Row, b: Row): number {
  for (const o of order) {
    if (o.expr.kind !== 'column' && o.expr.kind !== 'alias') continue;
    const x = a[o.expr.name];
    const y = b[o.expr.name];
    if (x === y) continue;
    if (x === null || x === undefined) return o.desc ? 1 : -1;
    if (y === null || y === undefined) return o.desc ? -1 : 1;
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    if (c !== 0) return o.desc ? -c : c;
  }
  return 0;
}

/** Runs the query part of `records`: rows shaped, `total` when asked. */
export async function queryRecords(call: V1Call): Promise<RecordsResult> {
  const { ctx, db, options, v1 } = call;
  const lang = optLang(options);
  const limit = optInt(options, 'limit', 0);
  const offset = limit > 0 ? optInt(options, 'offset', 0) : 0;
  const count = optBool(options, 'count', false);
  const fullselect = optString(options, 'sql_fullselect');
  const tableNames = optList(options, 'table') ?? [];
  const tableLabel = typeof options.table === 'string' ? options.table : tableNames.join(',');

  const queries: TableQuery[] = [];
  if (fullselect !== undefined && fullselect.trim() !== '') {
    const schema = await ctx.schemas.get(db);
    const parsed = parseFullSelect('sql_fullselect', fullselect, (t) => schema.tables.get(t));
    const q = buildTableQuery(
      { ...call, options: { ...options, ar_fields: '*' } },
      parsed.table,
      lang,
      parsed.where,
    );
    q.select = parsed.fields.items;
    q.distinct = parsed.fields.distinct;
    queries.push({ info: parsed.table, query: q });
  } else {
    if (tableNames.length === 0) throw new V1Error('Empty options->table ');
    for (const name of tableNames) {
      const info = await tableOf(call, name);
      queries.push({ info, query: buildTableQuery(call, info, lang) });
    }
  }
  const label = fullselect ? tableLabel || queries[0]!.info.name : tableLabel;

  let rows: Row[];
  let total: number | false = false;
  if (queries.length === 1) {
    const { query } = queries[0]!;
    const paged = { ...query, limit: limit > 0 ? limit : undefined, offset: limit > 0 ? offset : undefined };
    [rows, total] = await Promise.all([
      ctx.driver.select(db, paged),
      count ? ctx.driver.count(db, query) : Promise.resolve(false as const),
    ]);
  } else {
    const parts = await Promise.all(
      queries.map(({ query }) =>
        ctx.driver.select(db, { ...query, limit: limit > 0 ? limit + offset : undefined }),
      ),
    );
    const order = queries[0]!.query.order ?? [];
    rows = parts.flat();
    if (order.length > 0) rows.sort((a, b) => compareRows(order, a, b));
    if (limit > 0) rows = rows.slice(offset, offset + limit);
    if (count) {
      const counts = await Promise.all(queries.map(({ query }) => ctx.driver.count(db, query)));
      total = counts.reduce((a, b) => a + b, 0);
    }
  }
  return { rows: rows.map((r) => shapeRow(label, r, v1.numbersAsStrings)), total };
}

/** The whole `records` action: query, resolve, post-process, envelope. */
export async function recordsAction(call: V1Call): Promise<unknown> {
  const started = performance.now();
  const { rows, total } = await queryRecords(call);
  const resolved = await resolveRows(call, rows);
  const tables = optList(call.options, 'table') ?? [];
  await applyMap(call, resolved, tables);
  const result = await applyProcessResult(call, resolved, tables[0] ?? '');
  const debug: Record<string, unknown> = {
    total_time: Number(((performance.now() - started) / 1000).toFixed(4)),
  };
  return { result, total, msg: 'OK get rows_data done. Ok exec_query done', debug };
}
