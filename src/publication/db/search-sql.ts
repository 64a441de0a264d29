/**
 * Full-text SQL for both engines from one FulltextQuery. MariaDB uses MATCH ... AGAINST in
 * boolean mode on the FULLTEXT-indexed column, relevance from the engine. SQLite joins the FTS5
 * external-content table `fts_<table>_<column>` on rowid, relevance = -bm25 (bm25 is lower for
 * better matches, so it is negated to keep "higher is better" on every engine).
 */
import { toFts5Match, toMariadbBoolean } from '../text/search-query.js';
import { type Dialect, renderOrderBy, renderPaging, renderWhere, type SqlStatement } from './sql-builder.js';
import type { FulltextQuery, SqlValue } from './types.js';

export function ftsTableOf(table: string, column: string): string {
  return `fts_${table}_${column}`;
}

type CountQuery = Omit<FulltextQuery, 'limit' | 'offset' | 'columns' | 'orderBy'>;

export function mariadbSearch(d: Dialect, q: FulltextQuery): SqlStatement {
  const against = toMariadbBoolean(q.search);
  const match = `MATCH(${d.quote(q.column)}) AGAINST(? IN BOOLEAN MODE)`;
  const params: SqlValue[] = [against];
  let sql = `SELECT ${q.columns.map((c) => d.quote(c)).join(', ')}, ${match} AS ${d.quote('relevance')} FROM ${d.quote(q.table)}`;
  params.push(against);
  sql += renderWhere(d, q.where, params, { leading: [match] });
  sql += ` ORDER BY ${d.quote('relevance')} DESC${renderOrderBy(d, q.orderBy).replace(' ORDER BY ', ', ')}`;
  sql += renderPaging(q.limit, q.offset, params);
  return { sql, params };
}

export function mariadbSearchCount(d: Dialect, q: CountQuery): SqlStatement {
  const params: SqlValue[] = [toMariadbBoolean(q.search)];
  const match = `MATCH(${d.quote(q.column)}) AGAINST(? IN BOOLEAN MODE)`;
  const sql = `SELECT COUNT(*) AS n FROM ${d.quote(q.table)}${renderWhere(d, q.where, params, { leading: [match] })}`;
  return { sql, params };
}

function sqliteFrom(d: Dialect, q: CountQuery): { from: string; match: string; fts: string } {
  const fts = d.quote(ftsTableOf(q.table, q.column));
  const t = d.quote(q.table);
  return { fts, from: `${fts} JOIN ${t} ON ${t}.rowid = ${fts}.rowid`, match: `${fts} MATCH ?` };
}

export function sqliteSearch(d: Dialect, q: FulltextQuery): SqlStatement {
  const { fts, from, match } = sqliteFrom(d, q);
  const t = d.quote(q.table);
  const params: SqlValue[] = [toFts5Match(q.search)];
  let sql = `SELECT ${q.columns.map((c) => `${t}.${d.quote(c)}`).join(', ')}, -bm25(${fts}) AS ${d.quote('relevance')} FROM ${from}`;
  sql += renderWhere(d, q.where, params, { leading: [match], table: q.table });
  sql += ` ORDER BY ${d.quote('relevance')} DESC${renderOrderBy(d, q.orderBy, q.table).replace(' ORDER BY ', ', ')}`;
  sql += renderPaging(q.limit, q.offset, params);
  return { sql, params };
}

export function sqliteSearchCount(d: Dialect, q: CountQuery): SqlStatement {
  const { from, match } = sqliteFrom(d, q);
  const params: SqlValue[] = [toFts5Match(q.search)];
  const sql = `SELECT COUNT(*) AS n FROM ${from}${renderWhere(d, q.where, params, { leading: [match], table: q.table })}`;
  return { sql, params };
}
