/**
 * Facets: for each asked column, its distinct values under the request's filters with the number
 * of rows carrying each, most frequent first, at most `limit` of them (`truncated` says more
 * exist). One grouped statement per column, run side by side. On a multilingual table a row is a
 * language variant: with `lang` the counts are records in that language.
 */
import type { FacetCount } from '../db/types.js';
import type { FacetsRequest } from '../query/facets-request.js';
import { requireTable } from './catalog-service.js';
import { parseJsonText } from './cell-values.js';
import type { PublicationContext } from './context.js';

export interface Facet {
  column: string;
  values: FacetCount[];
  /** More distinct values exist than the `limit` returned. */
  truncated: boolean;
}

export async function facetValues(
  ctx: PublicationContext,
  db: string,
  tableName: string,
  req: FacetsRequest,
): Promise<Facet[]> {
  const table = await requireTable(ctx, db, tableName);
  const where = req.lang ? [...req.where, { column: 'lang', op: 'eq' as const, value: req.lang }] : req.where;
  return Promise.all(
    req.columns.map(async (column) => {
      const rows = await ctx.driver.facet(db, { table: table.name, column, where, limit: req.limit + 1 });
      const truncated = rows.length > req.limit;
      if (truncated) rows.length = req.limit;
      const text = table.columnsByName.get(column)?.kind === 'text';
      const values = rows.map((r) => ({ value: text ? parseJsonText(r.value) : r.value, count: r.count }));
      return { column, values, truncated };
    }),
  );
}
