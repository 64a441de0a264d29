/**
 * Full-text SQL for both engines from one FulltextQuery. MariaDB uses MATCH ... AGAINST in
 * boolean mode on the FULLTEXT-indexed column, relevance from the engine. SQLite joins the FTS5
 * external-content table `fts_<table>_<column>` on rowid, relevance = -bm25 (bm25 is lower for
 * better matches, so it is negated to keep "higher is better" on every engine).
 *
 * Ranking in two steps: at most `maxCandidates` best-ranked matching rows are candidates, and a
 * page is cut from those, ordered by relevance then the tie-breakers; each row also carries how
 * many candidates there were (up to the cap), so the caller can say when the cap was reached.
 * Only what the page needs is ranked: the candidates carry their key, tie-breakers and relevance,
 * and the other columns are read for the page's rows alone. The count statement is not capped:
 * `total` is the exact number of matches (a plain full-text count reads the index and the
 * filtered rows, no ranking), even when only the cap can be paged. Why the cap: ordering every
 * match of a common word by relevance costs MariaDB a row read per match (seconds for tens of
 * thousands of rows). InnoDB's full-text index yields matches best first, so on MariaDB the
 * inner query is a plain LIMIT that stops after `maxCandidates` rows; FTS5 yields them in rowid
 * order, so SQLite ranks every match and keeps the best. Both engines thus answer the same rows:
 * the best-ranked, up to the cap. v2's search and v1's free_search (with its `filter` fragment)
 * both run these statements.
 */
import { toFts5Match, toMariadbBoolean } from '../text/search-query.js';
import { ftsTableOf, renderExpr } from './expr.js';
import { renderOrderBy, renderPaging, renderWhere, type SqlStatement } from './sql-builder.js';
import type { Dialect, FulltextQuery, SqlValue, TableInfo } from './types.js';

/** The column of every search row that says how many candidates were ranked (the caller drops it). */
export const CANDIDATES_COLUMN = 'pub_search_candidates';

type CountQuery = Omit<FulltextQuery, 'limit' | 'offset' | 'columns' | 'orderBy'>;

/**
 * The columns that identify a row of `table` (its primary key, as the catalogue says), by which
 * MariaDB reads the page's rows after ranking; empty when unknown.
 */
export function rowKeyOf(table: TableInfo): string[] {
  return table.columns.filter((c) => c.catalog?.key === 'PRI').map((c) => c.name);
}

/** WHERE: `leading` (the match), the conditions (on `table`'s columns when given), then the filter. */
function whereOf(d: Dialect, q: CountQuery, params: SqlValue[], leading: string[], table?: string): string {
  const where = renderWhere(d, q.where, params, { leading, table });
  if (!q.filter) return where;
  const filter = renderExpr(d, q.filter, params);
  return where === '' ? ` WHERE ${filter}` : `${where} AND ${filter}`;
}

/** The tie-breakers' columns, which every ordering level of a search needs. */
function tieBreakers(q: FulltextQuery): string[] {
  return [...new Set(q.orderBy.map((o) => o.column))];
}

/** ORDER BY `relevance` of alias `from`, then the tie-breakers of alias `keysFrom`. */
function rankOrder(d: Dialect, q: FulltextQuery, from: string, keysFrom = from): string {
  const ties = renderOrderBy(d, q.orderBy, keysFrom).replace(' ORDER BY ', ', ');
  return ` ORDER BY ${d.quote(from)}.${d.quote('relevance')} DESC${ties}`;
}

/**
 * The page's share of the `maxCandidates` best-ranked rows: `LIMIT` clipped so that no page
 * reaches past the cap (an empty page past it).
 */
function pageWithinCap(q: FulltextQuery, params: SqlValue[]): string {
  return renderPaging(Math.max(0, Math.min(q.limit, q.maxCandidates - q.offset)), q.offset, params);
}

function mariadbMatch(d: Dialect, q: CountQuery): string {
  return `MATCH(${d.quote(q.column)}) AGAINST(? IN BOOLEAN MODE)`;
}

/**
 * MariaDB: the inner query keeps the first `maxCandidates` matches InnoDB yields (best first)
 * with their row key, tie-breakers and relevance only; the middle one counts them (the cap flag),
 * orders them and cuts the page; the outer one reads the page's rows by their key. Carrying
 * every column (long transcriptions) through the ranking and its temporary table cost MariaDB
 * 3.4 ms of CPU per search on the bench's small archive, this 1.6 ms, the bare `ORDER BY
 * relevance DESC LIMIT 20` 2.0 ms. A table whose primary key is unknown (`rowKey` empty) carries
 * its columns through instead.
 */
export function mariadbSearch(d: Dialect, q: FulltextQuery): SqlStatement {
  const against = toMariadbBoolean(q.search);
  const match = mariadbMatch(d, q);
  const params: SqlValue[] = [against, against];
  const key = q.rowKey ?? [];
  const carried = [...new Set([...(key.length > 0 ? key : q.columns), ...tieBreakers(q)])];
  const list = (alias: string, cols: string[]) =>
    cols.map((col) => `${d.quote(alias)}.${d.quote(col)}`).join(', ');
  let inner = `SELECT ${carried.map((col) => d.quote(col)).join(', ')}, ${match} AS ${d.quote('relevance')} FROM ${d.quote(q.table)}`;
  inner += whereOf(d, q, params, [match]);
  inner += renderPaging(q.maxCandidates, 0, params);
  const relevance = (alias: string) => `${d.quote(alias)}.${d.quote('relevance')}`;
  // Without a key the page is the answer: it selects the requested columns only.
  let page = `SELECT ${list('c', key.length > 0 ? carried : q.columns)}, ${relevance('c')}, COUNT(*) OVER () AS ${d.quote(CANDIDATES_COLUMN)} FROM (${inner}) ${d.quote('c')}`;
  page += rankOrder(d, q, 'c');
  page += pageWithinCap(q, params);
  if (key.length === 0) return { sql: page, params };
  const on = key
    .map((col) => `${d.quote('r')}.${d.quote(col)} = ${d.quote('p')}.${d.quote(col)}`)
    .join(' AND ');
  const sql = `SELECT ${list('r', q.columns)}, ${relevance('p')}, ${d.quote('p')}.${d.quote(CANDIDATES_COLUMN)} FROM (${page}) ${d.quote('p')} JOIN ${d.quote(q.table)} ${d.quote('r')} ON ${on}${rankOrder(d, q, 'p')}`;
  return { sql, params };
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
 * SQLite ranks every match on its rowid, relevance and tie-breakers only (ordering a candidate
 * costs SQLite a copy of every column it carries, long texts included), keeps the page's share
 * of the `maxCandidates` best (FTS5 yields matches in rowid order, so ranking reads them all;
 * its LIMIT keeps a sorter of the page's size) and reads the requested columns of the page's
 * rows alone. The candidates are counted up to the cap by a scalar subquery that stops at the
 * cap (the cap flag), instead of numbering every candidate in a window: on the bench's small
 * archive 0.74 -> 0.55 ms of CPU per search (the bare `ORDER BY relevance DESC LIMIT 20`:
 * 0.59 ms).
 */
export function sqliteSearch(d: Dialect, q: FulltextQuery): SqlStatement {
  const t = d.quote(q.table);
  const params: SqlValue[] = [toFts5Match(q.search)];
  const candidates = `(SELECT COUNT(*) FROM (SELECT 1 FROM ${sqliteFrom(d, q)}${whereOf(d, q, params, [], q.table)}${renderPaging(q.maxCandidates, 0, params)}))`;
  params.push(toFts5Match(q.search));
  const ranked = [
    `${t}.rowid AS ${d.quote(ROWID)}`,
    ...tieBreakers(q).map((col) => `${t}.${d.quote(col)}`),
    `${d.quote('m')}.${d.quote('relevance')}`,
  ];
  let page = `SELECT ${ranked.join(', ')} FROM ${sqliteFrom(d, q)}`;
  page += whereOf(d, q, params, [], q.table);
  page += rankOrder(d, q, 'm', q.table);
  page += pageWithinCap(q, params);
  const p = d.quote('p');
  const columns = q.columns.map((col) => `${t}.${d.quote(col)}`).join(', ');
  const sql = `SELECT ${columns}, ${p}.${d.quote('relevance')}, ${candidates} AS ${d.quote(CANDIDATES_COLUMN)} FROM (${page}) ${p} JOIN ${t} ON ${t}.rowid = ${p}.${d.quote(ROWID)}${rankOrder(d, q, 'p')}`;
  return { sql, params };
}

export function sqliteSearchCount(d: Dialect, q: CountQuery): SqlStatement {
  const params: SqlValue[] = [toFts5Match(q.search)];
  return {
    sql: `SELECT COUNT(*) AS n FROM ${sqliteFrom(d, q)}${whereOf(d, q, params, [], q.table)}`,
    params,
  };
}
