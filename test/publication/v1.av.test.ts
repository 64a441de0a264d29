/**
 * The v1 audiovisual actions and subtitles on each engine, and a replay of the requests a
 * typical Dédalo website makes (home thesaurus roots, a term page with its indexations, a video
 * fragment with subtitles, a free search with paging), checking the fields the website reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DirectDb,
  engineCases,
  rawRequest,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import { openV1Fixture, V1, type V1Fixture, v1Get } from '../helpers/v1-fixture.js';

const CODE = 'v1-av';

interface Locator {
  section_id: number | string;
  section_tipo: string;
  tag_id: number | string;
}

describe.each(engineCases())('v1 audiovisual on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  let origin: string;
  let indexed: { term_id: string; term: string; locator: Locator };
  let fx: V1Fixture;

  const v1 = (action: string, params: Record<string, string> = {}) => v1Get(s, CODE, action, params);
  const subtitles = (query: string) =>
    rawRequest(`${origin}${query.startsWith('/') ? '' : `${V1}/subtitles/`}${query}`);

  beforeAll(async () => {
    fx = await openV1Fixture(c, CODE, { MEDIA_BASE_URL: '/media' });
    ({ server: s, direct, origin } = fx);
    const rows = await direct.query<{ term_id: string; term: string; indexation: string }>(
      `SELECT term_id, term, indexation FROM ${direct.q('ts_themes')} WHERE lang = 'lg-eng' AND indexation IS NOT NULL ORDER BY section_id`,
    );
    const row = rows.find((r) => r.indexation.startsWith('[{'))!;
    indexed = {
      term_id: row.term_id,
      term: row.term,
      locator: (JSON.parse(row.indexation) as Locator[])[0]!,
    };
  });
  afterAll(() => fx.close());

  it('builds the fragment of an index locator, echoing the locator as sent', async () => {
    const sent = JSON.stringify(indexed.locator);
    const res = await v1('fragment_from_index_locator', {
      index_locator: sent,
      lang: 'lg-eng',
      fragment_terms: 'true',
    });
    const f = res.json.result;
    expect(res.json.msg).toBe('Request done successfully');
    expect(f.index_locator).toBe(sent);
    expect(f.fragm.length).toBeGreaterThan(0);
    expect(f.fragm).not.toMatch(/\[|\]/);
    expect(f.tcout_secs).toBeGreaterThanOrEqual(f.tcin_secs);
    expect(f.video_url).toBe(
      `${f.video_url.split('?')[0]}?vbegin=${Math.floor(f.tcin_secs)}&vend=${Math.ceil(f.tcout_secs)}`,
    );
    expect(f.video_url).toMatch(/^\/media\//);
    expect(f.subtitles_url).toContain(
      `${V1}/subtitles/?section_id=${indexed.locator.section_id}&lang=lg-eng`,
    );
    expect(f.terms.map((t: { term_id: string }) => t.term_id)).toContain(indexed.term_id);
    expect(f.fragment_terms_inside[indexed.term_id]).toBe(indexed.term);

    const unknownTag = await v1('fragment_from_index_locator', {
      index_locator: JSON.stringify({ ...indexed.locator, tag_id: 999 }),
      lang: 'lg-eng',
    });
    expect(unknownTag.json).toEqual({ result: null, msg: 'Request done successfully' });
    const missing = await v1('fragment_from_index_locator', {
      index_locator: JSON.stringify({ ...indexed.locator, section_id: 99999 }),
    });
    expect(missing.json.result).toBeNull();
    expect(missing.json.msg).toMatch(/^Error\. Empty audiovisual records/);
  });

  it('lists the terms indexing a recording once each, with their locators on it', async () => {
    const id = String(indexed.locator.section_id);
    const res = await v1('reel_terms', { av_section_id: id, lang: 'lg-eng' });
    const ids = res.json.result.map((t: { term_id: string }) => t.term_id);
    expect(ids).toContain(indexed.term_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const t of res.json.result) {
      for (const l of t.locators) expect(String(l.section_id)).toBe(id);
    }
    expect((await v1('reel_terms', { av_section_id: '1;2' })).json.result).toBe(false);
  });

  it('pages a free search by relevance with marked list fragments', async () => {
    const first = await v1('free_search', {
      q: 'boat',
      lang: 'lg-eng',
      rows_per_page: '3',
      page_number: '1',
    });
    const second = await v1('free_search', {
      q: 'boat',
      lang: 'lg-eng',
      rows_per_page: '3',
      page_number: '2',
    });
    const texts = await direct.query<{ section_id: number; transcription: string }>(
      `SELECT section_id, transcription FROM ${direct.q('interview')} WHERE lang = 'lg-eng'`,
    );
    const want = texts.filter((t) => /\bboat\b/i.test(t.transcription)).length;
    expect(first.json.total).toBe(want);
    expect(first.json).toMatchObject({
      page_number: 1,
      rows_per_page: 3,
      msg: 'Ok. Request free_search done successfully',
    });
    const ids = [...first.json.result, ...second.json.result].map(
      (n: { av_section_id: number }) => n.av_section_id,
    );
    expect(new Set(ids).size).toBe(ids.length);
    const node = first.json.result[0];
    expect(node.interview_section_id).toBe(node.av_section_id);
    expect(node.fragments[0].list_fragment).toMatch(/<mark>boat<\/mark>/i);
    expect(node.fragments[0].list_fragment).toMatch(/^\.\. .* \.\.$/);
    expect(node).not.toHaveProperty('transcription');
    const video = await v1('free_search', {
      q: 'boat',
      lang: 'lg-eng',
      rows_per_page: '1',
      video_fragment: 'true',
    });
    const vf = video.json.result[0].fragments[0];
    expect(vf.tcout_secs).toBeGreaterThanOrEqual(vf.tcin_secs);
    expect(vf.video_url).toMatch(/\?vbegin=[\d.]+&vend=[\d.]+$/);
    expect(vf.fragm).toMatch(/<mark>boat<\/mark>/i);
    expect(vf.subtitles_url).toContain('/subtitles/?section_id=');
    // fragment_terms: each excerpt names the terms whose indexed passage spans the match.
    const inside = await v1('fragment_from_index_locator', {
      index_locator: JSON.stringify(indexed.locator),
      lang: 'lg-eng',
    });
    const word = (inside.json.result.fragm as string).match(/[A-Za-z]{5,}/)![0];
    const withTerms = await v1('free_search', {
      q: `+${word}`,
      lang: 'lg-eng',
      rows_per_page: '100',
      appearances_limit: '50',
      fragment_terms: 'true',
    });
    const node2 = withTerms.json.result.find(
      (n: { av_section_id: number }) => String(n.av_section_id) === String(indexed.locator.section_id),
    );
    const named = node2.fragments.flatMap((f: { terms: Record<string, string> }) => Object.keys(f.terms));
    expect(named).toContain(indexed.term_id);
    const empty = await v1('free_search', { q: '' });
    expect(empty.json.result).toBe(false);
  });

  it('writes WebVTT subtitles, windowed and re-based with tc_in / tc_out', async () => {
    const id = String(indexed.locator.section_id);
    const whole = await subtitles(`?section_id=${id}&lang=lg-eng`);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toMatch(/^text\/vtt/);
    expect(whole.text.startsWith('WEBVTT\n\n1\n00:00:00.000 --> ')).toBe(true);
    const cues = whole.text.split('\n\n').slice(1, -1);
    expect(cues.length).toBeGreaterThan(3);
    for (const cue of cues) {
      const [n, times, ...text] = cue.split('\n');
      expect(n).toMatch(/^\d+$/);
      expect(times).toMatch(/^\d\d:\d\d:\d\d\.\d{3} --> \d\d:\d\d:\d\d\.\d{3}$/);
      expect(text.join(' ')).not.toMatch(/\[|<p>|<strong>/);
    }
    const startsOf = (vtt: string) =>
      [...vtt.matchAll(/^(\d\d):(\d\d):(\d\d)\.(\d{3}) -->/gm)].map(
        (m) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000,
      );
    const all = startsOf(whole.text);
    const from = Math.ceil(all[2]!);
    const to = Math.floor(all[4]!);
    const windowed = startsOf(
      (await subtitles(`?section_id=${id}&lang=lg-eng&tc_in=${from}&tc_out=${to}`)).text,
    );
    // Lines before tc_in dropped, times re-based to tc_in, and the first line past tc_out is the last.
    const kept = all.filter((t) => t >= from);
    const lastIndex = kept.findIndex((t) => t > to);
    const expected = (lastIndex < 0 ? kept : kept.slice(0, lastIndex + 1)).map((t) => t - from);
    expect(windowed.map((t) => Math.round(t * 1000))).toEqual(expected.map((t) => Math.round(t * 1000)));
    expect(windowed.length).toBeGreaterThan(0);
    expect((await subtitles('?lang=lg-eng')).text).toBe('Error on build_subtitles. section_id is mandatory');
    expect((await subtitles(`?section_id=${id}&lang=lg-en`)).text).toBe('Error: invalid lang');
    expect((await subtitles('?section_id=99999&lang=lg-eng')).text).toBe(
      'Error on build_subtitles. Record not found: 99999',
    );
    expect((await subtitles(`?section_id=${id}&lang=lg-eng&code=bad`)).text).toBe(
      JSON.stringify("Error. Invalid user code 'bad' dedalo"),
    );
  });

  it('lists the index fragments of a recording, text only when asked, filtered by tag', async () => {
    const id = String(indexed.locator.section_id);
    const all = await v1('reel_fragments_of_type', { av_section_id: id, lang: 'lg-eng' });
    const tags = all.json.result.map((f: { tag_id: string }) => f.tag_id);
    expect(tags).toContain(String(indexed.locator.tag_id));
    expect(all.json.result[0]).not.toHaveProperty('fragm');
    const one = await v1('reel_fragments_of_type', {
      av_section_id: id,
      lang: 'lg-eng',
      return_text: 'true',
      filter_by_tag_id: String(indexed.locator.tag_id),
    });
    expect(one.json.result).toHaveLength(1);
    const direct1 = await v1('fragment_from_index_locator', {
      index_locator: JSON.stringify(indexed.locator),
      lang: 'lg-eng',
    });
    expect(one.json.result[0].fragm).toBe(direct1.json.result.fragm);
    expect(one.json.result[0].video_url).toBe(direct1.json.result.video_url);
  });

  it('answers the whole reel with its terms, and full_interview per id', async () => {
    const id = String(indexed.locator.section_id);
    const res = await v1('full_reel', { av_section_id: id, lang: 'lg-eng', terms: 'true' });
    const node = res.json.result;
    expect(res.json.msg).toBe('Ok. Request full_reel done successfully');
    expect(node).toMatchObject({ result: true, key: Number(id), interview_section_id: Number(id) });
    expect(node.fragments[0].fragm.length).toBeGreaterThan(100);
    expect(node.fragments[0].fragm).not.toMatch(/\[TC_|\[index-/);
    expect(node.terms[indexed.term_id]).toBe(indexed.term);
    expect(Array.isArray(node.informant)).toBe(true);
    const interview = await v1('full_interview', { section_id: id, lang: 'lg-eng' });
    expect(interview.json.result).toHaveLength(1);
    expect(interview.json.result[0].terms).toBe(false);
  });

  it('answers indexation nodes and the video view of one of them', async () => {
    const nodes = await v1('thesaurus_indexation_node', { term_id: indexed.term_id, lang: 'lg-eng' });
    expect(nodes.json.msg).toBe('OK. Request thesaurus_indexation_node done');
    const node = nodes.json.result[0];
    expect(node).toMatchObject({ term_id: indexed.term_id, image_type: 'posterframe', lang: 'lg-eng' });
    expect(node.group_locators.length).toBeGreaterThan(0);
    const term = await v1('thesaurus_term', { ar_term_id: indexed.term_id, lang: 'lg-eng' });
    const view = await v1('thesaurus_video_view_data', {
      term_id: indexed.term_id,
      ar_locators: term.json.result[0].indexation,
      ar_locators_key: '0',
      lang: 'lg-eng',
    });
    expect(view.json).toMatchObject({ result: true, term: indexed.term, key: 0, lang: 'lg-eng' });
    expect(view.json.fragments[0].video_url).toMatch(/\?vbegin=\d+&vend=\d+$/);
    expect(view.json.ar_key.length).toBe(view.json.total);
    const failed = await v1('thesaurus_video_view_data', { ar_locators: '[]', lang: 'lg-eng' });
    expect(failed.json).toEqual({ lang: 'lg-eng', add_subtitles: false });
  });

  it('answers image_data with the image row', async () => {
    const res = await v1('image_data', { section_id: '1' });
    expect(res.json.result).toMatchObject({ section_id: 1, table: 'image', notes_data: [] });
    expect((await v1('image_data', { section_id: '99999' })).json.result).toBe(false);
  });

  it('masks every passage of the restricted term in fragments, full text and subtitles', async () => {
    const other = await startTestServer(c, { V1_API_CODE: CODE, V1_TERM_ID_RESTRICTED: indexed.term_id });
    try {
      const o = new URL(other.base).origin;
      const call = (action: string, params: Record<string, string>) => v1Get(other, CODE, action, params);
      const id = String(indexed.locator.section_id);
      const open = await v1('fragment_from_index_locator', {
        index_locator: JSON.stringify(indexed.locator),
        lang: 'lg-eng',
      });
      const secret = open.json.result.fragm as string;
      expect(secret.length).toBeGreaterThan(5);
      const masked = await call('fragment_from_index_locator', {
        index_locator: JSON.stringify(indexed.locator),
        lang: 'lg-eng',
      });
      expect(masked.json.result.fragm).toBe('***');
      expect(masked.json.result.tcin_secs).toBe(open.json.result.tcin_secs);
      const reel = await call('full_reel', { av_section_id: id, lang: 'lg-eng' });
      expect(reel.json.result.fragments[0].fragm).not.toContain(secret);
      expect(reel.json.result.fragments[0].fragm).toContain('***');
      expect(reel.json.result.ar_restricted_fragments.map((f: { tag_id: string }) => f.tag_id)).toContain(
        String(indexed.locator.tag_id),
      );
      const vtt = await rawRequest(`${o}${V1}/subtitles/?section_id=${id}&lang=lg-eng`);
      expect(vtt.text.replace(/\s+/g, ' ')).not.toContain(secret.slice(0, 40));
      expect(vtt.text).toContain('***');
    } finally {
      await other.close();
    }
  });

  it('replays a typical website: home roots, term page with indexations, video with subtitles, paged search', async () => {
    // Home page: the thesaurus roots in the site language.
    const home = await v1('thesaurus_root_list', { lang: 'lg-eng' });
    const root = home.json.result.ts1[0];
    for (const key of ['term_id', 'term', 'ar_childrens', 'indexation']) expect(root).toHaveProperty(key);

    // Term page: the term with its indexation, then one node per locator.
    const term = await v1('thesaurus_term', { ar_term_id: indexed.term_id, lang: 'lg-eng' });
    const page = term.json.result[0];
    expect(page.term).toBe(indexed.term);
    const locators = JSON.parse(page.indexation) as Locator[];
    expect(locators.length).toBeGreaterThan(0);

    // Video fragment: the player reads video_url, subtitles_url, fragm.
    const frag = await v1('fragment_from_index_locator', {
      index_locator: JSON.stringify(locators[0]),
      lang: 'lg-eng',
    });
    const { video_url, subtitles_url, fragm } = frag.json.result;
    expect(video_url).toMatch(/\?vbegin=\d+&vend=\d+$/);
    expect(fragm).not.toBe('');
    const vtt = await subtitles(subtitles_url);
    expect(vtt.text.startsWith('WEBVTT')).toBe(true);

    // Free search with paging: the list reads total and each node's fragments.
    const search = await v1('free_search', {
      q: 'boat',
      lang: 'lg-eng',
      rows_per_page: '2',
      page_number: '2',
    });
    expect(search.json.page_number).toBe(2);
    expect(search.json.result.length).toBeLessThanOrEqual(2);
    for (const node of search.json.result) {
      expect(node).toHaveProperty('av_section_id');
      expect(node.fragments.length).toBeGreaterThan(0);
    }
  });
});
