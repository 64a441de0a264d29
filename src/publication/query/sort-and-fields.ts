/**
 * `sort` (comma-separated columns, `-` for descending) and `fields` (comma-separated column
 * allowlist), both validated against the table's live columns.
 */
import type { OrderTerm, TableInfo } from '../db/types.js';
import { invalidQuery } from '../problems.js';
import { BOUNDS } from './bounds.js';
import { clip } from './scalar-params.js';

function splitList(name: string, raw: string, max: number): string[] {
  const items = raw.split(',').map((s) => s.trim());
  if (items.some((s) => s === '' || s === '-')) {
    throw invalidQuery(
      name,
      `${name} has an empty item in "${clip(raw)}"; separate column names with single commas`,
    );
  }
  if (items.length > max) throw invalidQuery(name, `${name} lists ${items.length} columns; at most ${max}`);
  return items;
}

function requireColumn(name: string, column: string, table: TableInfo): void {
  if (!table.columnsByName.has(column)) {
    throw invalidQuery(
      name,
      `unknown column "${clip(column)}" in ${name}; columns of ${table.name}: ${table.columns.map((c) => c.name).join(', ')}`,
    );
  }
}

export function parseSort(raw: string | undefined, table: TableInfo): OrderTerm[] {
  if (raw === undefined) return [];
  const terms = splitList('sort', raw, BOUNDS.sort.maxTerms).map((item) => {
    const desc = item.startsWith('-');
    const column = desc ? item.slice(1) : item;
    requireColumn('sort', column, table);
    return { column, desc };
  });
  const seen = new Set<string>();
  for (const t of terms) {
    if (seen.has(t.column)) throw invalidQuery('sort', `sort names column "${t.column}" twice`);
    seen.add(t.column);
  }
  return terms;
}

export function parseFields(raw: string | undefined, table: TableInfo): string[] | undefined {
  if (raw === undefined) return undefined;
  const columns = splitList('fields', raw, BOUNDS.fields.maxColumns);
  for (const c of columns) requireColumn('fields', c, table);
  return [...new Set(columns)];
}

/**
 * The order a page is served in: the client's sort, then the record key (section_id, lang) as a
 * tie-breaker so that pages never overlap or skip rows.
 */
export function withStableOrder(sort: OrderTerm[], table: TableInfo): OrderTerm[] {
  const order = [...sort];
  for (const key of ['section_id', 'lang']) {
    if (table.columnsByName.has(key) && !order.some((o) => o.column === key))
      order.push({ column: key, desc: false });
  }
  return order;
}
