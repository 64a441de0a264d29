import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DirectDb,
  engineCases,
  type HttpResult,
  rawRequest,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import { normalizeWord, plainWords, tokensOf } from '../helpers/text-oracle.js';

interface StoredRow {
  section_id: number;
  lang: string;
  transcription: string;
}

const CAP = 6;
const V1_CODE = 'v1-candidates';
const key = (r: { section_id: number; lang: string }) => `${r.section_id}/${r.lang}`;

describe.each(engineCases())('full-text search candidate cap (SEARCH_MAX_CANDIDATES) on $engine', (c) => {
  let capped: TestServer;
  let full: TestServer;
  let direct: DirectDb;
  let stored: StoredRow[];
  const search = (query: string) => capped.get(`/${c.db}/tables/interview/search?${query}`);
  const keysOf = (res: { json: { data: StoredRow[] } }) => res.json.data.map(key);
  /** The legacy v1 API's free_search on the capped server. */
  const freeSearch = (params: Record<string, string>): Promise<HttpResult> =>
    rawRequest(
      `${new URL(capped.base).origin}/publication/server_api/v1/json/free_search?${new URLSearchParams({ code: V1_CODE, ...params })}`,
    );
  const v1Ids = (res: HttpResult) => res.json.result.map((n: { av_section_id: number }) => n.av_section_id);

  /** Rows whose transcription holds the word, as the index sees it. */
  const holding = (word: string) => stored.filter((r) => tokensOf(r.transcription).includes(word));

  /** A word held by `count(n)` rows. */
  function wordHeldBy(count: (n: number) => boolean): string {
    const counts = new Map<string, number>();
    for (const r of stored)
      for (const w of new Set(plainWords(r.transcription).map(normalizeWord)))
        counts.set(w, (counts.get(w) ?? 0) + 1);
    const word = [...counts].filter(([, n]) => count(n)).sort(([a], [b]) => a.localeCompare(b))[0]?.[0];
    expect(word).toBeDefined();
    return word!;
  }

  beforeAll(async () => {
    capped = await startTestServer(c, { SEARCH_MAX_CANDIDATES: String(CAP), V1_API_CODE: V1_CODE });
    // The default cap (1000) is above every match of the fixture: its answers rank every match.
    full = await startTestServer(c);
    direct = await c.openDirect();
    stored = await direct.query<StoredRow>('SELECT section_id, lang, transcription FROM interview');
  });
  afterAll(async () => {
    await capped.close();
    await full.close();
    await direct.close();
  });

  it('ranks at most the cap of a common word, says so in meta, and counts every match exactly', async () => {
    const word = wordHeldBy((n) => n >= 3 * CAP);
    const res = await search(`q=${encodeURIComponent(word)}&limit=1000&count=true`);
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(CAP);
    const all = new Set(holding(word).map(key));
    for (const k of keysOf(res)) expect(all.has(k)).toBe(true);
    // The count is a plain full-text count: the cap bounds the ranking, not `total`.
    expect(res.json.pagination.total).toBe(holding(word).length);
    expect(res.json.pagination.total).toBeGreaterThan(CAP);
    expect(res.json.meta.candidates_capped).toBe(true);
    const relevance = res.json.data.map((r: { relevance: number }) => r.relevance);
    expect([...relevance].sort((a, b) => b - a)).toEqual(relevance);
    expect(res.headers.link ?? '').not.toMatch(/rel="next"/);
  });

  it('keeps the best-ranked matches, as the uncapped search ranks them', async () => {
    const common = wordHeldBy((n) => n >= 3 * CAP);
    const other = wordHeldBy((n) => n >= CAP && n < 3 * CAP);
    for (const q of [common, `${common} ${other}`, `+${common} -${other}`, `"${common}"`]) {
      const query = `q=${encodeURIComponent(q)}&limit=1000`;
      const top = await full.get(`/${c.db}/tables/interview/search?${query}`);
      const res = await search(query);
      expect(res.status, q).toBe(200);
      const relevance = (r: { json: { data: { relevance: number }[] } }) =>
        r.json.data.map((x) => x.relevance);
      // Equal relevance may tie at the cut; the scores kept are the best ones all the same.
      expect(relevance(res), q).toEqual(relevance(top).slice(0, CAP));
      const boundary = relevance(res).at(-1)!;
      const above = (r: typeof top) =>
        r.json.data.filter((x: { relevance: number }) => x.relevance > boundary).map(key);
      expect(above(res), q).toEqual(above(top));
    }
  });

  it('pages through the same ranked candidates, each page flagged', async () => {
    const word = wordHeldBy((n) => n >= 3 * CAP);
    const whole = await search(`q=${encodeURIComponent(word)}&limit=1000`);
    const pages: string[] = [];
    for (let offset = 0; offset < CAP; offset += 4) {
      const page = await search(`q=${encodeURIComponent(word)}&limit=4&offset=${offset}`);
      expect(page.json.meta.candidates_capped).toBe(true);
      pages.push(...keysOf(page));
    }
    expect(pages).toEqual(keysOf(whole));
    // Past the candidates: an empty page that still says the cap was reached.
    const past = await search(`q=${encodeURIComponent(word)}&limit=4&offset=${CAP + 2}`);
    expect(past.json.data).toEqual([]);
    expect(past.json.meta.candidates_capped).toBe(true);
    const countOnly = await search(`q=${encodeURIComponent(word)}&limit=0&count=true`);
    expect(countOnly.json.pagination.total).toBe(holding(word).length);
    expect(countOnly.json.meta.candidates_capped).toBe(true);
  });

  it('ranks every match of a word below the cap, exactly, with no flag', async () => {
    const word = wordHeldBy((n) => n >= 2 && n < CAP);
    const res = await search(`q=${encodeURIComponent(word)}&limit=1000&count=true`);
    expect(new Set(keysOf(res))).toEqual(new Set(holding(word).map(key)));
    expect(res.json.pagination.total).toBe(holding(word).length);
    expect(res.json.meta).not.toHaveProperty('candidates_capped');
    const past = await search(`q=${encodeURIComponent(word)}&limit=4&offset=${CAP + 2}`);
    expect(past.json.data).toEqual([]);
    expect(past.json.meta).not.toHaveProperty('candidates_capped');
  });

  it('applies filters before the cap, so a narrow filter still finds its rows', async () => {
    const word = wordHeldBy((n) => n >= 3 * CAP);
    // The last of its rows in storage order: never among the first CAP candidates unfiltered.
    const last = holding(word).sort((a, b) => b.section_id - a.section_id)[0]!;
    const filter = encodeURIComponent('filter[section_id][gte]');
    const res = await search(
      `q=${encodeURIComponent(word)}&lang=${last.lang}&${filter}=${last.section_id}&limit=1000`,
    );
    expect(res.status, res.text).toBe(200);
    expect(keysOf(res)).toEqual([key(last)]);
    expect(res.json.meta).not.toHaveProperty('candidates_capped');
  });

  it('v1 free_search ranks the same capped candidates as v2 search and counts every match', async () => {
    const word = wordHeldBy((n) => n >= 3 * CAP);
    const lang = holding(word)[0]!.lang;
    const inLang = holding(word).filter((r) => r.lang === lang);
    const v2 = await search(`q=${encodeURIComponent(word)}&lang=${lang}&limit=1000`);
    const res = await freeSearch({ q: word, lang, rows_per_page: '100' });
    expect(res.json.msg, res.text).toBe('Ok. Request free_search done successfully');
    expect(res.json.total).toBe(inLang.length);
    expect(v1Ids(res)).toEqual(v2.json.data.map((r: StoredRow) => r.section_id));
    // Pages cut the same candidates; past them a page is empty.
    const page2 = await freeSearch({ q: word, lang, rows_per_page: '4', page_number: '2' });
    expect(v1Ids(page2)).toEqual(v1Ids(res).slice(4, 8));
    const past = await freeSearch({ q: word, lang, rows_per_page: '4', page_number: '3' });
    expect(past.json.result).toEqual([]);
  });

  it('v1 free_search applies its filter before the cap, on any column of the table', async () => {
    const word = wordHeldBy((n) => n >= 3 * CAP);
    const last = holding(word).sort((a, b) => b.section_id - a.section_id)[0]!;
    const narrow = await freeSearch({ q: word, lang: last.lang, filter: `section_id >= ${last.section_id}` });
    expect(narrow.json.total, narrow.text).toBe(1);
    expect(v1Ids(narrow)).toEqual([last.section_id]);
    // The searched column itself: on SQLite its name is also a column of the FTS5 table.
    const phrase = last.transcription.replace(/<[^>]*>|\[[^\]]*\]/g, ' ').match(/[A-Za-z]{6,}/)![0];
    const own = await freeSearch({
      q: word,
      lang: last.lang,
      filter: `transcription LIKE '%${phrase}%' AND section_id = ${last.section_id}`,
    });
    expect(own.json.total, own.text).toBe(1);
    expect(v1Ids(own)).toEqual([last.section_id]);
  });
});
