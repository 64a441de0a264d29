/**
 * Query parameters of the full-text search route: `q` in the boolean syntax, the indexed
 * `column`, paging and count as on records, plus three extensions beyond the spec (`lang`,
 * `fields`, `filter[...]`) so a site can fetch a light, single-language result page.
 */
import type { Condition, DatabaseSchema, TableInfo } from '../db/types.js';
import { invalidQuery, ProblemCollector } from '../problems.js';
import { type ParsedSearch, parseSearchQuery } from '../text/search-query.js';
import { BOUNDS } from './bounds.js';
import { parseFilters } from './filter-dsl.js';
import type { QueryParams } from './query-string.js';
import { rejectUnknownParams } from './record-requests.js';
import {
  parseRelationParams,
  RESOLVE_INVERSE,
  RESOLVE_RELATIONS,
  type RelationRequest,
} from './relation-params.js';
import { clip, parseBooleanParam, parseIntegerParam, parseLangParam, singleParam } from './scalar-params.js';
import { parseFields } from './sort-and-fields.js';

export interface SearchRequest {
  relations?: RelationRequest;
  q: string;
  search: ParsedSearch;
  column: string;
  where: Condition[];
  fields?: string[];
  limit: number;
  offset: number;
  lang?: string;
  count: boolean;
}

export const SEARCH_PARAMS = [
  'q',
  'column',
  'limit',
  'offset',
  'count',
  'lang',
  'fields',
  RESOLVE_RELATIONS,
  RESOLVE_INVERSE,
];
export const DEFAULT_SEARCH_COLUMN = 'transcription';

function parseQ(raw: string | undefined): { q: string; search: ParsedSearch } {
  if (raw === undefined)
    throw invalidQuery('q', 'q is required: the words to search for, e.g. q=+memoria -guerra');
  if (raw.trim().length < BOUNDS.q.min || raw.length > BOUNDS.q.max) {
    throw invalidQuery('q', `q must be ${BOUNDS.q.min} to ${BOUNDS.q.max} characters, got ${raw.length}`);
  }
  return { q: raw, search: parseSearchQuery(raw) };
}

function parseColumn(raw: string | undefined, table: TableInfo): string {
  const column = raw ?? DEFAULT_SEARCH_COLUMN;
  if (!table.columnsByName.has(column)) {
    throw invalidQuery('column', `column "${clip(column)}" does not exist in table "${table.name}"`);
  }
  if (!table.fulltextColumns.has(column)) {
    const indexed = [...table.fulltextColumns];
    throw invalidQuery(
      'column',
      `column "${column}" of "${table.name}" has no full-text index; ${indexed.length > 0 ? `indexed columns: ${indexed.join(', ')}` : 'this table has no full-text index'}`,
    );
  }
  return column;
}

export function parseSearchRequest(
  params: QueryParams,
  table: TableInfo,
  schema: DatabaseSchema,
): SearchRequest {
  const p = new ProblemCollector();
  rejectUnknownParams(params, SEARCH_PARAMS, p, true);
  const q = p.try(() => parseQ(singleParam(params, 'q')));
  const column = p.try(() => parseColumn(singleParam(params, 'column'), table));
  const where = parseFilters(params, table, p);
  const fields = p.try(() => parseFields(singleParam(params, 'fields'), table));
  const limit = p.try(() => parseIntegerParam('limit', singleParam(params, 'limit'), BOUNDS.limit));
  const offset = p.try(() => parseIntegerParam('offset', singleParam(params, 'offset'), BOUNDS.offset));
  const lang = p.try(() => parseLangParam(singleParam(params, 'lang')));
  if (lang !== undefined && !table.hasLang) {
    p.add('lang', `table "${table.name}" has no lang column; it is monolingual, so drop the lang parameter`);
  }
  const count = p.try(() => parseBooleanParam('count', singleParam(params, 'count'))) ?? false;
  const relations = p.try(() => parseRelationParams(params, table, schema, fields));
  p.throwIfAny();
  return { ...q!, column: column!, where, fields, limit: limit!, offset: offset!, lang, count, relations };
}
