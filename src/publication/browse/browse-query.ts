/**
 * The table page's own query string, as its forms and links write it, and its translation into
 * the API's parameters. A form cannot name a field after the operator the user picks, so a
 * filter is two fields, `op[column]` and `v[column]`, which become `filter[column][op]=v`; a
 * column left empty is no filter. Everything else (`q`, `column`, `lang`, `sort`, `limit`,
 * `offset`) passes through to the records or search operation, whose validators judge it.
 */
import type { ColumnInfo, FilterOp, TableInfo } from '../db/types.js';
import type { QueryParams } from '../query/query-string.js';

export interface BrowseFilter {
  column: string;
  op: FilterOp;
  value: string;
}

export interface BrowseState {
  q: string;
  column: string;
  lang: string;
  sort: string;
  limit: number;
  offset: number;
  filters: BrowseFilter[];
  /** The interface language when the URL chose it (`ui=`): every link carries it on. */
  ui?: string;
  /** The records' language when the URL names none (the interface's, where the table has it). */
  defaultLang?: string;
}

/** `lang=all`: every language variant, whatever the interface language. */
export const ALL_LANGS = 'all';

export const PAGE_SIZES = [20, 50, 100];
const DEFAULT_LIMIT = 20;

/** Operators offered per kind of column (their words: `op:<name>` in i18n/). */
const OPS_BY_KIND: Record<ColumnInfo['kind'], FilterOp[]> = {
  integer: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'is_null', 'is_not_null'],
  number: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'is_null', 'is_not_null'],
  text: ['like', 'eq', 'ne', 'in', 'not_in', 'is_null', 'is_not_null'],
  other: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'is_null', 'is_not_null'],
};

export function opsFor(column: ColumnInfo): FilterOp[] {
  return OPS_BY_KIND[column.kind];
}

const first = (params: QueryParams, name: string) => params.get(name)?.[0] ?? '';

export function readBrowseState(params: QueryParams, table: TableInfo): BrowseState {
  const filters: BrowseFilter[] = [];
  for (const column of table.columns) {
    const op = first(params, `op[${column.name}]`) as FilterOp;
    const value = first(params, `v[${column.name}]`);
    const allowed = opsFor(column);
    const chosen = allowed.includes(op) ? op : allowed[0]!;
    if (value !== '' || chosen === 'is_null' || chosen === 'is_not_null') {
      filters.push({ column: column.name, op: chosen, value: chosen.startsWith('is_') ? '' : value });
    }
  }
  const limit = Number(first(params, 'limit'));
  const offset = Number(first(params, 'offset'));
  return {
    q: first(params, 'q').trim(),
    column: first(params, 'column'),
    lang: first(params, 'lang'),
    sort: first(params, 'sort'),
    limit: PAGE_SIZES.includes(limit) ? limit : DEFAULT_LIMIT,
    offset: Number.isSafeInteger(offset) && offset > 0 ? offset : 0,
    filters,
  };
}

/** The API parameters of the rows the page shows: a records page, or a search page with `q`. */
export function apiParams(state: BrowseState, table: TableInfo): QueryParams {
  const params: QueryParams = new Map();
  const set = (name: string, value: string) => params.set(name, [value]);
  for (const f of state.filters) set(`filter[${f.column}][${f.op}]`, f.value);
  const lang = state.lang === '' ? state.defaultLang : state.lang === ALL_LANGS ? undefined : state.lang;
  if (lang) set('lang', lang);
  set('limit', String(state.limit));
  set('offset', String(state.offset));
  set('count', 'true');
  if (state.q) {
    set('q', state.q);
    set('column', state.column || searchColumnOf(table));
  } else if (state.sort) {
    set('sort', state.sort);
  }
  return params;
}

/** The API parameters of the same selection without paging (exports, facets). */
export function selectionParams(state: BrowseState, table: TableInfo): QueryParams {
  const params = apiParams(state, table);
  params.delete('limit');
  params.delete('offset');
  params.delete('count');
  return params;
}

export function searchColumnOf(table: TableInfo): string {
  const columns = [...table.fulltextColumns];
  return columns.includes('transcription') ? 'transcription' : (columns[0] ?? '');
}

/** The page's own URL for `state` (links: sort, page, facet values). */
export function browseHref(action: string, state: BrowseState): string {
  const parts: string[] = [];
  const add = (name: string, value: string) =>
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  if (state.q) {
    add('q', state.q);
    if (state.column) add('column', state.column);
  }
  if (state.lang) add('lang', state.lang);
  for (const f of state.filters) {
    add(`op[${f.column}]`, f.op);
    add(`v[${f.column}]`, f.value);
  }
  if (state.sort) add('sort', state.sort);
  if (state.limit !== DEFAULT_LIMIT) add('limit', String(state.limit));
  if (state.offset > 0) add('offset', String(state.offset));
  if (state.ui) add('ui', state.ui);
  return parts.length > 0 ? `${action}?${parts.join('&')}` : action;
}

/** An API URL for `params` (exports link to the JSON routes themselves). */
export function apiHref(path: string, params: QueryParams, extra: Record<string, string> = {}): string {
  const parts: string[] = [];
  for (const [name, values] of params)
    for (const v of values) parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(v)}`);
  for (const [name, v] of Object.entries(extra))
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(v)}`);
  return parts.length > 0 ? `${path}?${parts.join('&')}` : path;
}
