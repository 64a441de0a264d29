/**
 * PUBLICACION_FILTER_SQL (docs/publication-v1.md): the operator's SQL condition that upstream appended to its
 * internal queries (for example ` AND publicacion='si'`), set here with
 * V1_PUBLICACION_FILTER_SQL. It goes through the same safe SQL subset as every client fragment
 * (sql-subset.ts), checked against the table each query reads, and is applied where the spec
 * names it: loading a thesaurus term, resolving portal rows (unless the call gives that table a
 * portal_filter), thesaurus_search and thesaurus_random_term. Those two also take a
 * `publication_filter_sql` parameter, which is ANDed with the configured filter, never put in
 * its place (a client must not be able to lift the operator's filter). A `records` sql_filter
 * equal to it is read the same way (isPublicationFilter).
 */
import type { Expr, TableInfo } from '../db/types.js';
import { parseCondition } from './sql-subset.js';
import { optString, type V1Call } from './v1-call.js';

/** The condition of a legacy fragment: a leading `AND` dropped; blank means none. */
export function fragmentCondition(name: string, text: string | undefined, info: TableInfo): Expr | undefined {
  const body = (text ?? '').replace(/^\s*and\b/i, '').trim();
  return body === '' ? undefined : parseCondition(name, body, { tables: [info] });
}

/** The configured filter for `info`, and the call's `publication_filter_sql` when `withParam`. */
export function publicationFilter(call: V1Call, info: TableInfo, withParam = false): Expr | undefined {
  const items = [
    fragmentCondition('PUBLICACION_FILTER_SQL', call.v1.publicationFilterSql, info),
    withParam
      ? fragmentCondition('publication_filter_sql', optString(call.options, 'publication_filter_sql'), info)
      : undefined,
  ].filter((e): e is Expr => e !== undefined);
  if (items.length === 0) return undefined;
  return items.length === 1 ? items[0] : { kind: 'and', items };
}

/**
 * True when a client's sql_filter is the configured filter itself: sites send
 * PUBLICACION_FILTER_SQL (` AND publicacion='si'`) as `sql_filter`, which upstream appended
 * without its parentheses, so its leading AND is dropped there too (docs/publication-v1.md).
 */
export function isPublicationFilter(call: V1Call, sqlFilter: string): boolean {
  const configured = call.v1.publicationFilterSql;
  return configured !== undefined && configured.trim() !== '' && sqlFilter.trim() === configured.trim();
}
