/**
 * Full-text SQL for both engines from one FulltextQuery. MariaDB uses MATCH ... AGAINST in
 * boolean mode on the FULLTEXT-indexed column, relevance from the engine. SQLite joins the FTS5
 * external-content table `fts_<table>_<column>` on rowid, relevance = -bm25 (bm25 is lower for
 * better matches, so it is negated to keep "higher is better" on every engine).
 *
 * Ranking in two steps: the inner query keeps the `maxCandidates` best-ranked matching rows, the
 * outer one orders those and cuts the page; `COUNT(*) OVER ()` tells the caller how many
 * candidates there were, so it can say when the cap was reached. The count statement is not
 * capped: `total` is the exact number of matches (a plain full-text count reads the index and
 * the filtered rows, no ranking), even when only the cap can be paged. Why: ordering every match of a common word
 * by relevance costs MariaDB a row read per match (seconds for tens of thousands of rows).
 * InnoDB's full-text index yields matches best first, so on MariaDB the inner query is a plain
 * LIMIT that stops after `maxCandidates` rows; FTS5 yields them in rowid order, so SQLite ranks
 * every match in the inner query (as cheap as before) and keeps the best. Both engines thus
 * answer the same rows: the best-ranked, up to the cap. v2's search and v1's free_search (with
 * its `filter` fragment) both run these statements.
 */
import { toFts5Match, toMariadbBoolean } from '../text/search-query.js';
import { ftsTableOf, renderExpr } from './expr.js';
import { renderOrderBy, renderPaging, renderWhere, type SqlStatement } from './sql-builder.js';
import type { Dialect, FulltextQuery, SqlValue } from './types.js';

/** The column of every search row that says how many candidates were ranked (the caller drops it). */
export const CANDIDATES_COLUMN = 'pub_search_candidates';

type CountQuery = Omit<FulltextQuery, 'limit' | 'offset' | 'columns' | 'orderBy'>;

/** WHERE: `leading` (the match), the conditions (on `table`'s columns when given), then the filter. */
function whereOf(d: Dialect, q: CountQuery, params: SqlValue[], leading: string[], table?: string): string {
  const where = renderWhere(d, q.where, params, { leading, table });
  if (!q.filter) return where;
  const filter = renderExpr(d, q.filter, params);
  return where === '' ? ` WHERE ${filter}` : `${where} AND ${filter}`;
}

/** The requested columns plus the tie-breakers, which the outer ORDER BY needs from the inner query. */
function innerColumns(q: FulltextQuery): string[] {
  return [...new Set([...q.columns, ...q.orderBy.map((o) => o.column)])];
}

/** ORDER BY `relevance` of alias `from`, then the tie-breakers of alias `keysFrom`. */
function rankOrder(d: Dialect, q: FulltextQuery, from: string, keysFrom = from): string {
  const tieBreakers = renderOrderBy(d, q.orderBy, keysFrom).replace(' ORDER BY ', ', ');
  return ` ORDER BY ${d.quote(from)}.${d.quote('relevance')} DESC${tieBreakers}`;
}

/**
 * Orders the candidates of `inner` (which yields `relevance` and the tie-breakers), counts them
 * and cuts the page, selecting `columns` from them.
 */
function rankCandidates(
  d: Dialect,
  q: FulltextQuery,
  inner: string,
  params: SqlValue[],
  columns: string[],
): string {
  const c = d.quote('c');
  const list = columns.map((col) => `${c}.${d.quote(col)}`).join(', ');
  let sql = `SELECT ${list}, ${c}.${d.quote('relevance')}, COUNT(*) OVER () AS ${d.quote(CANDIDATES_COLUMN)} FROM (${inner}) ${c}`;
  sql += rankOrder(d, q, 'c');
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
  inner += whereOf(d, q, params, [match]);
  inner += renderPaging(q.maxCandidates, 0, params);
  return { sql: rankCandidates(d, q, inner, params, q.columns), params };
}

export function mariadbSearchCount(d: Dialect, q: CountQuery): SqlStatement {
  const params: SqlValue[] = [toMariadbBoolean(q.search)];
  return {
    sql: `SELECT COUNT(*) AS n FROM ${d.quote(q.table)}${whereOf(d, q, params, [mariadbMatch(d, q)])}`,
    params,
  };
}

/**
 * The table joined to its FTS5 matches: only the match's rowid and rank come from the FTS5 table
 * (`m`), so every other name, the filter's unqualified columns included, is the table's.
 */
function sqliteFrom(d: Dialect, q: CountQuery): string {
  const fts = d.quote(ftsTableOf(q.table, q.column));
  const m = d.quote('m');
  const row = d.quote('pub_fts_rowid');
  return `${d.quote(q.table)} JOIN (SELECT rowid AS ${row}, -bm25(${fts}) AS ${d.quote('relevance')} FROM ${fts} WHERE ${fts} MATCH ?) ${m} ON ${d.quote(q.table)}.rowid = ${m}.${row}`;
}

/** The column carrying each SQLite candidate's rowid, by which the page's rows are read. */
const ROWID = 'pub_rowid';

/**
 * SQLite ranks the candidates on their rowid, relevance and tie-breakers only, and reads the
 * requested columns of the page's rows alone: ordering a candidate costs SQLite a copy of every
 * column it carries, long texts included (`memoria` in lg-spa on the bench's 100k archive, 52k
 * candidates: 338 ms when they carried every column, 233 ms so).
 */
export function sqliteSearch(d: Dialect, q: FulltextQuery): SqlStatement {
  const t = d.quote(q.table);
  const params: SqlValue[] = [toFts5Match(q.search)];
  const keys = [...new Set(q.orderBy.map((o) => o.column))];
  const ranked = [
    `${t}.rowid AS ${d.quote(ROWID)}`,
    ...keys.map((col) => `${t}.${d.quote(col)}`),
    `${d.quote('m')}.${d.quote('relevance')}`,
  ];
  let inner = `SELECT ${ranked.join(', ')} FROM ${sqliteFrom(d, q)}`;
  inner += whereOf(d, q, params, [], q.table);
  inner += rankOrder(d, q, 'm', q.table);
  inner += renderPaging(q.maxCandidates, 0, params);
  const page = rankCandidates(d, q, inner, params, [ROWID, ...keys]);
  const p = d.quote('p');
  const columns = q.columns.map((col) => `${t}.${d.quote(col)}`).join(', ');
  const sql = `SELECT ${columns}, ${p}.${d.quote('relevance')}, ${p}.${d.quote(CANDIDATES_COLUMN)} FROM (${page}) ${p} JOIN ${t} ON ${t}.rowid = ${p}.${d.quote(ROWID)}${rankOrder(d, q, 'p')}`;
  return { sql, params };
}

export function sqliteSearchCount(d: Dialect, q: CountQuery): SqlStatement {
  const params: SqlValue[] = [toFts5Match(q.search)];
  return {
    sql: `SELECT COUNT(*) AS n FROM ${sqliteFrom(d, q)}${whereOf(d, q, params, [], q.table)}`,
    params,
  };
}
