/**
 * Full-text SQL for both engines from one FulltextQuery. MariaDB uses MATCH ... AGAINST in
 * boolean mode on the FULLTEXT-indexed column, relevance from the engine. SQLite joins the FTS5
 * external-content table `fts_<table>_<column>` on rowid, relevance = -bm25 (bm25 is lower for
 * better matches, so it is negated to keep "higher is better" on every engine).
 *
 * Ranking in two steps: the inner query keeps the `maxCandidates` best-ranked matching rows, the
 * outer one orders those and cuts the page; `COUNT(*) OVER ()` tells the caller how many
 * candidates there were, so it can say when the cap was reached, and the count statement is
 * capped alike, so `total` counts what can be paged. Why: ordering every match of a common word
 * by relevance costs MariaDB a row read per match (seconds for tens of thousands of rows).
 * InnoDB's full-text index yields matches best first, so on MariaDB the inner query is a plain
 * LIMIT that stops after `maxCandidates` rows; FTS5 yields them in rowid order, so SQLite ranks
 * every match in the inner query (as cheap as before) and keeps the best. Both engines thus
 * answer the same rows: the best-ranked, up to the cap.
 */
import { toFts5Match, toMariadbBoolean } from '../text/search-query.js';
import { type Dialect, renderOrderBy, renderPaging, renderWhere, type SqlStatement } from './sql-builder.js';
import type { FulltextQuery, SqlValue } from './types.js';

/** The column of every search row that says how many candidates were ranked (the caller drops it). */
export const CANDIDATES_COLUMN = 'pub_search_candidates';

export function ftsTableOf(table: string, column: string): string {
  return `fts_${table}_${column}`;
}

type CountQuery = Omit<FulltextQuery, 'limit' | 'offset' | 'columns' | 'orderBy'>;

/** The requested columns plus the tie-breakers, which the outer ORDER BY needs from the inner query. */
function innerColumns(q: FulltextQuery): string[] {
  return [...new Set([...q.columns, ...q.orderBy.map((o) => o.column)])];
}

/** Ranks the candidates of `inner` (which yields the columns and `relevance`) and pages them. */
function rankCandidates(d: Dialect, q: FulltextQuery, inner: string, params: SqlValue[]): string {
  const c = d.quote('c');
  const relevance = d.quote('relevance');
  const columns = q.columns.map((col) => `${c}.${d.quote(col)}`).join(', ');
  let sql = `SELECT ${columns}, ${c}.${relevance}, COUNT(*) OVER () AS ${d.quote(CANDIDATES_COLUMN)} FROM (${inner}) ${c}`;
  sql += ` ORDER BY ${c}.${relevance} DESC${renderOrderBy(d, q.orderBy, 'c').replace(' ORDER BY ', ', ')}`;
  sql += renderPaging(q.limit, q.offset, params);
  return sql;
}

function mariadbMatch(d: Dialect, q: CountQuery): string {
  return `MATCH(${d.quote(q.column)}) AGAINST(? IN BOOLEAN MODE)`;
}

export function mariadbSearch(d: Dialect, q: FulltextQuery): SqlStatement {
  const against = toMariadbBoolean(q.search);
  const match = mariadbMatch(d, q);
  const params: SqlValue[] = [against, against];
  let inner = `SELECT ${innerColumns(q)
    .map((col) => d.quote(col))
    .join(', ')}, ${match} AS ${d.quote('relevance')} FROM ${d.quote(q.table)}`;
  inner += renderWhere(d, q.where, params, { leading: [match] });
  inner += renderPaging(q.maxCandidates, 0, params);
  return { sql: rankCandidates(d, q, inner, params), params };
}

export function mariadbSearchCount(d: Dialect, q: CountQuery): SqlStatement {
  const params: SqlValue[] = [toMariadbBoolean(q.search)];
  let inner = `SELECT 1 FROM ${d.quote(q.table)}${renderWhere(d, q.where, params, { leading: [mariadbMatch(d, q)] })}`;
  inner += renderPaging(q.maxCandidates, 0, params);
  return { sql: `SELECT COUNT(*) AS n FROM (${inner}) ${d.quote('c')}`, params };
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
  let inner = `SELECT ${innerColumns(q)
    .map((col) => `${t}.${d.quote(col)}`)
    .join(', ')}, -bm25(${fts}) AS ${d.quote('relevance')} FROM ${from}`;
  inner += renderWhere(d, q.where, params, { leading: [match], table: q.table });
  inner += ` ORDER BY ${d.quote('relevance')} DESC${renderOrderBy(d, q.orderBy, q.table).replace(' ORDER BY ', ', ')}`;
  inner += renderPaging(q.maxCandidates, 0, params);
  return { sql: rankCandidates(d, q, inner, params), params };
}

export function sqliteSearchCount(d: Dialect, q: CountQuery): SqlStatement {
  const { from, match } = sqliteFrom(d, q);
  const params: SqlValue[] = [toFts5Match(q.search)];
  let inner = `SELECT 1 FROM ${from}${renderWhere(d, q.where, params, { leading: [match], table: q.table })}`;
  inner += renderPaging(q.maxCandidates, 0, params);
  return { sql: `SELECT COUNT(*) AS n FROM (${inner}) ${d.quote('c')}`, params };
}
