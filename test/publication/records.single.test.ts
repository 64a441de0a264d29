import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DirectDb,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';

describe.each(engineCases())('single record on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  const record = (id: string | number, query = '', table = 'interview') =>
    s.get(`/${c.db}/tables/${table}/records/${id}${query}`);

  beforeAll(async () => {
    s = await startTestServer(c);
    direct = await c.openDirect();
  });
  afterAll(async () => {
    await s.close();
    await direct.close();
  });

  /** A record that exists in Spanish but lacks an English translation. */
  async function untranslatedId(): Promise<number> {
    const rows = await direct.query<{ section_id: number }>(
      "SELECT section_id FROM interview WHERE section_id NOT IN (SELECT section_id FROM interview WHERE lang = 'lg-eng') ORDER BY section_id LIMIT 1",
    );
    return rows[0]!.section_id;
  }

  it('returns every language variant ordered by lang, listed in meta.languages', async () => {
    const res = await record(1);
    expect(res.status).toBe(200);
    const langs = (
      await direct.query<{ lang: string }>('SELECT lang FROM interview WHERE section_id = 1 ORDER BY lang')
    ).map((r) => r.lang);
    expect(langs.length).toBeGreaterThan(0);
    expect(res.json.data.map((r: { lang: string }) => r.lang)).toEqual(langs);
    expect(res.json.meta).toMatchObject({ section_id: 1, languages: langs });
    expect(res.headers['content-language']).toBeUndefined();
  });

  it('narrows to one variant with lang and says so in Content-Language', async () => {
    const res = await record(1, '?lang=lg-spa');
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0].lang).toBe('lg-spa');
    expect(res.headers['content-language']).toBe('lg-spa');
    expect(res.json.meta.languages).toContain('lg-spa');
  });

  it('answers 404 when the record lacks the requested language', async () => {
    const id = await untranslatedId();
    const res = await record(id, '?lang=lg-eng');
    expect(res.status).toBe(404);
    expect(res.json.type).toMatch(/\/not-found$/);
    expect(res.json.detail).toMatch(/no lg-eng variant/);
    const ok = await record(id);
    expect(ok.json.data.map((r: { lang: string }) => r.lang)).not.toContain('lg-eng');
  });

  it('coerces numeric-string ids with leading zeros', async () => {
    const res = await record('007', '?lang=lg-spa');
    expect(res.status).toBe(200);
    expect(res.json.data[0].section_id).toBe(7);
    expect(res.json.meta.section_id).toBe(7);
  });

  it('refuses ids that are not positive whole numbers', async () => {
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999999999', '1e3', '%20']) {
      const res = await record(id);
      expect(res.status, id).toBe(400);
      expect(res.json.errors[0]).toMatchObject({ name: 'id', in: 'path' });
    }
  });

  it('answers 404 with a problem for a missing record', async () => {
    const res = await record(999999);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json).toMatchObject({ status: 404, title: 'Not Found' });
    expect(res.json.instance).toBe(`${new URL(s.base).pathname}/${c.db}/tables/interview/records/999999`);
  });

  it('has no meta.languages on a monolingual table', async () => {
    const res = await record(1, '', 'informant');
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(1);
    expect(res.json.meta).not.toHaveProperty('languages');
    expect(res.json.meta.section_id).toBe(1);
  });

  it('narrows columns with fields without losing the language list', async () => {
    const res = await record(1, '?fields=title');
    expect(res.status).toBe(200);
    expect(res.json.data.every((r: object) => Object.keys(r).join() === 'title')).toBe(true);
    expect(res.json.meta.languages.length).toBe(res.json.data.length);
    const bad = await record(1, '?fields=nope');
    expect(bad.status).toBe(400);
  });

  it('refuses list parameters that have no meaning on one record', async () => {
    for (const q of ['?limit=5', '?sort=lang', '?count=true', '?offset=1', '?filter[lang]=lg-spa']) {
      const res = await record(1, q);
      expect(res.status, q).toBe(400);
    }
  });
});
