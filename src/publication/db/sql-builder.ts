/**
 * Turns a neutral SelectQuery into SQL text plus bound parameters. Both engines use `?`
 * placeholders and the same LIMIT/OFFSET syntax; they differ only in identifier quoting.
 * Identifiers reaching here were validated against the live schema; quoting is a second wall.
 */
import type { Condition, SelectQuery, SqlValue } from './types.js';

export interface Dialect {
  quote(identifier: string): string;
}

export const backtickDialect: Dialect = {
  quote: (id) => `\`${id.replaceAll('`', '``')}\``,
};

export const doubleQuoteDialect: Dialect = {
  quote: (id) => `"${id.replaceAll('"', '""')}"`,
};

const COMPARATORS = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

export interface SqlStatement {
  sql: string;
  params: SqlValue[];
}

function renderCondition(d: Dialect, c: Condition, params: SqlValue[]): string {
  const col = d.quote(c.column);
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

function renderWhere(d: Dialect, where: Condition[], params: SqlValue[]): string {
  return where.length === 0 ? '' : ` WHERE ${where.map((c) => renderCondition(d, c, params)).join(' AND ')}`;
}

export function buildSelect(d: Dialect, q: SelectQuery): SqlStatement {
  const params: SqlValue[] = [];
  let sql = `SELECT ${q.columns.map((c) => d.quote(c)).join(', ')} FROM ${d.quote(q.table)}`;
  sql += renderWhere(d, q.where, params);
  if (q.orderBy.length > 0) {
    sql += ` ORDER BY ${q.orderBy.map((o) => `${d.quote(o.column)}${o.desc ? ' DESC' : ''}`).join(', ')}`;
  }
  if (q.limit !== undefined) {
    sql += ' LIMIT ?';
    params.push(q.limit);
    if (q.offset) {
      sql += ' OFFSET ?';
      params.push(q.offset);
    }
  }
  return { sql, params };
}

export function buildCount(d: Dialect, q: Pick<SelectQuery, 'table' | 'where'>): SqlStatement {
  const params: SqlValue[] = [];
  const sql = `SELECT COUNT(*) AS n FROM ${d.quote(q.table)}${renderWhere(d, q.where, params)}`;
  return { sql, params };
}
