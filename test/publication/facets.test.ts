/**
 * GET /{db}/tables/{table}/facets: the values of indexed columns with their row counts under the
 * records filters, checked against GROUP BY queries on the same database; the bounds and the
 * index rule as problems; the same answer through batch and the MCP tool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DirectDb,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import { connectMcp, type McpSession } from './mcp-client.js';

const F = (s: string) => encodeURIComponent(s);

interface FacetValue {
  value: unknown;
  count: number;
}

describe.each(engineCases())('facets on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  let mcp: McpSession;
  const facets = (query: string, table = 'interview') => s.get(`/${c.db}/tables/${table}/facets?${query}`);
  /** The reference: a GROUP BY on the same database, most frequent first, ties by value. */
  const groupBy = async (table: string, column: string, where = '', params: unknown[] = []) => {
    const q = direct.q(column);
    const rows = await direct.query<{ value: unknown; n: number }>(
      `SELECT ${q} AS value, COUNT(*) AS n FROM ${direct.q(table)} ${where} GROUP BY ${q} ORDER BY n DESC, ${q}`,
      params,
    );
    return rows.map((r) => ({ value: r.value, count: Number(r.n) }));
  };

  beforeAll(async () => {
    s = await startTestServer(c);
    direct = await c.openDirect();
    mcp = await connectMcp(`${s.base}/mcp`);
  });
  afterAll(async () => {
    await mcp.close();
    await s.close();
    await direct.close();
  });

  it('counts the values of each asked column, most frequent first', async () => {
    const res = await facets('columns=lang,place&limit=100');
    expect(res.status).toBe(200);
    expect(res.json.data.map((f: { column: string }) => f.column)).toEqual(['lang', 'place']);
    const [lang, place] = res.json.data;
    expect(lang.values).toEqual(await groupBy('interview', 'lang'));
    expect(lang.truncated).toBe(false);
    expect(place.values).toEqual((await groupBy('interview', 'place')).slice(0, 100));
    const total = lang.values.reduce((n: number, v: FacetValue) => n + v.count, 0);
    expect(total).toBe(
      Number((await direct.query<{ n: number }>('SELECT COUNT(*) AS n FROM interview'))[0]!.n),
    );
  });

  it('narrows the counts with the records filters and lang', async () => {
    const res = await facets(`columns=place&limit=100&lang=lg-eng&${F('filter[date][gte]')}=1960-01-01`);
    expect(res.status).toBe(200);
    expect(res.headers['content-language']).toBe('lg-eng');
    expect(res.json.data[0].values).toEqual(
      (
        await groupBy('interview', 'place', `WHERE lang = ? AND ${direct.q('date')} >= ?`, [
          'lg-eng',
          '1960-01-01',
        ])
      ).slice(0, 100),
    );
  });

  it('returns the top limit values and says when more exist', async () => {
    const all = await groupBy('informant', 'birthplace');
    expect(all.length).toBeGreaterThan(3);
    const res = await facets('columns=birthplace&limit=3', 'informant');
    expect(res.json.data[0]).toEqual({ column: 'birthplace', values: all.slice(0, 3), truncated: true });
  });

  it('refuses columns without an index, naming the indexed ones, and other bad parameters', async () => {
    const plain = await facets('columns=title');
    expect(plain.status).toBe(400);
    expect(plain.json.errors[0].name).toBe('columns');
    expect(plain.json.detail).toMatch(/"title" of "interview" has no index/);
    expect(plain.json.detail).toMatch(/indexed columns: .*place/);
    const missing = await facets('limit=5');
    expect(missing.status).toBe(400);
    expect(missing.json.detail).toMatch(/columns is required/);
    const unknown = await facets('columns=nope');
    expect(unknown.json.detail).toMatch(/unknown column "nope"/);
    const tooMany = await facets(`columns=${Array.from({ length: 11 }, () => 'lang').join(',')}`);
    expect(tooMany.json.detail).toMatch(/at most 10/);
    const limit = await facets('columns=lang&limit=101');
    expect(limit.json.errors[0].name).toBe('limit');
    const filter = await facets(`columns=lang&${F('filter[nope]')}=1`);
    expect(filter.status).toBe(400);
    const mono = await facets('columns=gender&lang=lg-eng', 'informant');
    expect(mono.json.errors[0].name).toBe('lang');
    const table = await facets('columns=lang', 'nope');
    expect(table.status).toBe(404);
  });

  it('answers the same through batch and through the MCP tool get_facets', async () => {
    const direct = await facets('columns=lang,date&limit=5');
    const batch = await s.request(
      'POST',
      new URL(`${s.base}/batch`).pathname,
      { 'content-type': 'application/json' },
      JSON.stringify({
        queries: [
          { id: 'f', path: `/${c.db}/tables/interview/facets`, params: { columns: 'lang,date', limit: 5 } },
        ],
      }),
    );
    expect(batch.status).toBe(200);
    expect(batch.json.results[0].data.data).toEqual(direct.json.data);
    const tool = await mcp.client.callTool({
      name: 'get_facets',
      arguments: { db: c.db, table: 'interview', columns: ['lang', 'date'], limit: 5 },
    });
    expect(tool.isError).toBeFalsy();
    expect((tool.structuredContent as { data: unknown }).data).toEqual(direct.json.data);
    const bad = await mcp.client.callTool({
      name: 'get_facets',
      arguments: { table: 'interview', columns: ['title'] },
    });
    expect(bad.isError).toBe(true);
  });
});
