import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DirectDb,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import { normalizeWord, plainWords, tokensOf } from '../helpers/text-oracle.js';

interface StoredRow {
  section_id: number;
  lang: string;
  transcription: string;
}

const key = (r: { section_id: number; lang: string }) => `${r.section_id}/${r.lang}`;

describe.each(engineCases())('full-text search on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  let stored: StoredRow[];
  const search = (query: string) => s.get(`/${c.db}/tables/interview/search?${query}`);
  const expectedKeys = (predicate: (tokens: string[]) => boolean) =>
    new Set(stored.filter((r) => predicate(tokensOf(r.transcription))).map(key));

  /** A word of the transcriptions found in several rows, but not in all (so filters matter). */
  function pickWord(skip = 0): string {
    const counts = new Map<string, number>();
    for (const r of stored)
      for (const w of new Set(plainWords(r.transcription).map(normalizeWord)))
        counts.set(w, (counts.get(w) ?? 0) + 1);
    const good = [...counts]
      .filter(([, n]) => n >= 3 && n <= stored.length / 3)
      .map(([w]) => w)
      .sort();
    return good[skip * 7]!;
  }

  beforeAll(async () => {
    s = await startTestServer(c);
    direct = await c.openDirect();
    stored = await direct.query<StoredRow>('SELECT section_id, lang, transcription FROM interview');
  });
  afterAll(async () => {
    await s.close();
    await direct.close();
  });

  it('finds exactly the rows whose text holds the word, best first, with relevance', async () => {
    const word = pickWord();
    const res = await search(`q=${encodeURIComponent(word)}&limit=1000&count=true`);
    expect(res.status).toBe(200);
    const got = new Set(res.json.data.map(key));
    expect(got).toEqual(expectedKeys((t) => t.includes(word)));
    expect(res.json.pagination.total).toBe(got.size);
    const relevance = res.json.data.map((r: { relevance: number }) => r.relevance);
    expect(relevance.every((x: number) => typeof x === 'number' && x > 0)).toBe(true);
    expect([...relevance].sort((a, b) => b - a)).toEqual(relevance);
  });

  it('highlights the searched word in tag-free, escaped fragments with their position', async () => {
    const word = pickWord(1);
    const res = await search(`q=${encodeURIComponent(word)}&limit=5`);
    for (const row of res.json.data) {
      expect(row.fragments.length).toBeGreaterThan(0);
      const f = row.fragments[0];
      const marked = [...f.text.matchAll(/<mark>(.*?)<\/mark>/g)].map((m: RegExpMatchArray) =>
        normalizeWord(m[1]!),
      );
      expect(marked).toContain(word);
      expect(f.text.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]|\[(tc|TC|index|person|page)/);
      const storedText = stored.find((r) => key(r) === key(row))!.transcription;
      expect(normalizeWord(storedText.slice(f.position, f.position + word.length))).toBe(word);
    }
  });

  it('is case- and accent-insensitive like the database', async () => {
    const accented = [...new Set(stored.flatMap((r) => plainWords(r.transcription)))].find((w) =>
      /[áéíóúàèòç]/i.test(w),
    );
    expect(accented).toBeDefined();
    const bare = normalizeWord(accented!).toUpperCase();
    const res = await search(`q=${encodeURIComponent(bare)}&limit=1000`);
    expect(new Set(res.json.data.map(key))).toEqual(
      expectedKeys((t) => t.includes(normalizeWord(accented!))),
    );
    expect(res.json.data[0].fragments[0].text).toMatch(/<mark>[^<]*[áéíóúàèòç][^<]*<\/mark>/i);
  });

  it('requires +words, excludes -words (never marked) and ORs plain words', async () => {
    const a = pickWord(0);
    const b = pickWord(2);
    const req = await search(`q=${encodeURIComponent(`+${a} -${b}`)}&limit=1000`);
    expect(req.status).toBe(200);
    expect(new Set(req.json.data.map(key))).toEqual(expectedKeys((t) => t.includes(a) && !t.includes(b)));
    for (const row of req.json.data) {
      for (const f of row.fragments) expect(normalizeWord(f.text)).not.toContain(`<mark>${b}</mark>`);
    }
    const either = await search(`q=${encodeURIComponent(`${a} ${b}`)}&limit=1000`);
    expect(new Set(either.json.data.map(key))).toEqual(expectedKeys((t) => t.includes(a) || t.includes(b)));
  });

  it('matches quoted phrases and word* prefixes', async () => {
    const sample = stored[3]!.transcription.replace(/\[[^\]]*\]|<[^>]*>/g, ' ');
    const pair = sample.match(/([\p{L}]{5,})[ ]([\p{L}]{5,})/u)!;
    const [w1, w2] = [normalizeWord(pair[1]!), normalizeWord(pair[2]!)];
    const phrase = await search(`q=${encodeURIComponent(`"${pair[1]} ${pair[2]}"`)}&limit=1000`);
    const adjacent = (t: string[]) => t.some((x, i) => x === w1 && t[i + 1] === w2);
    expect(new Set(phrase.json.data.map(key))).toEqual(expectedKeys(adjacent));
    expect(phrase.json.data.length).toBeGreaterThan(0);
    const stem = pickWord(3).slice(0, 5);
    const prefix = await search(`q=${encodeURIComponent(`${stem}*`)}&limit=1000`);
    expect(new Set(prefix.json.data.map(key))).toEqual(
      expectedKeys((t) => t.some((x) => x.startsWith(stem))),
    );
  });

  it('narrows with the lang, fields and filter extensions', async () => {
    const word = pickWord();
    const res = await search(
      `q=${word}&lang=lg-eng&fields=section_id,lang&${encodeURIComponent('filter[section_id][lte]')}=30&limit=1000`,
    );
    expect(res.status).toBe(200);
    expect(new Set(res.json.data.map(key))).toEqual(
      new Set(
        stored
          .filter(
            (r) => r.lang === 'lg-eng' && r.section_id <= 30 && tokensOf(r.transcription).includes(word),
          )
          .map(key),
      ),
    );
    for (const row of res.json.data) {
      expect(Object.keys(row).sort()).toEqual(['fragments', 'lang', 'relevance', 'section_id']);
    }
  });

  it('searches another indexed column and refuses unindexed or unknown ones', async () => {
    const abstracts = await direct.query<{ abstract: string }>('SELECT abstract FROM interview');
    const word = normalizeWord(plainWords(abstracts[0]!.abstract)[0]!);
    const ok = await search(`q=${word}&column=abstract&limit=3`);
    expect(ok.status).toBe(200);
    expect(ok.json.data.length).toBeGreaterThan(0);
    const title = await search('q=word&column=title');
    expect(title.status).toBe(400);
    expect(title.json.errors[0]).toMatchObject({ name: 'column' });
    expect(title.json.errors[0].detail).toMatch(/no full-text index/);
    expect((await search('q=word&column=nope')).status).toBe(400);
  });

  it('validates q and paging', async () => {
    for (const q of [
      '',
      'q=',
      `q=${'a'.repeat(513)}`,
      'q=-only',
      'q=%22%22',
      'q=x&limit=1001',
      'q=x&offset=-1',
      'q=x&sort=lang',
    ]) {
      const res = await search(q);
      expect(res.status, q).toBe(400);
      expect(res.json.errors.length, q).toBeGreaterThan(0);
    }
    expect((await s.get(`/${c.db}/tables/nope/search?q=x`)).status).toBe(404);
  });

  it('pages with Link headers', async () => {
    const word = pickWord();
    const first = await search(`q=${word}&limit=2`);
    expect(first.headers.link).toMatch(/offset=2>; rel="next"/);
    const all = await search(`q=${word}&limit=1000`);
    const second = await search(`q=${word}&limit=2&offset=2`);
    expect(second.json.data.map(key)).toEqual(all.json.data.slice(2, 4).map(key));
  });

  it('resolves relations on result rows like the records routes', async () => {
    const word = pickWord();
    const rel = encodeURIComponent('{"informant":"informant"}');
    const res = await search(`q=${word}&lang=lg-spa&limit=5&resolve_relations=${rel}`);
    expect(res.status).toBe(200);
    for (const row of res.json.data) {
      const raw = await direct.query<{ informant: string }>(
        'SELECT informant FROM interview WHERE section_id = ? AND lang = ?',
        [row.section_id, row.lang],
      );
      const ids = (JSON.parse(raw[0]!.informant) as (string | number)[]).map(Number);
      expect(row.informant.map((i: { section_id: number }) => i.section_id)).toEqual(ids);
      expect(typeof row.informant[0].surname).toBe('string');
    }
    const bad = await search(`q=${word}&resolve_relations=${encodeURIComponent('{"nope":"informant"}')}`);
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].name).toBe('resolve_relations');
  });
});
