/**
 * Query parameters of the facets route: `columns` (the indexed columns to count values of),
 * `limit` (the top N values per column), `lang` and the records filters, which narrow the rows
 * counted exactly as they narrow a records page.
 */
import type { Condition, TableInfo } from '../db/types.js';
import { invalidQuery, ProblemCollector } from '../problems.js';
import { BOUNDS } from './bounds.js';
import { parseFilters } from './filter-dsl.js';
import type { QueryParams } from './query-string.js';
import { rejectUnknownParams } from './record-requests.js';
import { clip, parseIntegerParam, parseLangParam, singleParam } from './scalar-params.js';

export interface FacetsRequest {
  columns: string[];
  where: Condition[];
  limit: number;
  lang?: string;
}

export const FACETS_PARAMS = ['columns', 'limit', 'lang'];

/**
 * Counting the values of a column groups every matching row by it; with an index that is a walk
 * of the index, without one a sort of the table. Only indexed columns are offered, so a facet
 * costs the same on a large table as a page does.
 */
function parseColumns(raw: string | undefined, table: TableInfo): string[] {
  if (raw === undefined || raw.trim() === '') {
    throw invalidQuery(
      'columns',
      `columns is required: the indexed columns to count values of, e.g. columns=${[...table.indexedColumns].slice(0, 2).join(',') || 'lang'}`,
    );
  }
  const items = raw.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) {
    throw invalidQuery(
      'columns',
      `columns has an empty item in "${clip(raw)}"; separate names with single commas`,
    );
  }
  const { maxColumns } = BOUNDS.facets;
  if (items.length > maxColumns) {
    throw invalidQuery('columns', `columns lists ${items.length} columns; at most ${maxColumns}`);
  }
  const indexed = [...table.indexedColumns];
  for (const c of items) {
    if (!table.columnsByName.has(c)) {
      throw invalidQuery(
        'columns',
        `unknown column "${clip(c)}" in columns; columns of ${table.name}: ${table.columns.map((x) => x.name).join(', ')}`,
      );
    }
    if (!table.indexedColumns.has(c)) {
      throw invalidQuery(
        'columns',
        `column "${c}" of "${table.name}" has no index, so its values cannot be counted cheaply; ${indexed.length > 0 ? `indexed columns: ${indexed.join(', ')}` : 'this table has no indexed column'}`,
      );
    }
  }
  return [...new Set(items)];
}

export function parseFacetsRequest(params: QueryParams, table: TableInfo): FacetsRequest {
  const p = new ProblemCollector();
  rejectUnknownParams(params, FACETS_PARAMS, p, true);
  const columns = p.try(() => parseColumns(singleParam(params, 'columns'), table));
  const where = parseFilters(params, table, p);
  const limit = p.try(() => parseIntegerParam('limit', singleParam(params, 'limit'), BOUNDS.facets.limit));
  const lang = p.try(() => parseLangParam(singleParam(params, 'lang')));
  if (lang !== undefined && !table.hasLang) {
    p.add('lang', `table "${table.name}" has no lang column; it is monolingual, so drop the lang parameter`);
  }
  p.throwIfAny();
  return { columns: columns!, where, limit: limit!, lang };
}
