import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DirectDb,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';

const F = (s: string) => encodeURIComponent(s); // percent-encode brackets and pipes as clients must

describe.each(engineCases())('records list on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  const records = (query = '', table = 'interview') => s.get(`/${c.db}/tables/${table}/records${query}`);
  const count = async (where = '', params: unknown[] = []) =>
    Number((await direct.query<{ n: number }>(`SELECT COUNT(*) AS n FROM interview ${where}`, params))[0]!.n);

  beforeAll(async () => {
    s = await startTestServer(c);
    direct = await c.openDirect();
  });
  afterAll(async () => {
    await s.close();
    await direct.close();
  });

  it('serves 100 rows by default in record order (section_id, then lang)', async () => {
    const res = await records();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const expected = await direct.query<{ section_id: number; lang: string }>(
      'SELECT section_id, lang FROM interview ORDER BY section_id, lang LIMIT 100',
    );
    expect(res.json.data.map((r: { section_id: number; lang: string }) => [r.section_id, r.lang])).toEqual(
      expected.map((r) => [r.section_id, r.lang]),
    );
    expect(res.json.pagination).toEqual({ limit: 100, offset: 0 });
    expect(typeof res.json.meta.response_time_ms).toBe('number');
  });

  it('filters with the default eq operator', async () => {
    const res = await records(`?${F('filter[lang]')}=lg-eng&count=true&limit=1000`);
    expect(res.status).toBe(200);
    expect(res.json.data.length).toBeGreaterThan(0);
    expect(res.json.data.every((r: { lang: string }) => r.lang === 'lg-eng')).toBe(true);
    expect(res.json.pagination.total).toBe(await count('WHERE lang = ?', ['lg-eng']));
    expect(res.json.data.length).toBe(res.json.pagination.total);
  });

  it('compares numeric columns as numbers with ne, gt, gte, lt, lte', async () => {
    const res = await records(
      `?${F('filter[section_id][gt]')}=9&${F('filter[section_id][lte]')}=20&${F('filter[section_id][ne]')}=15&${F('filter[lang]')}=lg-spa`,
    );
    expect(res.status).toBe(200);
    const ids = res.json.data.map((r: { section_id: number }) => r.section_id);
    expect(ids).toEqual([10, 11, 12, 13, 14, 16, 17, 18, 19, 20]);
    const gte = await records(
      `?${F('filter[section_id][gte]')}=58&${F('filter[section_id][lt]')}=60&fields=section_id`,
    );
    expect(new Set(gte.json.data.map((r: { section_id: number }) => r.section_id))).toEqual(
      new Set([58, 59]),
    );
  });

  it('matches SQL LIKE patterns with like', async () => {
    const res = await records(`?${F('filter[code][like]')}=${F('OH-00001%')}&count=1`);
    expect(res.status).toBe(200);
    expect(res.json.data.every((r: { code: string }) => r.code.startsWith('OH-00001'))).toBe(true);
    expect(res.json.pagination.total).toBe(await count('WHERE code LIKE ?', ['OH-00001%']));
    expect(res.json.pagination.total).toBeGreaterThan(0);
  });

  it('in splits on pipes and ANDs with other filters', async () => {
    const res = await records(`?${F('filter[section_id][in]')}=${F('3|5|8')}&${F('filter[lang]')}=lg-spa`);
    expect(res.status).toBe(200);
    expect(res.json.data.map((r: { section_id: number; lang: string }) => [r.section_id, r.lang])).toEqual([
      [3, 'lg-spa'],
      [5, 'lg-spa'],
      [8, 'lg-spa'],
    ]);
  });

  it('not_in excludes every listed value', async () => {
    const res = await records(`?${F('filter[lang][not_in]')}=${F('lg-spa|lg-eng')}&count=true&limit=1000`);
    expect(res.status).toBe(200);
    expect(res.json.data.every((r: { lang: string }) => r.lang !== 'lg-spa' && r.lang !== 'lg-eng')).toBe(
      true,
    );
    expect(res.json.pagination.total).toBe(await count("WHERE lang NOT IN ('lg-spa', 'lg-eng')"));
  });

  it('is_null and is_not_null take an empty value and split the table', async () => {
    const nulls = await records(`?${F('filter[link][is_null]')}=&count=true&limit=0`);
    const notNulls = await records(`?${F('filter[link][is_not_null]')}&count=true&limit=0`);
    expect(nulls.status).toBe(200);
    expect(notNulls.status).toBe(200);
    expect(nulls.json.pagination.total).toBe(await count('WHERE link IS NULL'));
    expect(nulls.json.pagination.total + notNulls.json.pagination.total).toBe(await count());
    expect(nulls.json.data).toEqual([]);
    const bad = await records(`?${F('filter[link][is_null]')}=yes`);
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].name).toBe('filter[link][is_null]');
  });

  it('accepts unencoded brackets too and ANDs repeated filters on the same key', async () => {
    const res = await records('?filter[section_id][ne]=1&filter[section_id][ne]=2&filter[section_id][lte]=3');
    expect(res.status).toBe(200);
    expect(new Set(res.json.data.map((r: { section_id: number }) => r.section_id))).toEqual(new Set([3]));
  });

  it('names every bad filter in one 400 problem', async () => {
    const res = await records(
      `?${F('filter[nope][eq]')}=1&${F('filter[section_id][between]')}=1&${F('filter[section_id]')}=abc&${F('filter[a')}=1`,
    );
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const names = res.json.errors.map((e: { name: string }) => e.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'filter[nope][eq]',
        'filter[section_id][between]',
        'filter[section_id]',
        'filter[a',
      ]),
    );
    expect(res.json.errors.find((e: { name: string }) => e.name === 'filter[nope][eq]').detail).toMatch(
      /unknown column "nope"/,
    );
  });

  it('treats injection attempts in names and values as data or as 400, never as SQL', async () => {
    const value = await records(`?${F('filter[title]')}=${F("x' OR '1'='1")}&count=1`);
    expect(value.status).toBe(200);
    expect(value.json.pagination.total).toBe(0);
    const evilKey = F('filter[title` OR 1=1 --][eq]');
    const name = await records(`?${evilKey}=1`);
    expect(name.status).toBe(400);
    const sort = await records(`?sort=${F('section_id; DROP TABLE interview')}`);
    expect(sort.status).toBe(400);
  });

  it('sorts by several columns, descending with a leading minus', async () => {
    const res = await records(`?sort=${F('-date,section_id')}&fields=${F('section_id,lang,date')}&limit=50`);
    expect(res.status).toBe(200);
    const expected = await direct.query<{ section_id: number; lang: string }>(
      `SELECT section_id, lang FROM interview ORDER BY ${direct.q('date')} DESC, section_id, lang LIMIT 50`,
    );
    expect(res.json.data.map((r: { section_id: number; lang: string }) => [r.section_id, r.lang])).toEqual(
      expected.map((r) => [r.section_id, r.lang]),
    );
    expect(Object.keys(res.json.data[0]).sort()).toEqual(['date', 'lang', 'section_id']);
  });

  it('refuses unknown, repeated or empty sort columns', async () => {
    for (const sort of ['nope', 'section_id,section_id', 'section_id,,lang', '-']) {
      const res = await records(`?sort=${F(sort)}`);
      expect(res.status, sort).toBe(400);
      expect(res.json.errors[0].name).toBe('sort');
    }
  });

  it('returns only the listed fields and refuses unknown ones', async () => {
    const res = await records('?fields=section_id,title&limit=3');
    expect(res.json.data.every((r: object) => Object.keys(r).join() === 'section_id,title')).toBe(true);
    const bad = await records('?fields=section_id,secret');
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0]).toMatchObject({ name: 'fields', in: 'query' });
  });

  it('narrows to one language with lang and refuses lang on a monolingual table', async () => {
    const res = await records('?lang=lg-cat&limit=1000&count=true');
    expect(res.status).toBe(200);
    expect(res.json.data.every((r: { lang: string }) => r.lang === 'lg-cat')).toBe(true);
    expect(res.json.pagination.total).toBe(await count('WHERE lang = ?', ['lg-cat']));
    const mono = await records('?lang=lg-eng', 'informant');
    expect(mono.status).toBe(400);
    expect(mono.json.errors[0].name).toBe('lang');
    expect(mono.json.detail).toMatch(/no lang column/);
    const malformed = await records('?lang=english');
    expect(malformed.status).toBe(400);
  });

  it('limit 0 returns no rows, count adds the exact total only when asked', async () => {
    const zero = await records('?limit=0&count=1');
    expect(zero.json.data).toEqual([]);
    expect(zero.json.pagination).toEqual({ limit: 0, offset: 0, total: await count() });
    const noCount = await records('?limit=0');
    expect(noCount.json.pagination).toEqual({ limit: 0, offset: 0 });
    const falseCount = await records('?limit=0&count=false');
    expect(falseCount.json.pagination.total).toBeUndefined();
  });

  it('refuses limits and offsets outside their bounds or not whole numbers', async () => {
    for (const q of [
      'limit=1001',
      'limit=-1',
      'limit=abc',
      'limit=1e3',
      'limit=',
      'offset=-5',
      'offset=1.5',
      'limit=99999999999999999999',
      'count=yes',
      'limit=1&limit=2',
    ]) {
      const res = await records(`?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.json.errors.length, q).toBeGreaterThan(0);
    }
    const max = await records('?limit=1000');
    expect(max.status).toBe(200);
  });

  it('refuses unknown parameters but ignores underscore cache-busters', async () => {
    const typo = await records('?limt=5');
    expect(typo.status).toBe(400);
    expect(typo.json.errors[0].name).toBe('limt');
    const buster = await records('?_=12345&limit=1');
    expect(buster.status).toBe(200);
  });

  it('pages with offset and announces next and prev pages in the Link header', async () => {
    const total = await count();
    const first = await records('?limit=10&fields=section_id,lang');
    expect(first.headers.link).toMatch(/offset=10>; rel="next"/);
    expect(first.headers.link).not.toMatch(/rel="prev"/);
    const second = await records('?limit=10&offset=10&fields=section_id,lang');
    const link = String(second.headers.link);
    expect(link).toContain(
      `<${new URL(s.base).pathname}/${c.db}/tables/interview/records?limit=10&fields=section_id,lang&offset=20>; rel="next"`,
    );
    expect(link).toContain('offset=0>; rel="prev"');
    const all = await records('?limit=1000&fields=section_id,lang');
    expect([...first.json.data, ...second.json.data]).toEqual(all.json.data.slice(0, 20));
    const last = await records(`?limit=10&offset=${total - 5}`);
    expect(last.json.data.length).toBe(5);
    expect(last.headers.link).not.toMatch(/rel="next"/);
    expect(last.headers.link).toMatch(/rel="prev"/);
  });

  it('returns JSON-looking text cells parsed and other text as stored', async () => {
    const res = await records(`?${F('filter[link][is_not_null]')}&limit=5`);
    const row = res.json.data[0];
    expect(Array.isArray(row.informant)).toBe(true);
    expect(row.link).toMatchObject({ table: 'informant' });
    expect(typeof row.title).toBe('string');
    const raw = await direct.query<{ informant: string }>(
      'SELECT informant FROM interview WHERE section_id = ? AND lang = ?',
      [row.section_id, row.lang],
    );
    expect(row.informant).toEqual(JSON.parse(raw[0]!.informant));
  });
});
