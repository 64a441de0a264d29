/**
 * Turns neutral queries into SQL text plus bound parameters. Both engines use `?` placeholders
 * and the same LIMIT/OFFSET syntax; they differ in identifier quoting, in the liveness check
 * SQLite needs to be interruptible, and in full-text syntax (see the *-search-sql.ts files).
 * Identifiers reaching here were validated against the live schema; quoting is a second wall.
 */
import type { Condition, FacetQuery, OrderTerm, SelectQuery, SqlValue } from './types.js';

export interface Dialect {
  quote(identifier: string): string;
  /**
   * A predicate evaluated for every scanned row before any other condition, so a time-out can
   * interrupt long scans (SQLite has no other interrupt reachable from better-sqlite3).
   */
  liveness?: string;
}

export const backtickDialect: Dialect = {
  quote: (id) => `\`${id.replaceAll('`', '``')}\``,
};

export const doubleQuoteDialect: Dialect = {
  quote: (id) => `"${id.replaceAll('"', '""')}"`,
};

/** The dialect the SQLite driver runs: double quotes plus the worker's `pub_alive()` check. */
export const sqliteDialect: Dialect = { ...doubleQuoteDialect, liveness: 'pub_alive()' };

const COMPARATORS = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

export interface SqlStatement {
  sql: string;
  params: SqlValue[];
}

/** Renders one condition; `table` qualifies the column when a query joins several tables. */
function renderCondition(d: Dialect, c: Condition, params: SqlValue[], table?: string): string {
  const col = table ? `${d.quote(table)}.${d.quote(c.column)}` : d.quote(c.column);
  switch (c.op) {
    case 'is_null':
      return `${col} IS NULL`;
    case 'is_not_null':
      return `${col} IS NOT NULL`;
    case 'in':
    case 'not_in':
      params.push(...c.value);
      return `${col} ${c.op === 'in' ? 'IN' : 'NOT IN'} (${c.value.map(() => '?').join(', ')})`;
    case 'like':
      // Backslash escapes % and _ on both engines (SQLite has no default escape character).
      // The escape character is bound too: a literal '\' means different things per sql_mode.
      params.push(c.value, '\\');
      return `${col} LIKE ? ESCAPE ?`;
    default:
      params.push(c.value);
      return `${col} ${COMPARATORS[c.op]} ?`;
  }
}

/**
 * The WHERE clause: the dialect's liveness check first (so it runs for every scanned row), then
 * `leading` engine-specific terms (already carrying their own parameters), then the filters.
 */
export function renderWhere(
  d: Dialect,
  where: Condition[],
  params: SqlValue[],
  options: { leading?: string[]; table?: string } = {},
): string {
  const terms = [
    ...(d.liveness ? [d.liveness] : []),
    ...(options.leading ?? []),
    ...where.map((c) => renderCondition(d, c, params, options.table)),
  ];
  return terms.length === 0 ? '' : ` WHERE ${terms.join(' AND ')}`;
}

export function renderOrderBy(d: Dialect, order: OrderTerm[], table?: string): string {
  if (order.length === 0) return '';
  const q = (c: string) => (table ? `${d.quote(table)}.${d.quote(c)}` : d.quote(c));
  return ` ORDER BY ${order.map((o) => `${q(o.column)}${o.desc ? ' DESC' : ''}`).join(', ')}`;
}

export function renderPaging(
  limit: number | undefined,
  offset: number | undefined,
  params: SqlValue[],
): string {
  if (limit === undefined) return '';
  params.push(limit);
  if (!offset) return ' LIMIT ?';
  params.push(offset);
  return ' LIMIT ? OFFSET ?';
}

export function buildSelect(d: Dialect, q: SelectQuery): SqlStatement {
  const params: SqlValue[] = [];
  let sql = `SELECT ${q.columns.map((c) => d.quote(c)).join(', ')} FROM ${d.quote(q.table)}`;
  sql += renderWhere(d, q.where, params);
  sql += renderOrderBy(d, q.orderBy);
  sql += renderPaging(q.limit, q.offset, params);
  return { sql, params };
}

export function buildCount(d: Dialect, q: Pick<SelectQuery, 'table' | 'where'>): SqlStatement {
  const params: SqlValue[] = [];
  const sql = `SELECT COUNT(*) AS n FROM ${d.quote(q.table)}${renderWhere(d, q.where, params)}`;
  return { sql, params };
}

/** Values of one column and their counts; ties in count are ordered by value so pages are stable. */
export function buildFacet(d: Dialect, q: FacetQuery): SqlStatement {
  const params: SqlValue[] = [];
  const col = d.quote(q.column);
  let sql = `SELECT ${col} AS value, COUNT(*) AS n FROM ${d.quote(q.table)}`;
  sql += renderWhere(d, q.where, params);
  sql += ` GROUP BY ${col} ORDER BY n DESC, ${col}`;
  sql += renderPaging(q.limit, undefined, params);
  return { sql, params };
}
