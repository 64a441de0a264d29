import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/publication/openapi/routes.js';
import { READ_OPERATIONS } from '../../src/publication/operations/read-operations.js';
import { BATCH_FORBIDDEN_TARGETS } from '../../src/publication/query/batch-request.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';
import { normalizeWord, plainWords } from '../helpers/text-oracle.js';

type Params = Record<string, string | number | boolean | (string | number | boolean)[]>;
interface Query {
  id: string;
  path: string;
  params?: Params;
}

/** The query string a client would write for the same params (arrays as repeated keys). */
function queryString(params: Params = {}): string {
  return Object.entries(params)
    .flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(String(x))}`),
    )
    .join('&');
}

/** A body without the one field that legitimately differs between two runs: the timing. */
function untimed(body: unknown): unknown {
  if (body === undefined || body === null || typeof body !== 'object') return body;
  const { meta, ...rest } = body as { meta?: Record<string, unknown> };
  if (meta === undefined) return body;
  const { response_time_ms: _ms, ...kept } = meta;
  return { ...rest, meta: kept };
}

describe.each(engineCases())('a batch query answers what the direct GET answers on $engine', (c) => {
  let s: TestServer;
  let word: string;
  let locator: { section_id: number; tag_id: number };

  beforeAll(async () => {
    s = await startTestServer(c);
    const direct = await c.openDirect();
    try {
      const [row] = await direct.query<{ transcription: string }>(
        'SELECT transcription FROM interview WHERE section_id = 1',
      );
      word = plainWords(row!.transcription)
        .map(normalizeWord)
        .find((w) => w.length >= 6)!;
      const ts = await direct.query<{ indexation: string }>(
        'SELECT indexation FROM ts_themes WHERE indexation IS NOT NULL ORDER BY section_id',
      );
      const first = JSON.parse(ts[0]!.indexation)[0];
      locator = { section_id: Number(first.section_id), tag_id: Number(first.tag_id) };
    } finally {
      await direct.close();
    }
  });
  afterAll(async () => s.close());

  it('same status and body for every kind of read, success or failure', async () => {
    const db = c.db;
    const queries: Query[] = [
      { id: 'index', path: '/' },
      { id: 'favicon', path: '/favicon.ico' },
      { id: 'databases', path: '/databases' },
      { id: 'tables', path: `/${db}/tables` },
      { id: 'table', path: `/${db}/tables/interview` },
      {
        id: 'page',
        path: `/${db}/tables/interview/records`,
        params: { limit: 3, offset: 1, lang: 'lg-spa', count: true, sort: '-section_id' },
      },
      {
        id: 'filters',
        path: `/${db}/tables/interview/records`,
        params: {
          'filter[section_id][in]': '1|2|3',
          'filter[section_id][ne]': ['2'],
          fields: 'section_id,lang',
        },
      },
      {
        id: 'relations',
        path: `/${db}/tables/interview/records`,
        params: { lang: 'lg-spa', limit: 5, resolve_relations: JSON.stringify({ informant: 'informant' }) },
      },
      { id: 'record', path: `/${db}/tables/interview/records/1` },
      {
        id: 'record-lang',
        path: `/${db}/tables/interview/records/001`,
        params: { lang: 'lg-spa', fields: 'title' },
      },
      { id: 'encoded-table', path: `/${db}/tables/inter%76iew/records/1` },
      { id: 'search', path: `/${db}/tables/interview/search`, params: { q: word, limit: 5, count: true } },
      { id: 'fragments', path: `/${db}/tables/interview/records/1/fragments`, params: { terms: word } },
      {
        id: 'av-fragments',
        path: `/${db}/tables/interview/records/1/av-fragments`,
        params: { terms: word, max_occurrences: 2 },
      },
      { id: 'indexation', path: `/${db}/av-indexation-fragment`, params: { ...locator } },
      { id: 'no-table', path: `/${db}/tables/nope/records` },
      { id: 'no-db', path: '/nope/tables' },
      { id: 'bad-table-name', path: `/${db}/tables/no-pe/records` },
      { id: 'no-record', path: `/${db}/tables/interview/records/999999` },
      { id: 'bad-id', path: `/${db}/tables/interview/records/abc` },
      {
        id: 'bad-params',
        path: `/${db}/tables/interview/records`,
        params: { limit: 5000, lang: 'english', limt: 1 },
      },
      { id: 'no-terms', path: `/${db}/tables/interview/records/1/fragments` },
      { id: 'no-route', path: `/${db}/nothing/here` },
      { id: 'bad-encoding', path: `/${db}/tables/%E0%A4%A/records`, params: { limit: 1 } },
    ];
    // A batch holds at most 20 queries: two batches.
    const results: { id: string; status: number; data?: unknown; problem?: unknown }[] = [];
    for (const chunk of [queries.slice(0, 12), queries.slice(12)]) {
      const res = await s.request(
        'POST',
        `${new URL(s.base).pathname}/batch`,
        { 'Content-Type': 'application/json' },
        JSON.stringify({ queries: chunk }),
      );
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      results.push(...res.json.results);
    }
    expect(results.map((r) => r.id)).toEqual(queries.map((q) => q.id));
    for (const [i, q] of queries.entries()) {
      const qs = queryString(q.params);
      const direct = await s.get(`${q.path}${qs ? `?${qs}` : ''}`);
      const got = results[i]!;
      expect(got.status, q.id).toBe(direct.status);
      expect(untimed(direct.status < 400 ? got.data : got.problem), q.id).toEqual(untimed(direct.json));
    }
    // The set covers successes and each kind of refusal, so the comparison above means something.
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([200, 204, 400, 404]));
  });

  it('times each query: data envelopes carry their own meta.response_time_ms', async () => {
    const res = await s.request(
      'POST',
      `${new URL(s.base).pathname}/batch`,
      { 'Content-Type': 'application/json' },
      JSON.stringify({ queries: [{ id: 'a', path: `/${c.db}/tables/interview/records/1` }] }),
    );
    expect(typeof res.json.results[0].data.meta.response_time_ms).toBe('number');
  });
});

describe('the batch matcher knows every GET data route', () => {
  it('each documented GET route a batch may name is a read operation, and nothing else is', () => {
    const batchable = ROUTES.filter(
      (r) =>
        r.method === 'GET' &&
        !BATCH_FORBIDDEN_TARGETS.some((t) => r.path === t || r.path.startsWith(`${t}/`)),
    ).map((r) => r.path.replace(/\{(\w+)\}/g, ':$1'));
    expect(READ_OPERATIONS.map((o) => o.path).sort()).toEqual(batchable.sort());
  });
});
