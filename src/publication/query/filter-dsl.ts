/**
 * The bracketed filter syntax `filter[field][op]=value` (op defaults to `eq`; `in`/`not_in` split
 * on `|`; `is_null`/`is_not_null` take an empty value). Every clause is checked against the
 * table's live columns; values for numeric columns must be numbers. Repeated filters are ANDed.
 */
import type { ColumnInfo, Condition, FilterOp, SqlValue, TableInfo } from '../db/types.js';
import { FILTER_OPS } from '../db/types.js';
import type { ProblemCollector } from '../problems.js';
import { BOUNDS } from './bounds.js';
import type { QueryParams } from './query-string.js';
import { clip } from './scalar-params.js';

const FILTER_KEY = /^filter\[([^[\]]*)\](?:\[([^[\]]*)\])?$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d{1,3})?$/;

export function isFilterKey(key: string): boolean {
  return key === 'filter' || key.startsWith('filter[');
}

function coerce(
  column: ColumnInfo,
  raw: string,
  key: string,
  problems: ProblemCollector,
): SqlValue | undefined {
  if (raw.length > BOUNDS.filters.maxValueLength) {
    problems.add(key, `${key} value is longer than ${BOUNDS.filters.maxValueLength} characters`);
    return undefined;
  }
  if (column.kind === 'integer' || column.kind === 'number') {
    const n = Number(raw);
    if (!NUMBER.test(raw) || !Number.isFinite(n)) {
      problems.add(key, `${key} expects a number for column "${column.name}", got "${clip(raw)}"`);
      return undefined;
    }
    return n;
  }
  return raw;
}

function parseClause(
  key: string,
  values: string[],
  table: TableInfo,
  problems: ProblemCollector,
  out: Condition[],
): void {
  const m = FILTER_KEY.exec(key);
  if (!m) {
    problems.add(
      key,
      `"${clip(key)}" is not a filter; write filter[column][operator]=value, e.g. filter[lang][eq]=lg-eng`,
    );
    return;
  }
  const field = m[1]!;
  const op = (m[2] ?? 'eq') as FilterOp;
  const column = table.columnsByName.get(field);
  if (!column) {
    problems.add(
      key,
      `unknown column "${clip(field)}" in ${clip(key)}; columns of ${table.name}: ${table.columns.map((c) => c.name).join(', ')}`,
    );
    return;
  }
  if (!FILTER_OPS.includes(op)) {
    problems.add(key, `unknown filter operator "${clip(op)}"; use one of ${FILTER_OPS.join(', ')}`);
    return;
  }
  for (const raw of values) {
    if (op === 'is_null' || op === 'is_not_null') {
      if (raw !== '') problems.add(key, `${op} takes an empty value (${key}=), got "${clip(raw)}"`);
      else out.push({ column: field, op });
    } else if (op === 'in' || op === 'not_in') {
      const items = raw.split('|');
      if (items.length > BOUNDS.filters.maxListItems) {
        problems.add(key, `${key} lists ${items.length} values; at most ${BOUNDS.filters.maxListItems}`);
        continue;
      }
      const coerced = items.map((item) => coerce(column, item, key, problems));
      if (coerced.every((v) => v !== undefined))
        out.push({ column: field, op, value: coerced as SqlValue[] });
    } else {
      const value = op === 'like' ? raw : coerce(column, raw, key, problems);
      if (op === 'like' && raw.length > BOUNDS.filters.maxValueLength) {
        problems.add(key, `${key} value is longer than ${BOUNDS.filters.maxValueLength} characters`);
      } else if (value !== undefined) out.push({ column: field, op, value });
    }
  }
}

/** Reads every `filter...` parameter; records each bad one in `problems`. */
export function parseFilters(params: QueryParams, table: TableInfo, problems: ProblemCollector): Condition[] {
  const out: Condition[] = [];
  let clauses = 0;
  for (const [key, values] of params) {
    if (!isFilterKey(key)) continue;
    clauses += values.length;
    parseClause(key, values, table, problems, out);
  }
  if (clauses > BOUNDS.filters.maxClauses) {
    problems.add('filter', `${clauses} filter clauses given; at most ${BOUNDS.filters.maxClauses}`);
  }
  return out;
}
