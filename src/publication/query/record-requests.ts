/**
 * Turns the query parameters of the records routes into neutral request descriptions. All
 * problems found are reported together, one `errors` entry per bad parameter.
 */
import type { Condition, DatabaseSchema, OrderTerm, TableInfo } from '../db/types.js';
import { ProblemCollector } from '../problems.js';
import { BOUNDS } from './bounds.js';
import { isFilterKey, parseFilters } from './filter-dsl.js';
import type { QueryParams } from './query-string.js';
import {
  parseRelationParams,
  RESOLVE_INVERSE,
  RESOLVE_RELATIONS,
  type RelationRequest,
} from './relation-params.js';
import { clip, parseBooleanParam, parseIntegerParam, parseLangParam, singleParam } from './scalar-params.js';
import { parseFields, parseSort } from './sort-and-fields.js';

export interface RecordListRequest {
  where: Condition[];
  sort: OrderTerm[];
  fields?: string[];
  limit: number;
  offset: number;
  lang?: string;
  count: boolean;
  relations?: RelationRequest;
}

export interface RecordRequest {
  fields?: string[];
  lang?: string;
  relations?: RelationRequest;
}

const RELATION_PARAMS = [RESOLVE_RELATIONS, RESOLVE_INVERSE];
const LIST_PARAMS = ['sort', 'fields', 'limit', 'offset', 'lang', 'count', ...RELATION_PARAMS];
const RECORD_PARAMS = ['fields', 'lang', ...RELATION_PARAMS];

/**
 * Unknown parameters are refused so a typo (`limt=5`) is not silently ignored. Names starting
 * with `_` are left alone: they are the cache-busters some HTTP clients append.
 */
export function rejectUnknownParams(
  params: QueryParams,
  allowed: readonly string[],
  problems: ProblemCollector,
  allowFilters: boolean,
): void {
  for (const key of params.keys()) {
    if (allowed.includes(key) || key.startsWith('_') || (allowFilters && isFilterKey(key))) continue;
    problems.add(
      key,
      `unknown parameter "${clip(key)}"; this route accepts ${allowed.join(', ')}${allowFilters ? ', filter[column][op]' : ''}`,
    );
  }
}

function requireLangColumn(
  lang: string | undefined,
  table: TableInfo,
  problems: ProblemCollector,
): string | undefined {
  if (lang !== undefined && !table.hasLang) {
    problems.add(
      'lang',
      `table "${table.name}" has no lang column; it is monolingual, so drop the lang parameter`,
    );
    return undefined;
  }
  return lang;
}

/** `schema` is the table's database: relation targets are validated against it. */
export function parseRecordListRequest(
  params: QueryParams,
  table: TableInfo,
  schema: DatabaseSchema,
): RecordListRequest {
  const p = new ProblemCollector();
  rejectUnknownParams(params, LIST_PARAMS, p, true);
  const where = parseFilters(params, table, p);
  const sort = p.try(() => parseSort(singleParam(params, 'sort'), table)) ?? [];
  const fields = p.try(() => parseFields(singleParam(params, 'fields'), table));
  const limit = p.try(() => parseIntegerParam('limit', singleParam(params, 'limit'), BOUNDS.limit));
  const offset = p.try(() => parseIntegerParam('offset', singleParam(params, 'offset'), BOUNDS.offset));
  const lang = requireLangColumn(
    p.try(() => parseLangParam(singleParam(params, 'lang'))),
    table,
    p,
  );
  const count = p.try(() => parseBooleanParam('count', singleParam(params, 'count'))) ?? false;
  const relations = p.try(() => parseRelationParams(params, table, schema, fields));
  p.throwIfAny();
  return { where, sort, fields, limit: limit!, offset: offset!, lang, count, relations };
}

export function parseRecordRequest(
  params: QueryParams,
  table: TableInfo,
  schema: DatabaseSchema,
): RecordRequest {
  const p = new ProblemCollector();
  rejectUnknownParams(params, RECORD_PARAMS, p, false);
  const fields = p.try(() => parseFields(singleParam(params, 'fields'), table));
  const lang = requireLangColumn(
    p.try(() => parseLangParam(singleParam(params, 'lang'))),
    table,
    p,
  );
  const relations = p.try(() => parseRelationParams(params, table, schema, fields));
  p.throwIfAny();
  return { fields, lang, relations };
}
