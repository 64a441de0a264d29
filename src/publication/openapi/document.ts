/**
 * Builds the OpenAPI 3.1 description from the route catalogue (routes.ts), the parameter
 * declarations (parameters.ts) and the envelope schemas (schemas.ts). Nothing here is written
 * twice: bounds and patterns come from query/bounds.ts, problem kinds from problems.ts.
 */
import { API_VERSION } from '../operations/discovery.js';
import { PROBLEM_BASE } from '../problems.js';
import type { ParamSpec } from './parameters.js';
import { mcpRouteDoc, ROUTES, type RouteDoc } from './routes.js';
import { SCHEMAS } from './schemas.js';

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const COMMON_HEADERS = {
  'X-Response-Time': { description: 'Server processing time, e.g. 3.21ms.', schema: { type: 'string' } },
  'X-Request-Id': {
    description: 'The request id (an incoming plain-token X-Request-Id is echoed).',
    schema: { type: 'string' },
  },
};
const CACHE_HEADERS = {
  ETag: { description: 'Weak ETag of the body (without meta.response_time_ms).', schema: { type: 'string' } },
  'Cache-Control': {
    description: 'public, max-age=CACHE_MAX_AGE (private when API keys are on).',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': { description: 'Bucket capacity (RATE_LIMIT_RPM).', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Whole tokens left.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the bucket is full again.', schema: { type: 'integer' } },
};

/** The export answers of the list routes (format=csv|ndjson or Accept). */
const EXPORT_CONTENT = {
  'text/csv': {
    schema: {
      type: 'string',
      description:
        'RFC 4180 CSV with a header row (the selected columns; search adds relevance and fragments). null is an empty cell; objects and lists are JSON text. Streamed; sent as an attachment named after the table.',
    },
  },
  'application/x-ndjson': {
    schema: { type: 'string', description: 'One JSON object per line, the rows of the JSON page. Streamed.' },
  },
};

function parameter(p: ParamSpec) {
  const out: Record<string, unknown> = {
    name: p.name,
    in: p.in,
    required: p.required ?? false,
    description: p.description,
    schema: p.schema,
  };
  if (p.style) out.style = p.style;
  if (p.explode !== undefined) out.explode = p.explode;
  if (p.examples) out.examples = p.examples;
  if (p.extension) out['x-extension'] = true;
  return out;
}

function operation(route: RouteDoc, apiKeys: boolean) {
  const headers: Record<string, unknown> = {
    ...COMMON_HEADERS,
    ...(route.cacheable === false ? {} : CACHE_HEADERS),
  };
  if (route.paged)
    headers.Link = {
      description: 'RFC 8288 rel="next" / rel="prev" page links.',
      schema: { type: 'string' },
    };
  if (route.contentLanguage)
    headers['Content-Language'] = { description: 'The lang asked for.', schema: { type: 'string' } };
  const responses: Record<string, unknown> = {
    [String(route.status ?? 200)]: {
      description: route.okDescription ?? 'OK',
      headers,
      ...(route.html
        ? { content: { 'text/html': { schema: { type: 'string' } } } }
        : route.response
          ? {
              content: {
                'application/json': { schema: { $ref: `#/components/schemas/${route.response}` } },
                ...(route.exports ? EXPORT_CONTENT : {}),
              },
            }
          : {}),
    },
  };
  if (route.cacheable !== false)
    responses['304'] = { description: 'Not modified (If-None-Match matched the ETag).' };
  for (const [status, description] of Object.entries(route.problems ?? {}))
    responses[status] = problemResponse(description);
  responses['400'] ??= problemResponse('Bad parameters; `errors` names each one.');
  if (apiKeys) responses['401'] = problemResponse('Missing or invalid X-API-Key.');
  responses['429'] = {
    ...problemResponse('Rate limit exceeded, or the request needs more database statements than allowed.'),
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
  };
  responses['500'] = problemResponse('Internal error.');
  if (route.database) {
    responses['503'] ??= problemResponse('A database is unavailable.');
    responses['504'] = problemResponse(
      'The request exceeded REQUEST_TIMEOUT_MS; the database work was stopped.',
    );
  }
  const op: Record<string, unknown> = {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    parameters: route.params.map(parameter),
    responses,
  };
  if (route.requestBody) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.requestBody}` } } },
    };
  }
  return op;
}

/**
 * The document of this server. `apiKeys`: API_KEYS is set, so the X-API-Key scheme (and its 401)
 * is described; without keys nothing is secured, and Swagger UI shows no lock icons.
 */
export function buildOpenApiDocument(options: { basePath: string; mcpPath?: string; apiKeys?: boolean }) {
  const apiKeys = options.apiKeys === true;
  const paths: Record<string, Record<string, unknown>> = {};
  const routes = options.mcpPath === undefined ? ROUTES : [...ROUTES, mcpRouteDoc(options.mcpPath)];
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route, apiKeys);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Dédalo publication API',
      version: API_VERSION,
      description: [
        'Read-only access to published archive databases: discovery, records with a filter DSL, full-text search with highlighted fragments, text and audiovisual fragments, relation resolution, batch and health.',
        '',
        `Errors are RFC 9457 problem+json; \`type\` is \`${PROBLEM_BASE}/<kind>\` with kinds bad-request, unauthorized, not-found, method-not-allowed, request-timeout (408), unsupported-media-type, payload-too-large, uri-too-long (414: a path segment over 500 characters), headers-too-large (431), rate-limited, too-many-statements, database-unavailable, timeout, internal. Every problem has an \`errors\` list: a 400 lists every bad parameter in it, and so do 408, 414 and 431; it is empty when no part of the request is at fault. Refusals raised before routing (431, 408, a 400 for a request line that is not HTTP) have no \`instance\`.`,
        '',
        'Unknown query parameters are a 400 (names starting with `_`, such as cache-busters, are ignored). HEAD works wherever GET does; a wrong method is a 405 with Allow. Responses are gzip/brotli-compressed on request.',
        '',
        'Each request may run at most REQUEST_MAX_STATEMENTS database statements (default 500; a batch shares one budget) within REQUEST_TIMEOUT_MS.',
        '',
        'Full-text engines differ in details: MariaDB ignores words shorter than innodb_ft_min_token_size (3) and its stopwords (including "de", "la", "en"), and treats `_` as part of a word; SQLite FTS5 (unicode61, diacritics removed) indexes every word and splits on `_`. Matching is case- and accent-insensitive on both.',
      ].join('\n'),
    },
    servers: [{ url: options.basePath || '/', description: 'This server (BASE_PATH)' }],
    tags: [
      { name: 'discovery' },
      { name: 'records' },
      { name: 'search' },
      { name: 'fragments' },
      { name: 'batch' },
      { name: 'operations' },
      { name: 'browse', description: 'HTML pages a person can browse (an extension of the spec).' },
      ...(options.mcpPath === undefined ? [] : [{ name: 'mcp' }]),
    ],
    paths,
    components: {
      schemas: SCHEMAS,
      ...(apiKeys
        ? { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } }
        : {}),
    },
    ...(apiKeys ? { security: [{ apiKey: [] }] } : {}),
  };
}
