/**
 * Every query and path parameter of the API, declared once with the bounds and patterns the
 * validators use (query/bounds.ts). The OpenAPI document is generated from these declarations,
 * and the routes take their list of accepted parameter names from them.
 */
import { FILTER_OPS } from '../db/types.js';
import { BOUNDS, LANG_PATTERN, TABLE_NAME_PATTERN } from '../query/bounds.js';

export interface ParamSpec {
  name: string;
  in: 'query' | 'path';
  required?: boolean;
  description: string;
  schema: Record<string, unknown>;
  /** Beyond the 2.1.0 spec; marked `x-extension: true` in OpenAPI. */
  extension?: boolean;
  style?: 'deepObject' | 'form';
  explode?: boolean;
  /** Named example values; documentation UIs offer them (Swagger UI prefills the first). */
  examples?: Record<string, { summary: string; value: unknown }>;
}

const q = (
  name: string,
  description: string,
  schema: Record<string, unknown>,
  extra: Partial<ParamSpec> = {},
): ParamSpec => ({
  name,
  in: 'query',
  description,
  schema,
  ...extra,
});

export const P = {
  db: {
    name: 'db',
    in: 'path',
    required: true,
    description: 'A configured public database (DB_NAMES).',
    schema: { type: 'string' },
  },
  table: {
    name: 'table',
    in: 'path',
    required: true,
    description: 'Table name.',
    schema: { type: 'string', pattern: TABLE_NAME_PATTERN.source, maxLength: 64 },
  },
  id: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'section_id: a positive decimal integer; a numeric string such as 007 is read as 7.',
    schema: { type: 'integer', minimum: BOUNDS.id.min, maximum: BOUNDS.id.max },
  },
  // Declared as a form-exploded object whose property names are whole filter keys: each property
  // becomes its own query parameter, so a documentation form (Swagger UI's JSON box) can express
  // every operator, and the examples below prefill it with something that works. A deepObject
  // would only reach one bracket level (filter[column]=value, eq alone).
  filter: q(
    'filter',
    `Filters as filter[column][op]=value (op defaults to eq): eq, ne, gt, gte, lt, lte, like (SQL % and _, backslash escapes), in and not_in (values joined by |), is_null and is_not_null (empty value). Repeated filters are ANDed. Values of numeric columns must be numbers. Brackets and pipes are percent-encoded on the wire (or use curl -g). At most ${BOUNDS.filters.maxClauses} clauses, ${BOUNDS.filters.maxValueLength} characters per value, ${BOUNDS.filters.maxListItems} values per list. In a documentation form, write an object whose keys are the whole parameter names, e.g. {"filter[lang][eq]": "lg-eng", "filter[section_id][lte]": "10"}.`,
    {
      type: 'object',
      propertyNames: { pattern: `^filter\\[[^\\[\\]]+\\](\\[(${FILTER_OPS.join('|')})\\])?$` },
      additionalProperties: { type: 'string' },
    },
    {
      style: 'form',
      explode: true,
      examples: {
        eq: { summary: 'equal (op may be left out)', value: { 'filter[lang][eq]': 'lg-eng' } },
        range: {
          summary: 'a range: gt, gte, lt, lte',
          value: { 'filter[section_id][gte]': '1', 'filter[section_id][lte]': '10' },
        },
        like: { summary: 'like (% any run, _ one character)', value: { 'filter[lang][like]': 'lg-%' } },
        in: { summary: 'in / not_in: values joined by |', value: { 'filter[section_id][in]': '1|2|3' } },
        isNull: { summary: 'is_null / is_not_null: empty value', value: { 'filter[lang][is_not_null]': '' } },
        ne: { summary: 'not equal', value: { 'filter[lang][ne]': 'lg-spa' } },
      },
    },
  ),
  sort: q(
    'sort',
    'Comma-separated columns; a leading - sorts descending. Ties are broken by section_id, lang.',
    { type: 'string' },
  ),
  fields: q('fields', 'Comma-separated column allowlist (default: all columns).', { type: 'string' }),
  limit: q('limit', 'Rows per page; 0 returns no rows (count only).', {
    type: 'integer',
    minimum: BOUNDS.limit.min,
    maximum: BOUNDS.limit.max,
    default: BOUNDS.limit.default,
  }),
  offset: q('offset', 'Rows to skip.', {
    type: 'integer',
    minimum: BOUNDS.offset.min,
    maximum: BOUNDS.offset.max,
    default: 0,
  }),
  count: q('count', 'Adds pagination.total (an extra COUNT query). Accepts true/1 and false/0.', {
    type: 'string',
    enum: ['true', '1', 'false', '0'],
  }),
  format: q(
    'format',
    'Answer as CSV (RFC 4180, header row) or NDJSON instead of the JSON page; also chosen by an Accept of text/csv or application/x-ndjson (format=json forces JSON). Without `limit` the export holds every matching row from `offset` on, up to EXPORT_MAX_ROWS, streamed; with `limit`, that page. Taken by the REST route only (batch and MCP stay JSON).',
    { type: 'string', enum: ['json', 'csv', 'ndjson'] },
    { extension: true },
  ),
  bom: q(
    'bom',
    'With format=csv: start the file with a UTF-8 byte order mark, so spreadsheets read it as UTF-8.',
    { type: 'string', enum: ['true', '1', 'false', '0'] },
    { extension: true },
  ),
  facetColumns: q(
    'columns',
    `Comma-separated indexed columns (primary key or an ordinary index) to count the values of; at most ${BOUNDS.facets.maxColumns}. A column without an index is a 400 naming the indexed ones.`,
    { type: 'string' },
    { required: true, extension: true },
  ),
  facetLimit: q('limit', 'Values per column, most frequent first (then by value).', {
    type: 'integer',
    minimum: BOUNDS.facets.limit.min,
    maximum: BOUNDS.facets.limit.max,
    default: BOUNDS.facets.limit.default,
  }),
  lang: q('lang', 'Language variant (lg-xxx); a 400 on a table without a lang column.', {
    type: 'string',
    pattern: LANG_PATTERN.source,
  }),
  resolveRelations: q(
    'resolve_relations',
    'JSON object mapping a column to a target table ("table" or "table.column"), or "auto" to follow link cells {"table","section_id"}. Dot notation (a.b.c) resolves nested relations down to depth 3; at most 10 keys, 50 ids per cell.',
    { type: 'string' },
  ),
  resolveInverse: q(
    'resolve_inverse_relations',
    'true to resolve dd_relations through publication_schema, or a JSON object mapping a section_tipo to a table.',
    { type: 'string' },
  ),
  q: q(
    'q',
    'Boolean full-text query: plain words (any), +word (required), -word (excluded), "quoted phrase", word* (prefix).',
    {
      type: 'string',
      minLength: BOUNDS.q.min,
      maxLength: BOUNDS.q.max,
    },
  ),
  searchColumn: q('column', 'The full-text indexed column to search.', {
    type: 'string',
    default: 'transcription',
  }),
} satisfies Record<string, ParamSpec>;

/** Marks a parameter as an extension of the 2.1.0 spec on a given route. */
export const extension = (p: ParamSpec, note: string): ParamSpec => ({
  ...p,
  extension: true,
  description: `${p.description} Extension beyond the 2.1.0 spec: ${note}`,
});
