/**
 * `map` and `process_result` of `records` (docs/publication-v1.md). `map` supports its one function,
 * `resolve_geolocation` (the ts_term objects of the term ids in a column). `process_result`
 * permits only the five named functions (upstream called any class's static method of that
 * name, docs/publication-v1.md), and serves all five. The original v1 service gives only the outline of three of them;
 * the decisions taken where it is silent are written at each function and in docs/publication-v1.md.
 */
import type { Condition, SqlValue } from '../../db/types.js';
import { optLang, optObject, optObjectList, tableOf, type V1Call } from '../v1-call.js';
import { V1Error } from '../v1-errors.js';
import { relationId, relationItems, shapeRow, type V1Row } from '../v1-rows.js';
import { readLocator } from './av.js';
import { fragmentOf, loadAvRecord } from './av-record.js';
import { termRow, tsTerms } from './thesaurus.js';

export const PROCESS_RESULT_FUNCTIONS = [
  'add_parents_and_children_recursive',
  'add_parents_or_children',
  'break_down_totals',
  'sum_totals',
  'resolve_indexation_fragments',
] as const;

const termIdsOf = (value: unknown): string[] =>
  relationItems(value)
    .map((v) =>
      typeof v === 'string'
        ? v
        : typeof v === 'object' && v !== null && 'term_id' in v
          ? String(v.term_id)
          : '',
    )
    .filter((id) => /^[A-Za-z][A-Za-z0-9]*_\d+$/.test(id));

export async function applyMap(call: V1Call, rows: V1Row[], queried: string[]): Promise<void> {
  const entries = optObjectList(call.options, 'map');
  if (!entries) return;
  const lang = optLang(call.options) ?? call.lang;
  for (const entry of entries) {
    const { table, field, function: fn, output_field: output } = entry as Record<string, unknown>;
    if (fn !== 'resolve_geolocation') throw new V1Error(`Error. map function not allowed: ${String(fn)}`);
    if (typeof field !== 'string' || typeof output !== 'string')
      throw new V1Error('Error. map needs field and output_field');
    if (typeof table === 'string' && !queried.includes(table)) continue;
    for (const row of rows) {
      const terms = [];
      for (const id of termIdsOf(row[field])) {
        const found = await termRow(call, id, lang);
        if (found?.row) terms.push(...(await tsTerms(call, found.info, [found.row], lang)));
      }
      row[output] = terms;
    }
  }
}

export async function applyProcessResult(call: V1Call, rows: V1Row[], table: string): Promise<V1Row[]> {
  const spec = optObject(call.options, 'process_result');
  if (spec === undefined) return rows;
  const fn = typeof spec.fn === 'string' ? spec.fn.replace(/^process_result::/, '') : '';
  if (!(PROCESS_RESULT_FUNCTIONS as readonly string[]).includes(fn)) {
    throw new V1Error(`Error. process_result function not allowed: ${fn || '(none)'}`);
  }
  switch (fn) {
    case 'add_parents_or_children':
      return addReferenced(call, rows, table, stringList(spec.columns_name), false);
    case 'add_parents_and_children_recursive':
      return addReferenced(call, rows, table, columnNames(spec.columns), true);
    case 'break_down_totals':
      return breakDownTotals(rows, spec);
    case 'sum_totals':
      return sumTotals(rows);
    default:
      return resolveIndexationFragments(call, rows, spec);
  }
}

const stringList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string') : [];

/** `columns: [{name}]` (the documented shape) or plain names. */
const columnNames = (v: unknown): string[] =>
  Array.isArray(v)
    ? v
        .map((c) =>
          typeof c === 'string' ? c : c !== null && typeof c === 'object' && 'name' in c ? c.name : undefined,
        )
        .filter((c): c is string => typeof c === 'string')
    : [];

/** Most rows one expansion may add: a cycle-free tree of this size is already a whole thesaurus. */
export const MAX_ADDED_ROWS = 10_000;

/**
 * Appends the rows of the same table that the `columns` point at, once each. Recursive: the
 * added rows' columns are followed in turn until nothing new turns up, so with `parent` and
 * `children` (each row names both its parent and its children, as every published thesaurus
 * does) the answer gains every ancestor and every descendant of the returned rows. Cycles end
 * because a row is fetched once; more than MAX_ADDED_ROWS added rows is refused.
 */
async function addReferenced(
  call: V1Call,
  rows: V1Row[],
  table: string,
  columns: string[],
  recursive: boolean,
): Promise<V1Row[]> {
  const info = await tableOf(call, table);
  for (const column of columns) {
    if (!info.columnsByName.has(column))
      throw new V1Error(`Error. process_result: unknown column ${column} in ${info.name}`);
  }
  const lang = optLang(call.options);
  // A column may point by section_id (locators, ids) or by term_id (`parent` of a thesaurus).
  const byTermId = info.columnsByName.has('term_id');
  const rowKey = (r: Record<string, unknown>) => `${String(r.section_id)}|${String(r.lang ?? '')}`;
  const inAnswer = new Set(rows.map(rowKey));
  const asked = new Set(rows.flatMap((r) => [String(r.section_id), String(r.term_id ?? '')]));
  const out = [...rows];
  let frontier = rows;
  while (frontier.length > 0) {
    const ids: number[] = [];
    const termIds: string[] = [];
    for (const row of frontier) {
      for (const column of columns) {
        for (const id of relationItems(row[column]).map(relationId)) {
          if (!id || asked.has(id)) continue;
          if (/^\d+$/.test(id)) ids.push(Number(id));
          else if (byTermId && /^[A-Za-z][A-Za-z0-9]*_\d+$/.test(id)) termIds.push(id);
          else continue;
          asked.add(id);
        }
      }
    }
    if (ids.length + termIds.length === 0) break;
    if (out.length - rows.length + ids.length + termIds.length > MAX_ADDED_ROWS)
      throw new V1Error(`Error. process_result would add more than ${MAX_ADDED_ROWS} rows`);
    frontier = [];
    const lookups: [string, SqlValue[]][] = [
      ['section_id', ids],
      ['term_id', termIds],
    ];
    for (const [column, values] of lookups) {
      if (values.length === 0) continue;
      const where: Condition[] = [{ column, op: 'in', value: values }];
      if (lang && info.hasLang) where.push({ column: 'lang', op: 'eq', value: lang });
      const found = await call.ctx.driver.select(call.db, {
        table: info.name,
        columns: info.columns.map((c) => c.name),
        where,
        orderBy: [{ column: 'section_id', desc: false }],
      });
      for (const r of found) {
        // A row named by section_id in one row and by term_id in another comes once.
        if (inAnswer.has(rowKey(r))) continue;
        inAnswer.add(rowKey(r));
        if (r.term_id) asked.add(String(r.term_id));
        frontier.push(shapeRow(info.name, r, call.v1.numbersAsStrings));
      }
    }
    out.push(...frontier);
    if (!recursive) break;
  }
  return out;
}

const toNumber = (v: unknown): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : 0;
};

/**
 * break_down_totals: rows whose `base_column` holds several values joined by `separator`
 * ("Girona | Lleida", as a GROUP_CONCAT of a multi-valued field gives) count once for each
 * value. Each value becomes one row (the first row it appeared in, with `base_column` set to
 * that value and each `split_columns` column to its value at the same position), and the
 * `total_column` of every row it appears in is summed into it (a row without that column counts
 * 1). Rows keep first-seen order.
 */
function breakDownTotals(rows: V1Row[], spec: Record<string, unknown>): V1Row[] {
  const base = spec.base_column;
  if (typeof base !== 'string' || base === '')
    throw new V1Error('Error. break_down_totals needs base_column');
  const totalColumn = typeof spec.total_column === 'string' ? spec.total_column : 'total';
  const separator = typeof spec.separator === 'string' && spec.separator !== '' ? spec.separator : ' | ';
  const splits = stringList(spec.split_columns).filter((c) => c !== base);
  const byValue = new Map<string, V1Row>();
  for (const row of rows) {
    const raw = row[base];
    if (raw === null || raw === undefined) continue;
    const parts = String(raw).split(separator);
    const weight = totalColumn in row ? toNumber(row[totalColumn]) : 1;
    const splitParts = splits.map((c) =>
      row[c] === null || row[c] === undefined ? [] : String(row[c]).split(separator),
    );
    parts.forEach((part, i) => {
      const value = part.trim();
      if (value === '') return;
      const found = byValue.get(value);
      if (found) {
        found[totalColumn] = toNumber(found[totalColumn]) + weight;
        return;
      }
      const made: V1Row = { ...row, [base]: value, [totalColumn]: weight };
      splits.forEach((c, k) => {
        const own = splitParts[k] ?? [];
        if (own.length === parts.length) made[c] = (own[i] ?? '').trim();
      });
      byValue.set(value, made);
    });
  }
  return [...byValue.values()];
}

/**
 * sum_totals: the map view's counts. Each row names one or more terms (`term_id`, and at the
 * same positions `term` and `geojson`, each a JSON array or a single value); the answer has one
 * row per term: `{term_id, term, geojson, total, section_id}`, where total counts the rows
 * naming the term (or sums their `total` column when there is one) and section_id lists those
 * rows' section_ids. Rows keep first-seen order.
 */
function sumTotals(rows: V1Row[]): V1Row[] {
  const byTerm = new Map<string, V1Row & { section_id: unknown[] }>();
  for (const row of rows) {
    const ids = relationItems(row.term_id).map((v) => (relationId(v) ?? '').trim());
    const terms = listOf(row.term, ids.length);
    const geo = listOf(row.geojson, ids.length);
    const weight = 'total' in row ? toNumber(row.total) : 1;
    ids.forEach((id, i) => {
      if (id === '') return;
      const found = byTerm.get(id);
      if (found) {
        found.total = toNumber(found.total) + weight;
        if (!found.section_id.includes(row.section_id)) found.section_id.push(row.section_id);
        return;
      }
      byTerm.set(id, {
        term_id: id,
        term: terms[i] ?? null,
        geojson: geo[i] ?? null,
        total: weight,
        section_id: [row.section_id],
      });
    });
  }
  return [...byTerm.values()];
}

/**
 * A column as a list parallel to `n` term ids: a JSON array's items; for a single term, the
 * one item of a one-item array, else the value whole (a geojson value may itself be an array).
 */
function listOf(value: unknown, n: number): unknown[] {
  let v = value;
  if (typeof v === 'string' && v.trim().startsWith('[')) {
    try {
      v = JSON.parse(v);
    } catch {
      // not JSON: the text itself is the value
    }
  }
  if (n === 1) return [Array.isArray(v) && v.length === 1 ? v[0] : value];
  return Array.isArray(v) ? v : [];
}

/** Replaces `column` (locators) of each row by the fragments those locators point at. */
async function resolveIndexationFragments(
  call: V1Call,
  rows: V1Row[],
  spec: Record<string, unknown>,
): Promise<V1Row[]> {
  const column = typeof spec.column === 'string' ? spec.column : undefined;
  if (!column) throw new V1Error('Error. resolve_indexation_fragments needs column');
  const lang = optLang(call.options) ?? call.lang;
  for (const row of rows) {
    const fragments = [];
    for (const item of relationItems(row[column])) {
      const locator = readLocator(item);
      const id = Number(locator?.section_id);
      const tag = Number(locator?.tag_id);
      if (!Number.isInteger(id) || !Number.isInteger(tag)) continue;
      const record = await loadAvRecord(call, id, lang);
      const fragment = record ? fragmentOf(call, record, tag) : null;
      if (fragment) fragments.push({ ...fragment, index_locator: item });
    }
    row[column] = fragments;
  }
  return rows;
}
