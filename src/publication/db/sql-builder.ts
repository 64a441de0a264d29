/**
 * Turns neutral queries into SQL text plus bound parameters. Both engines use `?` placeholders
 * and the same LIMIT/OFFSET syntax; they differ in identifier quoting, in the liveness check
 * SQLite needs to be interruptible, and in full-text syntax (see the *-search-sql.ts files).
 * Identifiers reaching here were validated against the live schema; quoting is a second wall.
 */

import { toFts5Match } from '../text/search-query.js';
import { ftsTableOf, matchesIn, matchKey, renderExpr } from './expr.js';
import type {
  Condition,
  CountQuery,
  Dialect,
  Expr,
  FacetQuery,
  MatchJoins,
  OrderTerm,
  SelectQuery,
  SqlValue,
} from './types.js';

export const backtickDialect: Dialect = {
  engine: 'mariadb',
  quote: (id) => `\`${id.replaceAll('`', '``')}\``,
};

export const doubleQuoteDialect: Dialect = {
  engine: 'sqlite',
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

/**
 * SQLite: each distinct full-text match of the statement becomes one derived table joined on
 * rowid (the FTS5 index is queried once, not once per row), INNER when the filter requires the
 * match (the filter is that match or an AND of it), LEFT otherwise. MariaDB needs none.
 */
function matchJoins(
  d: Dialect,
  q: SelectQuery | CountQuery,
  params: SqlValue[],
): { from: string; joins?: MatchJoins } {
  const table = d.quote(q.table);
  if (d.engine !== 'sqlite') return { from: table };
  const select =
    'select' in q ? [...(q.select ?? []).map((i) => i.expr), ...(q.order ?? []).map((o) => o.expr)] : [];
  const matches = matchesIn([...select, q.filter, ...(q.groupBy ?? [])]);
  if (matches.length === 0) return { from: table };
  const required = new Set(
    (q.filter?.kind === 'and' ? q.filter.items : q.filter ? [q.filter] : [])
      .filter((e): e is Extract<Expr, { kind: 'match' }> => e.kind === 'match')
      .map(matchKey),
  );
  const joins = new Map<string, string>();
  let from = table;
  for (const m of matches) {
    const key = matchKey(m);
    if (joins.has(key)) continue;
    const alias = `pub_fts${joins.size + 1}`;
    joins.set(key, alias);
    const fts = d.quote(ftsTableOf(m.table, m.column));
    const a = d.quote(alias);
    params.push(toFts5Match(m.search));
    from += ` ${required.has(key) ? '' : 'LEFT '}JOIN (SELECT rowid AS ${d.quote('pub_rowid')}, -bm25(${fts}) AS ${d.quote('pub_rank')} FROM ${fts} WHERE ${fts} MATCH ?) ${a} ON ${a}.${d.quote('pub_rowid')} = ${table}.rowid`;
  }
  return { from, joins };
}

/** The select list: validated columns, or (v1) computed items with their aliases. */
function renderColumns(d: Dialect, q: SelectQuery, params: SqlValue[], joins?: MatchJoins): string {
  const items = q.select
    ? q.select.map((item) => {
        const sql = renderExpr(d, item.expr, params, joins);
        return item.as === undefined ? sql : `${sql} AS ${d.quote(item.as)}`;
      })
    : q.columns.map((c) => (joins ? `${d.quote(q.table)}.${d.quote(c)}` : d.quote(c)));
  return `${q.distinct ? 'DISTINCT ' : ''}${items.join(', ')}`;
}

/** WHERE plus (v1) the expression filter and GROUP BY. */
function renderFilterAndGroup(d: Dialect, q: CountQuery, params: SqlValue[], joins?: MatchJoins): string {
  const leading = q.filter ? [renderExpr(d, q.filter, params, joins)] : [];
  let sql = renderWhere(d, q.where, params, { leading });
  if (q.groupBy && q.groupBy.length > 0) {
    sql += ` GROUP BY ${q.groupBy.map((g) => renderExpr(d, g, params, joins)).join(', ')}`;
  }
  return sql;
}

export function buildSelect(d: Dialect, q: SelectQuery): SqlStatement {
  const params: SqlValue[] = [];
  // Text order: the select list's parameters, then the joins', then WHERE's.
  const selectParams: SqlValue[] = [];
  const joinParams: SqlValue[] = [];
  const { from, joins } = matchJoins(d, q, joinParams);
  const columns = renderColumns(d, q, selectParams, joins);
  params.push(...selectParams, ...joinParams);
  let sql = `SELECT ${columns} FROM ${from}`;
  sql += renderFilterAndGroup(d, q, params, joins);
  const order = renderOrderBy(d, q.orderBy);
  const exprOrder = (q.order ?? []).map(
    (o) => `${renderExpr(d, o.expr, params, joins)}${o.desc ? ' DESC' : ''}`,
  );
  if (order !== '' || exprOrder.length > 0) {
    sql += ` ORDER BY ${[...(order === '' ? [] : [order.slice(' ORDER BY '.length)]), ...exprOrder].join(', ')}`;
  }
  sql += renderPaging(q.limit, q.offset, params);
  return { sql, params };
}

export function buildCount(d: Dialect, q: CountQuery): SqlStatement {
  const params: SqlValue[] = [];
  const { from, joins } = matchJoins(d, q, params);
  const rest = renderFilterAndGroup(d, q, params, joins);
  if (q.groupBy && q.groupBy.length > 0) {
    // One count per group, as the rows the select returns.
    return { sql: `SELECT COUNT(*) AS n FROM (SELECT 1 AS x FROM ${from}${rest}) ${d.quote('g')}`, params };
  }
  return { sql: `SELECT COUNT(*) AS n FROM ${from}${rest}`, params };
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
