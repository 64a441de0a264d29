import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDIDATES_COLUMN, mariadbSearch, sqliteSearch } from '../../src/publication/db/search-sql.js';
import { backtickDialect, doubleQuoteDialect } from '../../src/publication/db/sql-builder.js';
import type { FulltextQuery } from '../../src/publication/db/types.js';
import { parseSearchQuery } from '../../src/publication/text/search-query.js';
import { type DirectDb, engineCases } from '../helpers/publication-server.js';
import { normalizeWord, plainWords, tokensOf } from '../helpers/text-oracle.js';

interface StoredRow {
  section_id: number;
  lang: string;
  transcription: string;
}

const CAP = 5;

/**
 * The search statement run on the database directly: the page must not depend on how the
 * candidates are carried (by primary key, or every column when the key is unknown), and a page
 * holds the requested columns only.
 */
describe.each(engineCases())('search statement on $engine', (c) => {
  let direct: DirectDb;
  let stored: StoredRow[];
  let word: string;
  const run = async (q: FulltextQuery) => {
    const s = c.engine === 'sqlite' ? sqliteSearch(doubleQuoteDialect, q) : mariadbSearch(backtickDialect, q);
    return direct.query<Record<string, unknown>>(s.sql, s.params);
  };
  const query = (over: Partial<FulltextQuery>): FulltextQuery => ({
    table: 'interview',
    column: 'transcription',
    columns: ['section_id', 'lang', 'title'],
    search: parseSearchQuery(word),
    where: [],
    orderBy: [
      { column: 'section_id', desc: false },
      { column: 'lang', desc: false },
    ],
    rowKey: ['section_id', 'lang'],
    limit: 3,
    offset: 0,
    maxCandidates: CAP,
    ...over,
  });

  beforeAll(async () => {
    direct = await c.openDirect();
    stored = await direct.query<StoredRow>('SELECT section_id, lang, transcription FROM interview');
    const counts = new Map<string, number>();
    for (const r of stored)
      for (const w of new Set(plainWords(r.transcription).map(normalizeWord)))
        counts.set(w, (counts.get(w) ?? 0) + 1);
    // A word held by more rows than the cap, so the cap and its flag are reached.
    word = [...counts]
      .filter(([w, n]) => n >= 3 * CAP && w.length > 4)
      .sort(([a], [b]) => a.localeCompare(b))[0]![0];
  });
  afterAll(async () => {
    await direct.close();
  });

  it('pages the same candidates whether they are carried by key or with every column', async () => {
    const holding = new Set(
      stored.filter((r) => tokensOf(r.transcription).includes(word)).map((r) => `${r.section_id}/${r.lang}`),
    );
    const pages: Record<string, unknown>[][] = [];
    for (const offset of [0, 3, 6]) {
      const byKey = await run(query({ offset }));
      const wide = await run(query({ offset, rowKey: [] }));
      expect(wide).toEqual(byKey);
      pages.push(byKey);
    }
    // Two pages of three, then nothing past the cap of five; every row matches, each once.
    expect(pages.map((p) => p.length)).toEqual([3, 2, 0]);
    const keys = pages.flat().map((r) => `${r.section_id}/${r.lang}`);
    expect(new Set(keys).size).toBe(CAP);
    for (const k of keys) expect(holding.has(k)).toBe(true);
    for (const r of pages.flat()) expect(Number(r[CANDIDATES_COLUMN])).toBe(CAP);
    const relevance = pages.flat().map((r) => Number(r.relevance));
    expect([...relevance].sort((a, b) => b - a)).toEqual(relevance);
  });

  it('answers the requested columns only, tie-breakers and key left out when not asked for', async () => {
    for (const rowKey of [['section_id', 'lang'], []]) {
      const rows = await run(query({ columns: ['title'], rowKey }));
      expect(rows).toHaveLength(3);
      for (const r of rows)
        expect(Object.keys(r).sort()).toEqual([CANDIDATES_COLUMN, 'relevance', 'title'].sort());
    }
  });
});
