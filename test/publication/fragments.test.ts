import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DirectDb,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import {
  escapeHtml,
  excerptPlain,
  fold,
  literalOccurrences,
  maskTags,
  pageBefore,
  referencePlain,
  wordOccurrences,
  wordsOf,
} from './fragments-reference.js';

interface TextRow {
  section_id: number;
  lang: string;
  text: string;
}

describe.each(engineCases())('text fragments on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  const fragments = (id: number | string, query: string, table = 'interview') =>
    s.get(`/${c.db}/tables/${table}/records/${id}/fragments${query}`);

  beforeAll(async () => {
    s = await startTestServer(c);
    direct = await c.openDirect();
  });
  afterAll(async () => {
    await s.close();
    await direct.close();
  });

  async function transcriptions(lang = 'lg-spa', limit = 20): Promise<TextRow[]> {
    return direct.query<TextRow>(
      `SELECT section_id, lang, transcription AS text FROM interview WHERE lang = ? ORDER BY section_id LIMIT ${limit}`,
      [lang],
    );
  }

  /** A word of the row's plain text that occurs at least `min` times as a whole word. */
  function wordOf(row: TextRow, test: (w: string, count: number) => boolean): string | undefined {
    return wordsOf(referencePlain(row.text)).find((w) => test(w, wordOccurrences(row.text, w).length));
  }

  it('finds a word taken from a stored transcription, with position pointing at it in the stored text', async () => {
    let checked = 0;
    for (const row of await transcriptions('lg-spa', 8)) {
      const word = wordOf(row, (w, n) => w.length >= 6 && n >= 1)!;
      const expected = wordOccurrences(row.text, word)[0]!;
      const res = await fragments(row.section_id, `?terms=${encodeURIComponent(word)}&lang=lg-spa`);
      expect(res.status).toBe(200);
      expect(res.json.meta).toMatchObject({ section_id: row.section_id, terms: word });
      expect(typeof res.json.meta.response_time_ms).toBe('number');
      expect(res.json.data).toHaveLength(1);
      const [f] = res.json.data;
      expect(f.position).toBe(expected);
      const stored = row.text.slice(f.position, f.position + word.length);
      expect(fold(stored)).toBe(fold(word));
      expect(f.text).toContain(`<mark>${escapeHtml(stored)}</mark>`);
      expect(referencePlain(row.text)).toContain(excerptPlain(f.text));
      expect(res.headers['content-language']).toBe('lg-spa');
      checked++;
    }
    expect(checked).toBe(8);
  });

  it('matches without regard to case or accents and marks the stored spelling', async () => {
    const rows = await transcriptions('lg-spa', 30);
    const row = rows.find((r) => wordOf(r, (w) => /[áéíóúñ]/.test(w)))!;
    const accented = wordOf(row, (w) => /[áéíóúñ]/.test(w))!;
    const query = fold(accented).toUpperCase();
    expect(query).not.toBe(accented);
    const res = await fragments(row.section_id, `?terms=${encodeURIComponent(query)}&lang=lg-spa`);
    expect(res.status).toBe(200);
    const [f] = res.json.data;
    expect(f.position).toBe(wordOccurrences(row.text, accented)[0]);
    const stored = row.text.slice(f.position, f.position + accented.length);
    expect(f.text).toContain(`<mark>${stored}</mark>`);
    expect(res.json.meta.terms).toBe(query);
  });

  it('gives up to max_occurrences fragments per term, in text order', async () => {
    const rows = await transcriptions('lg-spa', 30);
    const row = rows.find((r) => wordOf(r, (w, n) => w.length >= 4 && n >= 3))!;
    const word = wordOf(row, (w, n) => w.length >= 4 && n >= 3)!;
    const all = wordOccurrences(row.text, word);
    const two = await fragments(
      row.section_id,
      `?terms=${encodeURIComponent(word)}&lang=lg-spa&max_occurrences=2`,
    );
    expect(two.json.data.map((f: { position: number }) => f.position)).toEqual(all.slice(0, 2));
    const many = await fragments(
      row.section_id,
      `?terms=${encodeURIComponent(word)}&lang=lg-spa&max_occurrences=10`,
    );
    expect(many.json.data.map((f: { position: number }) => f.position)).toEqual(all.slice(0, 10));
  });

  it('gives each term its own occurrences and highlights every term in every excerpt', async () => {
    const [row] = await transcriptions('lg-spa', 1);
    const words = [...new Set(wordsOf(referencePlain(row!.text)).filter((w) => w.length >= 5))].slice(0, 2);
    const res = await fragments(row!.section_id, `?terms=${encodeURIComponent(words.join(' '))}&lang=lg-spa`);
    const expected = words.map((w) => wordOccurrences(row!.text, w)[0]!).sort((a, b) => a - b);
    expect(res.json.data.map((f: { position: number }) => f.position)).toEqual(expected);
    for (const f of res.json.data) {
      for (const w of words) {
        if (fold(excerptPlain(f.text)).includes(fold(w))) expect(fold(f.text)).toContain(`<mark>${fold(w)}`);
      }
    }
  });

  it('keeps excerpts to about max_characters, cut at word boundaries', async () => {
    for (const row of await transcriptions('lg-spa', 5)) {
      const word = wordOf(row, (w, n) => w.length >= 5 && n >= 1)!;
      for (const max of [10, 40, 320]) {
        const res = await fragments(
          row.section_id,
          `?terms=${encodeURIComponent(word)}&lang=lg-spa&max_characters=${max}`,
        );
        const [f] = res.json.data;
        const body = excerptPlain(f.text);
        expect(body.length).toBeLessThanOrEqual(Math.max(max, word.length));
        const plain = referencePlain(row.text);
        expect(plain).toContain(body);
        // Whole words only: the excerpt starts and ends where the plain text has a boundary.
        const at = plain.indexOf(body);
        expect(at === 0 || plain[at - 1] === ' ').toBe(true);
        expect(at + body.length === plain.length || plain[at + body.length] === ' ').toBe(true);
        expect(f.text.startsWith('…')).toBe(at > 0);
      }
    }
  });

  it('reports the page of the last page marker before the match (publications)', async () => {
    const rows = await direct.query<TextRow>(
      "SELECT section_id, lang, text FROM publications WHERE lang = 'lg-spa' ORDER BY section_id LIMIT 12",
    );
    let checked = 0;
    for (const row of rows) {
      const markers = [...row.text.matchAll(/\[page-n-(\d+)/g)].map((m) => m.index);
      if (markers.length < 2) continue;
      // Words on both sides of every page break: the last word of a page (first occurrence there)
      // and the first word after the break.
      const words = [...maskTags(row.text).matchAll(/\p{L}{4,}/gu)].filter(
        (m) => wordOccurrences(row.text, m[0])[0] === m.index,
      );
      const chosen = new Set<string>();
      for (const marker of markers) {
        const before = words.filter((m) => m.index < marker).at(-1);
        const after = words.find((m) => m.index > marker);
        if (before) chosen.add(before[0]);
        if (after) chosen.add(after[0]);
      }
      const terms = [...chosen].slice(0, 20);
      const res = await fragments(
        row.section_id,
        `?terms=${encodeURIComponent(terms.join(' '))}&lang=lg-spa&column=text&max_characters=10`,
        'publications',
      );
      expect(res.status).toBe(200);
      expect(res.json.data).toHaveLength(terms.length);
      const expected = terms.map((w) => wordOccurrences(row.text, w)[0]!).sort((a, b) => a - b);
      expect(res.json.data.map((f: { position: number }) => f.position)).toEqual(expected);
      for (const f of res.json.data) {
        const page = pageBefore(row.text, f.position);
        if (page === undefined) expect(f).not.toHaveProperty('page');
        else expect(f.page).toBe(page);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('gives every fragment of three terms, all occurrences, the page of the last marker before it', async () => {
    const rows = await direct.query<TextRow>(
      "SELECT section_id, lang, text FROM publications WHERE lang = 'lg-spa' ORDER BY section_id LIMIT 12",
    );
    let checked = 0;
    for (const row of rows) {
      const markers = [...row.text.matchAll(/\[page-n-(\d+)/g)].map((m) => m.index);
      if (markers.length < 2) continue;
      // One word from each of three stretches: before the second marker, between the second and
      // the last, and after the last; each may occur on other pages as well.
      const words = [...maskTags(row.text).matchAll(/\p{L}{5,}/gu)];
      const from = (lo: number, hi: number) => words.find((m) => m.index > lo && m.index < hi)?.[0];
      const terms = [
        from(-1, markers[1]!),
        from(markers[1]!, markers.at(-1)!) ?? from(markers[0]!, markers[1]!),
        from(markers.at(-1)!, row.text.length),
      ].filter((w): w is string => w !== undefined);
      if (new Set(terms.map(fold)).size < 3) continue;
      const res = await fragments(
        row.section_id,
        `?terms=${encodeURIComponent(terms.join(' '))}&lang=lg-spa&column=text&max_occurrences=10&max_characters=40`,
        'publications',
      );
      expect(res.status).toBe(200);
      const expected = terms
        .flatMap((w) => wordOccurrences(row.text, w).slice(0, 10))
        .sort((a, b) => a - b)
        .filter((p, i, all) => all.indexOf(p) === i);
      expect(res.json.data.map((f: { position: number }) => f.position)).toEqual(expected);
      for (const f of res.json.data) {
        const page = pageBefore(row.text, f.position);
        if (page === undefined) expect(f).not.toHaveProperty('page');
        else expect(f.page, `fragment at ${f.position}`).toBe(page);
      }
      expect(new Set(res.json.data.map((f: { page?: number }) => f.page)).size).toBeGreaterThanOrEqual(2);
      checked++;
    }
    expect(checked).toBeGreaterThan(2);
  });

  it('escapes stored markup and marks across it', async () => {
    const rows = await direct.query<TextRow>(
      "SELECT section_id, lang, transcription AS text FROM interview WHERE transcription LIKE '%R&D%' ORDER BY section_id, lang LIMIT 1",
    );
    const row = rows[0]!;
    const res = await fragments(row.section_id, `?terms=${encodeURIComponent('R&D')}&lang=${row.lang}`);
    const [f] = res.json.data;
    expect(f.text).toContain('<mark>R&amp;D</mark>');
    expect(f.text.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    expect(row.text.slice(f.position, f.position + 3)).toBe('R&D');

    const lt = await direct.query<TextRow>(
      "SELECT section_id, lang, transcription AS text FROM interview WHERE transcription LIKE '%a<b%' ORDER BY section_id, lang LIMIT 1",
    );
    if (lt[0]) {
      const r = await fragments(lt[0].section_id, `?terms=${encodeURIComponent('a<b')}&lang=${lt[0].lang}`);
      expect(r.json.data[0].text).toContain('<mark>a&lt;b</mark>');
      expect(lt[0].text.slice(r.json.data[0].position)).toMatch(/^a<b/);
    }
  });

  it('matches terms literally, punctuation included: (word finds nothing where only word is, word. finds word.', async () => {
    const rows = await transcriptions('lg-spa', 30);
    // A word found both before a full stop and elsewhere, never after a parenthesis.
    let pick: { row: TextRow; word: string } | undefined;
    for (const row of rows) {
      const word = wordOf(
        row,
        (w, n) =>
          w.length >= 4 &&
          n >= 2 &&
          literalOccurrences(row.text, `${w}.`).length >= 1 &&
          literalOccurrences(row.text, `${w}.`).length < n,
      );
      if (word) {
        pick = { row, word };
        break;
      }
    }
    expect(pick).toBeDefined();
    const { row, word } = pick!;
    const get = (term: string) =>
      fragments(row.section_id, `?terms=${encodeURIComponent(term)}&lang=lg-spa&max_occurrences=10`);
    const positions = (res: { json: { data: { position: number }[] } }) =>
      res.json.data.map((f) => f.position);

    const bare = await get(word);
    expect(positions(bare)).toEqual(wordOccurrences(row.text, word).slice(0, 10));

    const stop = await get(`${word.toUpperCase()}.`);
    expect(stop.status).toBe(200);
    const expected = literalOccurrences(row.text, `${word}.`).slice(0, 10);
    expect(positions(stop)).toEqual(expected);
    expect(expected.length).toBeLessThan(bare.json.data.length);
    for (const f of stop.json.data) {
      const storedMatch = row.text.slice(f.position, f.position + word.length + 1);
      expect(storedMatch.endsWith('.')).toBe(true);
      expect(f.text).toContain(`<mark>${escapeHtml(storedMatch)}</mark>`);
    }

    expect(literalOccurrences(row.text, `(${word}`)).toEqual([]);
    const paren = await get(`(${word}`);
    expect(paren.status).toBe(200);
    expect(paren.json.data).toEqual([]);
    expect(paren.json.meta.terms).toBe(`(${word}`);
  });

  it('without lang searches every variant in lang order, saying which one each fragment is from', async () => {
    const rows = await direct.query<TextRow>(
      'SELECT section_id, lang, transcription AS text FROM interview WHERE section_id <= 10 ORDER BY section_id, lang',
    );
    // A word found in two or more variants of one record.
    let found: { id: number; word: string; variants: TextRow[] } | undefined;
    for (const id of new Set(rows.map((r) => r.section_id))) {
      const variants = rows.filter((r) => r.section_id === id);
      if (variants.length < 2) continue;
      const word = wordsOf(referencePlain(variants[0]!.text)).find(
        (w) => w.length >= 4 && variants.filter((v) => wordOccurrences(v.text, w).length > 0).length >= 2,
      );
      if (word) {
        found = { id, word, variants };
        break;
      }
    }
    expect(found).toBeDefined();
    const { id, word, variants } = found!;
    const expected = variants
      .flatMap((v) => wordOccurrences(v.text, word).map((position) => ({ lang: v.lang, position })))
      .slice(0, 10);
    const res = await fragments(id, `?terms=${encodeURIComponent(word)}&max_occurrences=10`);
    expect(res.status).toBe(200);
    expect(
      res.json.data.map((f: { lang: string; position: number }) => ({ lang: f.lang, position: f.position })),
    ).toEqual(expected);
    expect(res.headers['content-language']).toBeUndefined();
    const one = await fragments(id, `?terms=${encodeURIComponent(word)}`);
    expect(one.json.data).toHaveLength(1);
    expect(one.json.data[0]).toMatchObject(expected[0]!);
  });

  it('answers an empty list when nothing matches', async () => {
    const res = await fragments(1, '?terms=zzzyxq');
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([]);
    expect(res.json.meta).toMatchObject({ section_id: 1, terms: 'zzzyxq' });
  });

  it('reads another text column with column=', async () => {
    const [row] = await direct.query<TextRow>(
      "SELECT section_id, lang, abstract AS text FROM interview WHERE lang = 'lg-spa' ORDER BY section_id LIMIT 1",
    );
    const word = wordOf(row!, (w) => w.length >= 4)!;
    const res = await fragments(
      row!.section_id,
      `?terms=${encodeURIComponent(word)}&lang=lg-spa&column=abstract`,
    );
    expect(res.status).toBe(200);
    expect(res.json.data[0].position).toBe(wordOccurrences(row!.text, word)[0]);
  });

  it('names every bad parameter in a 400', async () => {
    const cases: [string, string][] = [
      ['', 'terms'],
      ['?terms=', 'terms'],
      ['?terms=%20%20', 'terms'],
      ['?terms=%2B%2B', 'terms'],
      [`?terms=${'a'.repeat(513)}`, 'terms'],
      ['?terms=a&terms=b', 'terms'],
      ['?terms=a&column=nope', 'column'],
      ['?terms=a&column=section_id', 'column'],
      ['?terms=a&lang=spanish', 'lang'],
      ['?terms=a&max_characters=9', 'max_characters'],
      ['?terms=a&max_characters=5001', 'max_characters'],
      ['?terms=a&max_characters=abc', 'max_characters'],
      ['?terms=a&max_characters=1.5', 'max_characters'],
      ['?terms=a&max_occurrences=0', 'max_occurrences'],
      ['?terms=a&max_occurrences=11', 'max_occurrences'],
      ['?terms=a&limit=5', 'limit'],
    ];
    for (const [query, name] of cases) {
      const res = await fragments(1, query);
      expect(res.status, query).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(
        res.json.errors.map((e: { name: string }) => e.name),
        query,
      ).toEqual([name]);
    }
    const all = await fragments(1, '?column=nope&lang=x&max_characters=0&max_occurrences=99&foo=1');
    expect(all.status).toBe(400);
    expect(all.json.errors.map((e: { name: string }) => e.name).sort()).toEqual(
      ['column', 'foo', 'lang', 'max_characters', 'max_occurrences', 'terms'].sort(),
    );
    const mono = await fragments(1, '?terms=a&column=name&lang=lg-spa', 'informant');
    expect(mono.status).toBe(400);
    expect(mono.json.errors).toEqual([expect.objectContaining({ name: 'lang', in: 'query' })]);
    const id = await fragments(0, '?terms=a');
    expect(id.json.errors).toEqual([expect.objectContaining({ name: 'id', in: 'path' })]);
  });

  it('accepts the bounds themselves and ignores _-prefixed parameters', async () => {
    for (const q of [
      'max_characters=10',
      'max_characters=5000',
      'max_occurrences=1',
      'max_occurrences=10',
      '_=123',
    ]) {
      const res = await fragments(1, `?terms=${'a'.repeat(512)}&${q}`);
      expect(res.status, q).toBe(200);
    }
  });

  it('answers 404 for a missing record, a missing language variant and an unknown table', async () => {
    const missing = await fragments(999999, '?terms=a');
    expect(missing.status).toBe(404);
    expect(missing.json.type).toMatch(/\/not-found$/);
    const [untranslated] = await direct.query<{ section_id: number }>(
      "SELECT section_id FROM interview WHERE section_id NOT IN (SELECT section_id FROM interview WHERE lang = 'lg-eng') ORDER BY section_id LIMIT 1",
    );
    const lang = await fragments(untranslated!.section_id, '?terms=a&lang=lg-eng');
    expect(lang.status).toBe(404);
    expect(lang.json.detail).toMatch(/no lg-eng variant/);
    expect((await fragments(1, '?terms=a', 'nope')).status).toBe(404);
    expect((await s.get(`/nodb/tables/interview/records/1/fragments?terms=a`)).status).toBe(404);
  });
});
