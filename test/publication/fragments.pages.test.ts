/**
 * The page of a text fragment when a term matches both before any page marker and after one
 * (the reference's own case), on each engine, in a short text and in texts longer than 8,192
 * characters (where the fragments may be found from a prefix of the text): a fragment after a
 * `[page-n-N]` marker reports page N, one before any marker reports no page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltDb, buildTablesDb } from '../helpers/dedalo-fixture.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

const filler = (chars: number) => 'lorem ipsum dolor '.repeat(Math.ceil(chars / 18)).slice(0, chars);

/** Before any marker: river. Page 3: river, bridge. Page 4: bridge, ferry. */
const SHORT = [
  '<p>Before any marker we crossed the river at dawn.</p>',
  '[page-n-3]<p>Then the river again, and a bridge.</p>',
  '[page-n-4]<p>The bridge was down; the ferry took us.</p>',
].join('');

/**
 * Over 40,000 characters: the same first pages (all terms found early: a prefix decides), then
 * filler, page 7 with `harbour` at about 20,000 characters (too far for a prefix), filler.
 */
const LONG = [
  SHORT,
  `<p>${filler(20_000)}</p>`,
  '[page-n-7]<p>At last the harbour, and the river once more.</p>',
  `<p>${filler(20_000)}</p>`,
].join('');

const at = (text: string, word: string, nth = 0) => {
  let i = -1;
  for (let n = 0; n <= nth; n++) i = text.indexOf(word, i + 1);
  expect(i, `${word} #${nth}`).toBeGreaterThanOrEqual(0);
  return i;
};

describe.each(engineCases())('text fragment pages on $engine', (c) => {
  let s: TestServer;
  let built: BuiltDb;
  const fragments = async (id: number, query: string) => {
    const res = await s.get(
      `/${built.name}/tables/document/records/${id}/fragments?lang=lg-eng&column=text&${query}`,
    );
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    // `none`: the fragment has no `page` at all (no marker precedes it).
    return (res.json.data as { position: number; page?: number }[]).map((f) => ({
      position: f.position,
      page: 'page' in f ? f.page : 'none',
    }));
  };

  beforeAll(async () => {
    built = await buildTablesDb(
      c,
      [
        {
          name: 'document',
          columns: { section_id: 'int', lang: 'varchar', text: 'text' },
          rows: [
            { section_id: 1, lang: 'lg-eng', text: SHORT },
            { section_id: 2, lang: 'lg-eng', text: LONG },
          ],
        },
      ],
      'pages',
    );
    s = await startTestServer({ ...c, env: built.env });
  });
  afterAll(async () => {
    await s?.close();
    await built?.drop();
  });

  it('a fragment after the first marker reports its page though a term also matches before any marker', async () => {
    expect(LONG.length).toBeGreaterThan(8_192);
    for (const [id, text] of [
      [1, SHORT],
      [2, LONG],
    ] as const) {
      // Default max_occurrences (1): river's first place (no marker before it) and bridge's (page 3).
      expect(await fragments(id, 'terms=river%20bridge'), `record ${id}`).toEqual([
        { position: at(text, 'river'), page: 'none' },
        { position: at(text, 'bridge'), page: 3 },
      ]);
      expect(await fragments(id, 'terms=ferry%20river'), `record ${id}`).toEqual([
        { position: at(text, 'river'), page: 'none' },
        { position: at(text, 'ferry'), page: 4 },
      ]);
      // River's later places: page 3 (and page 7 in the long text).
      expect(await fragments(id, 'terms=river&max_occurrences=3'), `record ${id}`).toEqual([
        { position: at(text, 'river'), page: 'none' },
        { position: at(text, 'river', 1), page: 3 },
        ...(id === 2 ? [{ position: at(text, 'river', 2), page: 7 }] : []),
      ]);
    }
    // Far into the long text: the whole text is read, pages alike.
    expect(await fragments(2, 'terms=river%20harbour')).toEqual([
      { position: at(LONG, 'river'), page: 'none' },
      { position: at(LONG, 'harbour'), page: 7 },
    ]);
    expect(await fragments(2, 'terms=harbour%20bridge&max_occurrences=2')).toEqual([
      { position: at(LONG, 'bridge'), page: 3 },
      { position: at(LONG, 'bridge', 1), page: 4 },
      { position: at(LONG, 'harbour'), page: 7 },
    ]);
  });
});
