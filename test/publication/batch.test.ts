import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

describe.each(engineCases())('batch on $engine', (c) => {
  let s: TestServer;
  const bp = () => new URL(s.base).pathname;
  const batch = (body: unknown, type = 'application/json') =>
    s.request(
      'POST',
      `${bp()}/batch`,
      { 'Content-Type': type },
      typeof body === 'string' ? body : JSON.stringify(body),
    );

  beforeAll(async () => {
    s = await startTestServer(c);
  });
  afterAll(async () => s.close());

  it('answers each query in request order with the route envelope or its problem', async () => {
    const res = await batch({
      queries: [
        {
          id: 'page',
          path: `/${c.db}/tables/interview/records`,
          params: { limit: 3, lang: 'lg-spa', count: true },
        },
        { id: 'one', path: `/${c.db}/tables/informant/records/2` },
        { id: 'missing', path: `/${c.db}/tables/nope/records` },
        { id: 'bad', path: `/${c.db}/tables/interview/records`, params: { limit: 5000 } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.results.map((r: { id: string; status: number }) => [r.id, r.status])).toEqual([
      ['page', 200],
      ['one', 200],
      ['missing', 404],
      ['bad', 400],
    ]);
    const direct = await s.get(`/${c.db}/tables/interview/records?limit=3&lang=lg-spa&count=true`);
    expect(res.json.results[0].data.data).toEqual(direct.json.data);
    expect(res.json.results[0].data.pagination).toEqual(direct.json.pagination);
    expect(res.json.results[1].data.data[0].section_id).toBe(2);
    expect(res.json.results[2].problem.type).toMatch(/\/not-found$/);
    expect(res.json.results[2]).not.toHaveProperty('data');
    expect(res.json.results[3].problem.errors[0].name).toBe('limit');
  });

  it('turns array params into repeated keys, which is how filters are ANDed', async () => {
    const res = await batch({
      queries: [
        {
          id: 'f',
          path: `/${c.db}/tables/interview/records`,
          params: {
            'filter[section_id][in]': '1|2|3',
            'filter[section_id][ne]': ['1', '3'],
            fields: 'section_id',
          },
        },
      ],
    });
    const ids = new Set(res.json.results[0].data.data.map((r: { section_id: number }) => r.section_id));
    expect(ids).toEqual(new Set([2]));
  });

  it('refuses forbidden targets and malformed paths per query, keeping the others', async () => {
    const targets = [
      '/health',
      '/docs',
      '/docs/swagger',
      '/openapi.yaml',
      '/batch',
      '/mcp',
      'no-slash',
      `/${c.db}/tables?x=1`,
    ];
    const res = await batch({
      queries: [...targets.map((path, i) => ({ id: `t${i}`, path })), { id: 'ok', path: `/${c.db}/tables` }],
    });
    expect(res.status).toBe(200);
    const statuses = res.json.results.map((r: { status: number }) => r.status);
    expect(statuses).toEqual([...targets.map(() => 400), 200]);
    expect(res.json.results[0].problem.detail).toMatch(/may not target \/health/);
  });

  it('rejects a batch without a JSON content type, malformed JSON, or a bad shape with 400', async () => {
    const ok = { queries: [{ id: 'a', path: `/${c.db}/tables` }] };
    const plain = await batch(JSON.stringify(ok), 'text/plain');
    expect(plain.status).toBe(400);
    expect(plain.json.errors[0].name).toBe('Content-Type');
    expect((await batch('{"queries": [', 'application/json')).status).toBe(400);
    const shapes: [unknown, string][] = [
      [{}, 'queries'],
      [{ queries: [] }, 'queries'],
      [{ queries: Array.from({ length: 21 }, (_, i) => ({ id: `q${i}`, path: '/x' })) }, 'queries'],
      [{ queries: [{ id: '', path: '/x' }] }, 'queries[0].id'],
      [
        {
          queries: [
            { id: 'a', path: '/x' },
            { id: 'a', path: '/y' },
          ],
        },
        'queries[1].id',
      ],
      [{ queries: [{ id: 'a', path: 7 }] }, 'queries[0].path'],
      [{ queries: [{ id: 'a', path: '/x', params: { limit: { x: 1 } } }] }, 'queries[0].params.limit'],
      [[1, 2], 'body'],
    ];
    for (const [body, name] of shapes) {
      const res = await batch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        res.json.errors.map((e: { name: string }) => e.name),
        JSON.stringify(body),
      ).toContain(name);
    }
  });

  it('is POST only', async () => {
    const res = await s.get('/batch');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe.each(engineCases())('statement budget on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c, { REQUEST_MAX_STATEMENTS: '3' });
  });
  afterAll(async () => s.close());

  it('is shared by the queries of a batch: once spent, further queries get 429', async () => {
    const queries = Array.from({ length: 5 }, (_, i) => ({
      id: `q${i}`,
      path: `/${c.db}/tables/interview/records/${i + 1}`,
    }));
    const res = await s.request(
      'POST',
      `${new URL(s.base).pathname}/batch`,
      { 'Content-Type': 'application/json' },
      JSON.stringify({ queries }),
    );
    const statuses = res.json.results.map((r: { status: number }) => r.status);
    expect(statuses.filter((x: number) => x === 200)).toHaveLength(3);
    expect(statuses.filter((x: number) => x === 429)).toHaveLength(2);
    const limited = res.json.results.find((r: { status: number }) => r.status === 429);
    expect(limited.problem.type).toMatch(/\/too-many-statements$/);
  });

  it('is per request: each new request starts with a fresh budget', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await s.get(`/${c.db}/tables/interview/records?count=true&limit=1`)).status).toBe(200); // 2 statements
    }
  });

  it('answers a single request that needs more statements than allowed with 429', async () => {
    const tight = await startTestServer(c, { REQUEST_MAX_STATEMENTS: '1' });
    try {
      const res = await tight.get(`/${c.db}/tables/interview/records?count=true&limit=1`);
      expect(res.status).toBe(429);
      expect(res.json.type).toMatch(/\/too-many-statements$/);
      expect((await tight.get(`/${c.db}/tables/interview/records?limit=1`)).status).toBe(200);
    } finally {
      await tight.close();
    }
  });
});
