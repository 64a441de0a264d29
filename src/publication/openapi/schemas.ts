/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of every envelope the API answers with.
 * They are written once here: the OpenAPI document embeds them, and the contract tests validate
 * real responses of every route against them, so the description cannot drift from the code.
 */
import { BOUNDS, LANG_PATTERN } from '../query/bounds.js';

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const obj = (properties: Record<string, Schema>, required: string[], extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required,
  ...extra,
});

const meta = (properties: Record<string, Schema> = {}, required: string[] = []) =>
  obj({ ...properties, response_time_ms: { type: 'number', minimum: 0 } }, ['response_time_ms', ...required]);

const fragmentText = str({ description: 'Tag-stripped, HTML-escaped excerpt; matches wrapped in <mark>.' });
const media = obj(
  {
    video_url: {
      type: ['string', 'null'],
      description:
        'Clip URL with vbegin/vend query keys (seconds) for the timecode window; null when the record has no media row.',
    },
    image_url: { type: ['string', 'null'] },
    tc_in: { type: 'number', minimum: 0 },
    tc_out: { type: 'number', minimum: 0 },
  },
  ['video_url', 'image_url', 'tc_in', 'tc_out'],
);
const speaker = obj({ name: str(), role: str() }, ['name', 'role']);

export const SCHEMAS: Record<string, Schema> = {
  Problem: obj(
    {
      type: str({ format: 'uri', description: 'Stable URI of the problem kind, e.g. .../not-found.' }),
      title: str(),
      status: int({ minimum: 400, maximum: 599 }),
      detail: str(),
      instance: str({
        description:
          'The path the client requested, BASE_PATH included; absent when the request was refused before it could be parsed (431, 408, a request line that is not HTTP).',
      }),
      errors: {
        type: 'array',
        description:
          'Always present: one entry per bad parameter (or the part of the request at fault) on 400, 408, 414 and 431; empty when no part of the request is at fault.',
        items: obj({ name: str(), in: { enum: ['query', 'path', 'header', 'body'] }, detail: str() }, [
          'name',
          'in',
          'detail',
        ]),
      },
    },
    ['type', 'title', 'status', 'detail', 'errors'],
  ),
  Index: obj(
    {
      name: str(),
      version: str({ const: '2.1.0' }),
      links: obj({ databases: str(), docs: str(), openapi: str(), health: str() }, [
        'databases',
        'docs',
        'openapi',
        'health',
      ]),
    },
    ['name', 'version', 'links'],
  ),
  DatabaseList: obj(
    {
      data: {
        type: 'array',
        items: obj({ name: str(), links: obj({ tables: str() }, ['tables']) }, ['name', 'links']),
      },
      meta: meta(),
    },
    ['data'],
  ),
  TableList: obj(
    {
      data: {
        type: 'array',
        items: obj(
          {
            name: str(),
            row_count: int({
              minimum: 0,
              description: "Estimate from the engine's statistics, not an exact count.",
            }),
            column_count: int({ minimum: 0 }),
          },
          ['name', 'row_count', 'column_count'],
        ),
      },
      meta: meta(),
    },
    ['data'],
  ),
  TableSchema: obj(
    {
      data: obj(
        {
          name: str(),
          row_count: int({ minimum: 0, description: 'Exact count.' }),
          columns: {
            type: 'array',
            items: obj({ name: str(), type: str({ description: 'SQL type name.' }) }, ['name', 'type']),
          },
        },
        ['name', 'row_count', 'columns'],
      ),
      meta: meta(),
    },
    ['data'],
  ),
  Row: {
    type: 'object',
    description:
      'A published row keyed by column name. Text cells holding a JSON array or object are returned parsed. Resolved relations replace the cell with the related rows.',
    properties: {
      section_id: int(),
      lang: str({ pattern: LANG_PATTERN.source }),
    },
    additionalProperties: true,
  },
  Pagination: obj(
    {
      limit: int({ minimum: BOUNDS.limit.min, maximum: BOUNDS.limit.max }),
      offset: int({ minimum: 0 }),
      total: int({ minimum: 0, description: 'Only when count is true.' }),
    },
    ['limit', 'offset'],
  ),
  RecordList: obj(
    { data: { type: 'array', items: ref('Row') }, pagination: ref('Pagination'), meta: meta() },
    ['data', 'pagination', 'meta'],
  ),
  SingleRecord: obj(
    {
      data: {
        type: 'array',
        items: ref('Row'),
        description: 'One row per language variant, ordered by lang.',
      },
      meta: meta(
        {
          section_id: int({ minimum: 1 }),
          languages: { type: 'array', items: str(), description: 'Only on tables with a lang column.' },
        },
        ['section_id'],
      ),
    },
    ['data', 'meta'],
  ),
  // `type` beside `allOf`: Scalar's document model reads a schema without a type as invalid and
  // logged "document validation errors" for this one.
  SearchRow: {
    type: 'object',
    allOf: [
      ref('Row'),
      obj(
        {
          relevance: { type: 'number', description: 'Higher is better (MariaDB MATCH score; SQLite -bm25).' },
          fragments: {
            type: 'array',
            items: obj({ text: fragmentText, position: int({ minimum: 0 }) }, ['text', 'position']),
          },
        },
        ['relevance', 'fragments'],
      ),
    ],
  },
  SearchList: obj(
    {
      data: { type: 'array', items: ref('SearchRow') },
      pagination: ref('Pagination'),
      meta: meta({
        candidates_capped: {
          type: 'boolean',
          const: true,
          description:
            'Present when SEARCH_MAX_CANDIDATES matching rows were reached: only that many best-ranked rows are served (pagination.total still counts every match).',
        },
      }),
    },
    ['data', 'pagination', 'meta'],
  ),
  FacetList: obj(
    {
      data: {
        type: 'array',
        items: obj(
          {
            column: str(),
            values: {
              type: 'array',
              description: 'Most frequent first, then by value.',
              items: obj(
                { value: { description: 'The cell value (null counts too).' }, count: int({ minimum: 1 }) },
                ['value', 'count'],
              ),
            },
            truncated: { type: 'boolean', description: 'More distinct values exist than `limit` returned.' },
          },
          ['column', 'values', 'truncated'],
        ),
      },
      meta: meta(),
    },
    ['data', 'meta'],
  ),
  TextFragments: obj(
    {
      data: {
        type: 'array',
        items: obj(
          {
            text: fragmentText,
            page: int({ description: 'From the last [page-n-X] marker before the match; absent when none.' }),
            position: int({ minimum: 0, description: 'Offset of the match in the stored text.' }),
          },
          ['text', 'position'],
        ),
      },
      meta: meta({ section_id: int(), terms: str() }, ['section_id', 'terms']),
    },
    ['data', 'meta'],
  ),
  AvFragments: obj(
    {
      data: {
        type: 'array',
        items: obj({ transcription: fragmentText, media, speakers: { type: 'array', items: speaker } }, [
          'transcription',
          'media',
          'speakers',
        ]),
      },
      meta: meta({ section_id: int(), terms: str() }, ['section_id', 'terms']),
    },
    ['data', 'meta'],
  ),
  IndexationFragment: obj(
    {
      data: obj(
        {
          locator: obj(
            {
              section_id: int(),
              tag_id: { type: ['integer', 'null'] },
              tc_in: { type: ['number', 'null'] },
              tc_out: { type: ['number', 'null'] },
            },
            ['section_id'],
          ),
          transcription: str(),
          media,
          speakers: { type: 'array', items: speaker },
          terms: { type: 'array', items: obj({ term_id: str(), term: str() }, ['term_id', 'term']) },
        },
        ['locator', 'transcription', 'media', 'speakers', 'terms'],
      ),
      meta: meta(),
    },
    ['data'],
  ),
  Health: obj(
    {
      status: { enum: ['ok', 'error'] },
      databases: { type: 'object', additionalProperties: { enum: ['connected', 'error'] } },
      circuit: {
        type: 'object',
        additionalProperties: { enum: ['closed', 'open'] },
        description:
          'Per database, its circuit breaker: `open` once the database is known to be down (a failed ping or connection), and data requests then answer 503 with Retry-After at once instead of waiting for REQUEST_TIMEOUT_MS, until a ping or a probe succeeds.',
      },
      uptime: { type: 'number', minimum: 0, description: 'Seconds since the server started.' },
      timestamp: str({ format: 'date-time' }),
      version: str(),
    },
    ['status', 'databases', 'uptime', 'timestamp', 'version'],
  ),
  BatchRequest: obj(
    {
      queries: {
        type: 'array',
        minItems: 1,
        maxItems: 20,
        items: obj(
          {
            id: str({ minLength: 1, description: 'Unique in the batch; echoed in the result.' }),
            path: str({
              pattern: '^/[^?#]*$',
              description:
                'A GET data route without BASE_PATH and without query string, e.g. /my_db/tables/interview/records.',
            }),
            params: {
              type: 'object',
              description: 'Query parameters; arrays become repeated keys (how several filters are passed).',
              additionalProperties: {
                oneOf: [
                  { type: ['string', 'number', 'boolean'] },
                  { type: 'array', items: { type: ['string', 'number', 'boolean'] } },
                ],
              },
            },
          },
          ['id', 'path'],
        ),
      },
    },
    ['queries'],
  ),
  BatchResult: obj(
    {
      results: {
        type: 'array',
        items: obj(
          {
            id: str(),
            status: int(),
            data: { description: "The route's own envelope (when status < 400)." },
            problem: ref('Problem'),
          },
          ['id', 'status'],
        ),
      },
      meta: meta(),
    },
    ['results'],
  ),
};
