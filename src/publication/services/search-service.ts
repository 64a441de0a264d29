/**
 * Full-text search: rows of one table matching a boolean query on an indexed column, best
 * first, each with the engine's `relevance` and highlighted `fragments` of the searched text.
 * The searched column is always read (fragments need it) and dropped again when `fields` left
 * it out, so a result page can stay light.
 *
 * At most SEARCH_MAX_CANDIDATES best-ranked matching rows are served (see db/search-sql.ts), so
 * a very common word costs a bounded amount of ranking; `total` still counts every match. When
 * the cap is reached the page says so (`candidatesCapped`): more rows match than can be paged.
 */
import { CANDIDATES_COLUMN, rowKeyOf } from '../db/search-sql.js';
import type { Row } from '../db/types.js';
import { BOUNDS } from '../query/bounds.js';
import type { SearchRequest } from '../query/search-request.js';
import { withStableOrder } from '../query/sort-and-fields.js';
import { findFragments } from '../text/fragments.js';
import { highlightTermsOf } from '../text/search-query.js';
import { requireTable } from './catalog-service.js';
import { decodeRows } from './cell-values.js';
import type { PublicationContext } from './context.js';
import type { RecordPage } from './records-service.js';
import { resolveRowRelations } from './relations-service.js';

export interface SearchPage extends RecordPage<Row[]> {
  /** The candidate cap was reached: more rows may match than can be paged (`total` counts them all). */
  candidatesCapped: boolean;
}

export async function searchRecords(
  ctx: PublicationContext,
  db: string,
  tableName: string,
  req: SearchRequest,
): Promise<SearchPage> {
  const table = await requireTable(ctx, db, tableName);
  const where = req.lang ? [...req.where, { column: 'lang', op: 'eq' as const, value: req.lang }] : req.where;
  const requested = req.fields ?? table.columns.map((c) => c.name);
  const columns = requested.includes(req.column) ? requested : [...requested, req.column];
  const maxCandidates = ctx.config.searchMaxCandidates;
  const query = { table: table.name, column: req.column, search: req.search, where, maxCandidates };
  const [rows, total] = await Promise.all([
    req.limit === 0
      ? Promise.resolve([] as Row[])
      : ctx.driver.search(db, {
          ...query,
          columns,
          orderBy: withStableOrder([], table),
          rowKey: rowKeyOf(table),
          limit: req.limit + 1,
          offset: req.offset,
        }),
    req.count ? ctx.driver.searchCount(db, query) : Promise.resolve(undefined),
  ]);
  const hasMore = rows.length > req.limit;
  if (hasMore) rows.length = req.limit;
  const candidates = rows.length > 0 ? Number(rows[0]![CANDIDATES_COLUMN]) : undefined;
  let candidatesCapped: boolean;
  if (candidates !== undefined) candidatesCapped = candidates >= maxCandidates;
  else if (total !== undefined) candidatesCapped = total >= maxCandidates;
  // No row at `offset`: there were at most `offset` candidates.
  else if (req.limit > 0 && req.offset < maxCandidates) candidatesCapped = false;
  else candidatesCapped = (await ctx.driver.searchCount(db, query)) >= maxCandidates;
  const terms = highlightTermsOf(req.search);
  const { perRow, maxCharacters } = BOUNDS.searchFragments;
  for (const row of rows) {
    const text = row[req.column];
    delete row[CANDIDATES_COLUMN];
    row.relevance = Number(row.relevance);
    row.fragments =
      typeof text === 'string'
        ? findFragments(text, terms, { maxCharacters, maxOccurrences: 1 })
            .slice(0, perRow)
            .map((f) => ({ text: f.text, position: f.position }))
        : [];
    if (columns !== requested) delete row[req.column];
  }
  const decoded = decodeRows(rows, table);
  await resolveRowRelations(ctx, db, table, decoded, { relations: req.relations, lang: req.lang });
  return { rows: decoded, hasMore, total, candidatesCapped };
}
