/**
 * `map` and `process_result` of `records` (spec 3.1). `map` supports its one function,
 * `resolve_geolocation` (the ts_term objects of the term ids in a column). `process_result`
 * permits only the five named functions (upstream called any class's static method of that
 * name, spec 5.11); `add_parents_or_children` and `resolve_indexation_fragments` are served,
 * the other three answer "not supported yet".
 */
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
  if (fn === 'add_parents_or_children') return addReferenced(call, rows, table, spec);
  if (fn === 'resolve_indexation_fragments') return resolveIndexationFragments(call, rows, spec);
  throw new V1Error(`Error. process_result ${fn} is not supported by this server yet`);
}

/** Appends the rows of the same table that `columns_name` columns point at, once each. */
async function addReferenced(
  call: V1Call,
  rows: V1Row[],
  table: string,
  spec: Record<string, unknown>,
): Promise<V1Row[]> {
  const columns = Array.isArray(spec.columns_name)
    ? spec.columns_name.filter((c): c is string => typeof c === 'string')
    : [];
  const info = await tableOf(call, table);
  const have = new Set(rows.map((r) => String(r.section_id)));
  const ids = new Set<string>();
  for (const row of rows) {
    for (const column of columns) {
      for (const id of relationItems(row[column]).map(relationId))
        if (id && /^\d+$/.test(id) && !have.has(id)) ids.add(id);
    }
  }
  if (ids.size === 0) return rows;
  const where = [{ column: 'section_id', op: 'in' as const, value: [...ids].map(Number) }];
  const lang = optLang(call.options);
  if (lang && info.hasLang) where.push({ column: 'lang', op: 'eq', value: lang } as never);
  const extra = await call.ctx.driver.select(call.db, {
    table: info.name,
    columns: info.columns.map((c) => c.name),
    where,
    orderBy: [],
  });
  return [...rows, ...extra.map((r) => shapeRow(info.name, r, call.v1.numbersAsStrings))];
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
