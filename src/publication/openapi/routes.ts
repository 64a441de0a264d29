/**
 * The catalogue of routes as the OpenAPI document presents them: method, path, parameters,
 * answer schema and the problems each can give. Parameter declarations are shared with the
 * routes' validators (parameters.ts), so a parameter cannot be accepted without being documented.
 */
import { buildToolCatalogue } from '../mcp/tool-catalogue.js';
import { FRAGMENT_BOUNDS } from '../query/fragment-requests.js';
import { extension, P, type ParamSpec } from './parameters.js';

export interface RouteDoc {
  method: 'GET' | 'POST';
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  params: ParamSpec[];
  response?: string;
  requestBody?: string;
  status?: number;
  okDescription?: string;
  cacheable?: boolean;
  paged?: boolean;
  /** Also answers CSV and NDJSON exports (format=, Accept). */
  exports?: boolean;
  /** An HTML page for people (the browse pages), not JSON. */
  html?: boolean;
  contentLanguage?: boolean;
  database?: boolean;
  problems?: Record<string, string>;
}

const q = (
  name: string,
  description: string,
  schema: Record<string, unknown>,
  required = false,
): ParamSpec => ({
  name,
  in: 'query',
  description,
  schema,
  required,
});

const terms = q(
  'terms',
  'Whitespace-separated literal terms (no operators), matched as written, punctuation included, case- and accent-insensitive, never inside a longer word: `(cliff` needs the parenthesis, `cliff.` matches `cliff.`, `cliff` does not match `cliffs`. A term with no letter or digit is ignored.',
  { type: 'string', minLength: FRAGMENT_BOUNDS.terms.min, maxLength: FRAGMENT_BOUNDS.terms.max },
  true,
);
const maxCharacters = q('max_characters', 'Context size of each fragment, in characters.', {
  type: 'integer',
  minimum: FRAGMENT_BOUNDS.maxCharacters.min,
  maximum: FRAGMENT_BOUNDS.maxCharacters.max,
  default: FRAGMENT_BOUNDS.maxCharacters.default,
});
const maxOccurrences = q('max_occurrences', 'Maximum fragments per term.', {
  type: 'integer',
  minimum: FRAGMENT_BOUNDS.maxOccurrences.min,
  maximum: FRAGMENT_BOUNDS.maxOccurrences.max,
  default: FRAGMENT_BOUNDS.maxOccurrences.default,
});
const textColumn = q('column', 'Text column to search (must be a text column).', {
  type: 'string',
  default: 'transcription',
});
const seconds = (name: string) =>
  q(name, 'Seconds, at least 0 (milliseconds allowed).', { type: 'number', minimum: 0 });
const tipo = (name: string, description: string) =>
  q(name, description, { type: 'string', pattern: FRAGMENT_BOUNDS.tipo.pattern.source });

/** Parameters per validator: the routes read their accepted names from these lists. */
export const ROUTE_PARAMS = {
  records: [
    P.filter,
    P.sort,
    P.fields,
    P.limit,
    P.offset,
    P.lang,
    P.count,
    P.resolveRelations,
    P.resolveInverse,
    P.format,
    P.bom,
  ],
  record: [P.fields, P.lang, P.resolveRelations, P.resolveInverse],
  search: [
    P.q,
    P.searchColumn,
    P.limit,
    P.offset,
    P.count,
    P.resolveRelations,
    P.resolveInverse,
    extension(P.lang, 'a single-language result page.'),
    extension(P.fields, 'a light result page (the searched column is still used for fragments).'),
    extension(P.filter, 'narrow the search with the records filter syntax.'),
    P.format,
    P.bom,
  ],
  facets: [P.facetColumns, P.filter, extension(P.lang, 'count the rows of one language.'), P.facetLimit],
  fragments: [terms, textColumn, P.lang, maxCharacters, maxOccurrences],
  avFragments: [terms, P.lang, maxCharacters, maxOccurrences],
  indexation: [
    q(
      'section_id',
      'The record whose transcription holds the passage.',
      { type: 'integer', minimum: 1 },
      true,
    ),
    tipo(
      'section_tipo',
      'Section tipo, mapped to a table through publication_schema dd_relations (default: AV_TABLE).',
    ),
    tipo('component_tipo', 'Component tipo the indexation locators must name.'),
    q('tag_id', 'Index tag: the passage between [index-*-tag_id] and [/index-*-tag_id].', {
      type: 'integer',
      minimum: 1,
    }),
    seconds('tc_in'),
    seconds('tc_out'),
    extension(P.lang, 'the language of the transcription and of the terms.'),
  ],
} satisfies Record<string, ParamSpec[]>;

const tableParams = [P.db, P.table];
const notFound = (what: string) => ({ '404': `${what} not found (unknown db or table, or missing record).` });

export const ROUTES: RouteDoc[] = [
  {
    method: 'GET',
    path: '/',
    operationId: 'getIndex',
    tag: 'discovery',
    summary: 'Service index',
    params: [],
    response: 'Index',
  },
  {
    method: 'GET',
    path: '/databases',
    operationId: 'listDatabases',
    tag: 'discovery',
    summary: 'Public databases (DB_NAMES)',
    params: [],
    response: 'DatabaseList',
  },
  {
    method: 'GET',
    path: '/{db}/tables',
    operationId: 'listTables',
    tag: 'discovery',
    summary: 'Tables of a database with estimated row counts',
    params: [P.db],
    response: 'TableList',
    database: true,
    problems: notFound('Database'),
  },
  {
    method: 'GET',
    path: '/{db}/tables/{table}',
    operationId: 'describeTable',
    tag: 'discovery',
    summary: 'Columns and exact row count of a table',
    params: tableParams,
    response: 'TableSchema',
    database: true,
    problems: notFound('Table'),
  },
  {
    method: 'GET',
    path: '/{db}/tables/{table}/records',
    operationId: 'listRecords',
    tag: 'records',
    summary: 'A filtered, sorted page of records',
    description: 'Thesaurus tables (ts_*) are read here too.',
    params: [...tableParams, ...ROUTE_PARAMS.records],
    response: 'RecordList',
    paged: true,
    exports: true,
    database: true,
    problems: notFound('Table'),
  },
  {
    method: 'GET',
    path: '/{db}/tables/{table}/records/{id}',
    operationId: 'getRecord',
    tag: 'records',
    summary: 'One record with every language variant',
    params: [...tableParams, P.id, ...ROUTE_PARAMS.record],
    response: 'SingleRecord',
    contentLanguage: true,
    database: true,
    problems: notFound('Record'),
  },
  {
    method: 'GET',
    path: '/{db}/tables/{table}/facets',
    operationId: 'getFacets',
    tag: 'records',
    summary: 'Values of indexed columns with their counts under the records filters',
    description:
      'An extension of the spec, for building filter menus in one request: for each column in `columns`, its distinct values with the number of matching rows, most frequent first (ties by value), at most `limit` of them; `truncated` is true when more values exist. The filters and `lang` narrow the rows counted exactly as on the records list; on a multilingual table a row is a language variant, so give `lang` to count records. Only indexed columns can be counted, so a facet costs an index walk, never a sort of the table. Also the MCP tool get_facets and a batch query.',
    params: [...tableParams, ...ROUTE_PARAMS.facets],
    response: 'FacetList',
    contentLanguage: true,
    database: true,
    problems: notFound('Table'),
  },
  {
    method: 'GET',
    path: '/{db}/tables/{table}/search',
    operationId: 'searchRecords',
    tag: 'search',
    summary: 'Boolean full-text search with relevance and highlighted fragments',
    description:
      'Rows come best first (relevance, then the record key). At most SEARCH_MAX_CANDIDATES (default 1000) best-ranked matching rows are served, so a very common word costs bounded work: pages beyond them are empty and `meta.candidates_capped` is true when the cap was reached (more rows match); with count=true `pagination.total` is the exact number of matches.',
    params: [...tableParams, ...ROUTE_PARAMS.search],
    response: 'SearchList',
    paged: true,
    exports: true,
    database: true,
    problems: notFound('Table'),
  },
  {
    method: 'GET',
    path: '/{db}/tables/{table}/records/{id}/fragments',
    operationId: 'getTextFragments',
    tag: 'fragments',
    summary: 'Highlighted excerpts of a text column around literal terms, with page and position',
    description:
      'Without `lang`, every language variant is searched in lang order and each fragment names its variant in `lang`; `max_occurrences` counts over all of them.',
    params: [...tableParams, P.id, ...ROUTE_PARAMS.fragments],
    response: 'TextFragments',
    database: true,
    problems: notFound('Record'),
  },
  {
    method: 'GET',
    path: '/{db}/tables/{table}/records/{id}/av-fragments',
    operationId: 'getAvFragments',
    tag: 'fragments',
    summary: 'Transcription excerpts with the video window (timecodes) and speakers',
    description:
      'Reads one language variant of the transcription: the one named by `lang`, or without it the first, in lang order, in which a term occurs (each fragment names it in `lang`). The variants are translations over the same timecodes, so the same passage is never returned once per language.',
    params: [...tableParams, P.id, ...ROUTE_PARAMS.avFragments],
    response: 'AvFragments',
    database: true,
    problems: notFound('Record'),
  },
  {
    method: 'GET',
    path: '/{db}/av-indexation-fragment',
    operationId: 'getAvIndexationFragment',
    tag: 'fragments',
    summary: 'The passage a thesaurus indexation points at, with media, speakers and terms',
    params: [P.db, ...ROUTE_PARAMS.indexation],
    response: 'IndexationFragment',
    database: true,
    problems: notFound('Record'),
  },
  {
    method: 'POST',
    path: '/batch',
    operationId: 'runBatch',
    tag: 'batch',
    summary: 'Up to 20 GET data queries in one request',
    description:
      "Requires Content-Type: application/json (400 otherwise). Each query gets its own status and either `data` (the route envelope) or `problem`; one failure does not break the batch. A path to /docs, /health, /mcp, /openapi.yaml, /openapi.json or /batch, or a malformed path, is that query's own 400. Queries share one statement budget and cost one rate-limit token each, charged up front.",
    params: [],
    requestBody: 'BatchRequest',
    response: 'BatchResult',
    cacheable: false,
    database: true,
  },
  {
    method: 'GET',
    path: '/health',
    operationId: 'getHealth',
    tag: 'operations',
    summary: 'Pings every database; 200 when all answer, 503 otherwise; never cached',
    params: [],
    response: 'Health',
    cacheable: false,
    problems: { '503': 'At least one database is unreachable (body: Health with status "error").' },
  },
  {
    method: 'GET',
    path: '/openapi.yaml',
    operationId: 'getOpenApiYaml',
    tag: 'operations',
    summary: 'This description (YAML); also /openapi.json',
    params: [],
  },
  {
    method: 'GET',
    path: '/docs',
    operationId: 'getDocs',
    tag: 'operations',
    summary: 'Offline documentation: links to /docs/swagger and /docs/scalar',
    params: [],
  },
  ...browseRouteDocs(),
  {
    method: 'GET',
    path: '/favicon.ico',
    operationId: 'getFavicon',
    tag: 'operations',
    summary: 'No icon: 204',
    params: [],
    status: 204,
    okDescription: 'No content',
  },
];

/**
 * POST {MCP_PATH}, documented only when MCP_ENABLED (the path is configuration). The tools are
 * listed from the MCP catalogue itself, so the two cannot drift apart.
 */
export function mcpRouteDoc(mcpPath: string): RouteDoc {
  const tools = buildToolCatalogue([]).map((t) => `\`${t.name}\` (${t.title.toLowerCase()})`);
  return {
    method: 'POST',
    path: mcpPath,
    operationId: 'mcp',
    tag: 'mcp',
    summary: 'Model Context Protocol endpoint for AI agents (Streamable HTTP, stateless)',
    description: [
      'JSON-RPC 2.0 messages of the Model Context Protocol over the Streamable HTTP transport, without sessions: every POST is answered with JSON (no SSE stream), so GET and DELETE are 405.',
      'Requires Content-Type: application/json and Accept listing both application/json and text/event-stream; transport errors (406, 415, malformed JSON or JSON-RPC) are JSON-RPC error objects.',
      `Tools, each with an input and an output schema: ${tools.join(', ')}. They run the same validators and services as the REST routes, so bounds and messages match; a failure is a tool result with isError and the problem's detail and errors as text.`,
      'The request budget (statements, time-out), API keys and rate limiting apply as on any route; each tools/call of a JSON-RPC batch costs one rate-limit token.',
    ].join('\n\n'),
    params: [],
    okDescription: 'A JSON-RPC response (202 without body for notifications).',
    cacheable: false,
    database: true,
    problems: { '400': 'Malformed JSON or JSON-RPC message (the body is a JSON-RPC error object).' },
  };
}

/** The browse pages (routes/browse-routes.ts): HTML for people, extensions of the spec. */
function browseRouteDocs(): RouteDoc[] {
  const page = (
    path: string,
    operationId: string,
    summary: string,
    description: string,
    params: ParamSpec[],
  ) => ({
    method: 'GET' as const,
    path,
    operationId,
    tag: 'browse',
    summary,
    description: `${description} Server-rendered HTML in English, Spanish or Catalan (\`ui\`, else Accept-Language), readable without JavaScript, under a strict Content-Security-Policy; the API-key and rate-limit rules of the JSON routes apply; errors are HTML pages with the problem's status and detail. An extension of the spec.`,
    params: [...params, uiParam],
    html: true,
    database: true,
  });
  const browseQuery = (name: string, description: string) => q(name, description, { type: 'string' });
  const uiParam = q('ui', 'Interface language; links of the page carry it on.', {
    type: 'string',
    enum: ['en', 'es', 'ca'],
  });
  return [
    page(
      '/browse/',
      'browseHome',
      'Published databases (HTML)',
      'Links to each database. The API root answers a browser (Accept preferring text/html) with this page too.',
      [],
    ),
    page(
      '/browse/{db}/',
      'browseDatabase',
      'Tables of a database with row counts (HTML)',
      'Row counts are the engine estimates of /{db}/tables.',
      [P.db],
    ),
    page(
      '/browse/{db}/{table}',
      'browseTable',
      'Rows of a table: search, filters, sort, paging, facets, exports (HTML)',
      "The records list (or, with q, the full-text search, in every full-text column unless `column` names one) as a table, cards on narrow screens: related records by name, images as pictures, a header click sorts, `op[column]`/`v[column]` form fields become `filter[column][op]=v` (operators offered per column type), the records in the reader's language by default (`lang=all`: every language), facets of the indexed columns as links, and CSV/NDJSON/JSON links of the same selection. Each row links to its record page.",
      [
        P.db,
        P.table,
        browseQuery('q', 'Full-text search (tables with a full-text column); the search syntax of /search.'),
        browseQuery('column', 'The one full-text column to search; empty: every full-text column.'),
        browseQuery(
          'lang',
          'Language variant, or `all`; default: the interface language where the table has it.',
        ),
        browseQuery('sort', 'As on the records list.'),
        q('limit', 'Rows per page.', { type: 'integer', enum: [20, 50, 100], default: 20 }),
        q('offset', 'Rows to skip.', { type: 'integer', minimum: 0, default: 0 }),
        browseQuery(
          'op[column]',
          'The filter operator of a column (eq, ne, gt, gte, lt, lte, like, in, not_in, is_null, is_not_null).',
        ),
        browseQuery('v[column]', 'The filter value of a column; empty: no filter.'),
      ],
    ),
    page(
      '/browse/{db}/{table}/{id}',
      'browseRecord',
      'One record (HTML)',
      "The record in the reader's language (else another, said on the page; a field missing in it is taken from another version and marked), links to its other versions; related records by name; images as pictures; its recording in a player beside the transcript, whose timecodes seek it; transcriptions and full-text columns rendered with their timecodes, page markers and speakers (the tag grammar), with the words of `q` highlighted.",
      [
        P.db,
        P.table,
        P.id,
        browseQuery('lang', 'The language version to show.'),
        browseQuery('q', 'Words to highlight, in the search syntax.'),
      ],
    ),
  ];
}
