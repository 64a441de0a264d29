/**
 * v1 text actions on each engine: text_fragment (excerpts with page numbers), bibliography_rows
 * and global_search (refused clearly when the database has no global_search table; served over
 * a table of its own in v1.global-search.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DirectDb, engineCases, type TestServer } from '../helpers/publication-server.js';
import { openV1Fixture, type V1Fixture, v1Get } from '../helpers/v1-fixture.js';
import { pageBefore, wordOccurrences } from './fragments-reference.js';

const CODE = 'v1-texts';

describe.each(engineCases())('v1 text actions on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  let fx: V1Fixture;
  const v1 = (action: string, params: Record<string, string> = {}) => v1Get(s, CODE, action, params);

  beforeAll(async () => {
    fx = await openV1Fixture(c, CODE);
    ({ server: s, direct } = fx);
  });
  afterAll(() => fx.close());

  it('cuts marked fragments around the words, with the page they are on', async () => {
    const [row] = await direct.query<{ section_id: number; text: string }>(
      `SELECT section_id, ${direct.q('text')} FROM ${direct.q('publications')} WHERE lang = 'lg-spa' ORDER BY section_id LIMIT 1`,
    );
    const word = /\[page-n-2\][^[]*?<p>\s*([\p{L}]{5,})/u.exec(row!.text)?.[1] ?? 'cosecha';
    const res = await v1('text_fragment', {
      section_id: String(row!.section_id),
      q: word,
      column: 'text',
      table: 'publications',
      lang: 'lg-spa',
      max_chars: '80',
      max_occurrences: '3',
    });
    expect(res.json.msg).toBe('Request done successfully');
    const [hit] = res.json.result;
    expect(hit.section_id).toBe(row!.section_id);
    expect(hit.search).toBe(word);
    // The word's first three places, each on the page of the last marker before it (1 before any).
    const pages = wordOccurrences(row!.text, word)
      .slice(0, 3)
      .map((p) => pageBefore(row!.text, p) ?? 1);
    expect(pages).toContain(2);
    expect(hit.fragments.map((f: { page_number: number }) => f.page_number)).toEqual(pages);
    for (const f of hit.fragments) {
      expect(f.fragm.toLowerCase()).toContain(`<mark>${word.toLowerCase()}</mark>`);
      expect(f.fragm).toMatch(/^\.\. .* \.\.$/);
    }
    const none = await v1('text_fragment', {
      section_id: String(row!.section_id),
      q: 'zzzzqqq',
      column: 'text',
      table: 'publications',
    });
    expect(none.json.result).toEqual([]);
    expect((await v1('text_fragment', { section_id: '1', q: '' })).json).toEqual({
      result: false,
      msg: 'Empty q',
    });
    expect((await v1('text_fragment', { section_id: '1', q: 'a', table: 'nope' })).json).toEqual({
      result: false,
      msg: 'Invalid table',
    });
    expect((await v1('text_fragment', { section_id: 'x', q: 'a' })).json).toEqual({
      result: false,
      msg: 'Invalid section_id',
    });
  });

  it('lists bibliography rows in the request language, all of them with the default limit 0 (fixed; docs/publication-v1.md)', async () => {
    const res = await v1('bibliography_rows', {
      ar_fields: 'section_id,title',
      lang: 'lg-spa',
      count: 'true',
    });
    const ref = await direct.query<{ section_id: number }>(
      `SELECT section_id FROM ${direct.q('publications')} WHERE lang = 'lg-spa' ORDER BY section_id`,
    );
    expect(res.json.result.map((r: { section_id: number }) => r.section_id)).toEqual(
      ref.map((r) => r.section_id),
    );
    expect(res.json.total).toBe(ref.length);
    expect(ref.length).toBeGreaterThan(0);
  });

  it('answers global_search and global_search_json without a global_search table with a clear failure', async () => {
    const res = await v1('global_search', { q: 'war' });
    expect(res.json.result).toBe(false);
    expect(res.json.msg).toMatch(/^Error\. Request global_search failed\. .*global_search/);
    expect((await v1('global_search_json', { json_search: '{}' })).json).toEqual({
      results: false,
      error_msg: 'Error on sql request. Illegal table: unknown table global_search',
      error_id: 1,
    });
  });
});
