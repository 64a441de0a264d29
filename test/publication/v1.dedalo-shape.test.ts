/**
 * v1 on a database in Dédalo's standard published shape (test/helpers/dedalo-fixture.ts), on each
 * engine, with only V1_API_CODE set: every audiovisual and subtitle action works (the shape is
 * read from the schema), and each action is checked against its section of the v1 spec:
 * children by `norder`, root lists grouped by tld, posterframes beside the videos, the
 * 55-character / linear time-code estimate of index fragments, and the interview merged into
 * reel, free-search and player nodes (docs/publication-v1.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltDb, buildDedaloDb, EXILE_LOCATORS } from '../helpers/dedalo-fixture.js';
import { engineCases, rawRequest, startTestServer, type TestServer } from '../helpers/publication-server.js';
import { V1, v1Get } from '../helpers/v1-fixture.js';

const CODE = 'v1-dedalo';
const VIDEO_1 = '/dedalo/media/av/404/rsc35_rsc167_1.mp4';
const POSTER_1 = '/dedalo/media/av/posterframe/rsc35_rsc167_1.jpg';

describe.each(engineCases())('v1 on a Dédalo-shaped database on $engine', (c) => {
  let s: TestServer;
  let built: BuiltDb;
  const v1 = async (action: string, params: Record<string, string> = {}) => {
    const res = await v1Get(s, CODE, action, params);
    expect(res.status).toBe(200);
    return res.json;
  };
  const fragment = async (tag: number, lang = 'lg-spa') =>
    (
      await v1('fragment_from_index_locator', {
        index_locator: JSON.stringify({ ...EXILE_LOCATORS[0], tag_id: String(tag) }),
        lang,
      })
    ).result;

  beforeAll(async () => {
    built = await buildDedaloDb(c);
    // Only the access code: no AV_* variable names Dédalo's tables or columns.
    s = await startTestServer({ ...c, env: built.env }, { V1_API_CODE: CODE });
  });
  afterAll(async () => {
    await s?.close();
    await built?.drop();
  });

  it('fragment_from_index_locator reads rsc36 and puts the posterframes beside the video', async () => {
    const f = await fragment(1);
    expect(f.fragm).toMatch(/^exili( exili)+/);
    expect(f.video_url).toBe(`${VIDEO_1}?vbegin=${Math.floor(f.tcin_secs)}&vend=${Math.ceil(f.tcout_secs)}`);
    expect(f.posterframe_url).toBe(POSTER_1);
    expect(f.posterframe_tag_url).toBe('/dedalo/media/av/posterframe/rsc35_rsc167_1_1.jpg');
    expect(f.subtitles_url).toBe(
      `${V1}/subtitles/?section_id=1&lang=lg-spa&tc_in=${Math.floor(f.tcin_secs)}&tc_out=${Math.ceil(f.tcout_secs)}`,
    );
  });

  it('estimates index fragment times: by character position far from time codes, the time code within 55 characters', async () => {
    // Tag 1: 200 characters after 00:00:10, 100 long, 200 before 00:00:50 -> 26 s to 34 s.
    const far = await fragment(1);
    expect(far.tcin_secs).toBeCloseTo(26, 0);
    expect(far.tcout_secs).toBeCloseTo(34, 0);
    // Tag 2 opens just after 00:00:50 and closes just before 00:01:00.
    const near = await fragment(2);
    expect([near.tcin_secs, near.tcout_secs]).toEqual([50, 60]);
    // Tag 3, after the last time code: up to the duration (00:01:40) -> 84 s to 92 s.
    const last = await fragment(3);
    expect(last.tcin_secs).toBeCloseTo(84, 0);
    expect(last.tcout_secs).toBeCloseTo(92, 0);
    expect(last.video_url).toBe(
      `${VIDEO_1}?vbegin=${Math.floor(last.tcin_secs)}&vend=${Math.ceil(last.tcout_secs)}`,
    );
    // margin_seconds_in / _out widen the window, never below 0.
    const wide = await v1('fragment_from_index_locator', {
      index_locator: JSON.stringify({ ...EXILE_LOCATORS[0], tag_id: '2' }),
      lang: 'lg-spa',
      margin_seconds_in: '5',
      margin_seconds_out: '3.5',
    });
    expect([wide.result.tcin_secs, wide.result.tcout_secs]).toEqual([45, 63.5]);
    expect(wide.result.video_url).toBe(`${VIDEO_1}?vbegin=45&vend=64`);
    const floor = await v1('fragment_from_index_locator', {
      index_locator: JSON.stringify({ ...EXILE_LOCATORS[0], tag_id: '2' }),
      margin_seconds_in: '500',
    });
    expect(floor.result.tcin_secs).toBe(0);
  });

  it('a record without a video path gets Dédalo’s default file (WEB_VIDEO_BASE_URL /dedalo/media/av/404) and its posterframe', async () => {
    const reel = await v1('full_reel', { av_section_id: '2', lang: 'lg-spa' });
    expect(reel.result.video).toBe('/dedalo/media/av/404/rsc35_rsc167_2.mp4');
    expect(reel.result.image_url).toBe('/dedalo/media/av/posterframe/rsc35_rsc167_2.jpg');
  });

  it('reel_fragments_of_type lists each index tag of the recording with its window', async () => {
    const res = await v1('reel_fragments_of_type', {
      av_section_id: '1',
      lang: 'lg-spa',
      return_text: 'true',
    });
    expect(res.result.map((f: { tag_id: string }) => f.tag_id)).toEqual(['1', '2', '3']);
    expect(res.result[1]).toMatchObject({ tcin_secs: 50, tcout_secs: 60, fragm: 'frontera de Portbou' });
  });

  it('reel_terms lists the terms indexing a recording, each with its locators on it', async () => {
    const res = await v1('reel_terms', { av_section_id: '1', lang: 'lg-spa' });
    expect(res.result.map((t: { term_id: string }) => t.term_id)).toEqual([
      'ts1_3',
      'on1_2',
      'ts1_5',
      'ts2_2',
    ]);
    const exile = res.result.find((t: { term_id: string }) => t.term_id === 'ts1_3');
    expect(exile.locators).toEqual([EXILE_LOCATORS[0]]);
  });

  it('full_reel merges the interview listing the recording, with informant and image rows', async () => {
    const res = await v1('full_reel', { av_section_id: '1', lang: 'lg-eng', terms: 'true' });
    expect(res.msg).toBe('Ok. Request full_reel done successfully');
    const node = res.result;
    expect(node).toMatchObject({
      av_section_id: 1,
      table: 'audiovisual',
      video: VIDEO_1,
      duration: '00:01:40.000',
      interview_section_id: 1,
      code: 'OH-001',
      abstract: 'Exile across the Pyrenees',
      date: '1998-05-04',
      image_url: POSTER_1,
      result: true,
      ar_key: ['1', '2'],
      key: 1,
    });
    expect(node.informant).toEqual([
      expect.objectContaining({ table: 'informant', section_id: 1, name: 'Joan', surname: 'Serra' }),
    ]);
    expect(node.image).toEqual([
      expect.objectContaining({ section_id: 1, image: '/dedalo/media/image/1.5MB/0/rsc29_rsc170_1.jpg' }),
    ]);
    expect(node).not.toHaveProperty('rsc36');
    expect(node.fragments[0].fragm).toMatch(/^wording wording/);
    expect(node.fragments[0].fragm).not.toMatch(/\[/);
    expect(node.fragments[0].subtitles_url).toBe(`${V1}/subtitles/?section_id=1&lang=lg-eng`);
    expect(Object.keys(node.terms)).toEqual(['on1_2', 'ts1_3', 'ts1_5', 'ts2_2']);
  });

  it('full_interview gives a full node per recording the interview lists', async () => {
    const res = await v1('full_interview', { section_id: '1', lang: 'lg-spa' });
    expect(res.result.map((n: { av_section_id: number }) => n.av_section_id)).toEqual([1, 2]);
    expect(res.result.every((n: { interview_section_id: number }) => n.interview_section_id === 1)).toBe(
      true,
    );
  });

  it('free_search searches rsc36 and merges the interview into each node', async () => {
    const res = await v1('free_search', { q: 'frontera', lang: 'lg-spa', video_fragment: 'true' });
    expect(res.total).toBe(2);
    const byId = new Map(res.result.map((n: { av_section_id: number }) => [n.av_section_id, n]));
    expect([...byId.keys()].sort()).toEqual([1, 3]);
    const one = byId.get(1) as Record<string, unknown> & { fragments: Record<string, unknown>[] };
    expect(one).toMatchObject({
      video: VIDEO_1,
      interview_section_id: 1,
      code: 'OH-001',
      abstract: 'Exili pels Pirineus',
      image_url: POSTER_1,
      informant: [expect.objectContaining({ name: 'Joan' })],
    });
    expect(one).not.toHaveProperty('rsc36');
    expect(one.fragments[0]!.list_fragment).toContain('<mark>frontera</mark>');
    expect(one.fragments[0]!.video_url).toMatch(/^\/dedalo\/media\/av\/404\/rsc35_rsc167_1\.mp4\?vbegin=/);
    expect(byId.get(3)).toMatchObject({ interview_section_id: 2, code: 'OH-002' });
  });

  it('free_search answers image_type=identify_image with the interview’s first image', async () => {
    const res = await v1('free_search', { q: 'frontera', lang: 'lg-spa', image_type: 'identify_image' });
    const images = Object.fromEntries(
      res.result.map((n: { av_section_id: number; image_url: unknown }) => [n.av_section_id, n.image_url]),
    );
    expect(images).toEqual({ 1: '/dedalo/media/image/1.5MB/0/rsc29_rsc170_1.jpg', 3: [] });
  });

  it('thesaurus_indexation_node gives a node per locator whose recording and interview exist in the language', async () => {
    const spa = await v1('thesaurus_indexation_node', { term_id: 'ts1_3', lang: 'lg-spa' });
    expect(
      spa.result.map((n: { node_id: string; locator: { section_id: string } }) => n.locator.section_id),
    ).toEqual(['1', '3']);
    expect(spa.result[0]).toMatchObject({ image_url: POSTER_1, group_locators: [EXILE_LOCATORS[0]] });
    // Recording 3 has no English row.
    const eng = await v1('thesaurus_indexation_node', { term_id: 'ts1_3', lang: 'lg-eng' });
    expect(eng.result.map((n: { locator: { section_id: string } }) => n.locator.section_id)).toEqual(['1']);
    // identify_image: the first image of each locator's interview, [] for interview 2 (none).
    const identify = await v1('thesaurus_indexation_node', {
      term_id: 'ts1_3',
      lang: 'lg-spa',
      image_type: 'identify_image',
    });
    expect(
      identify.result.map((n: { image_type: string; image_url: unknown }) => [n.image_type, n.image_url]),
    ).toEqual([
      ['identify_image', '/dedalo/media/image/1.5MB/0/rsc29_rsc170_1.jpg'],
      ['identify_image', []],
    ]);
  });

  it('thesaurus_video_view_data takes summary, date, code and informant from the interview', async () => {
    const res = await v1('thesaurus_video_view_data', {
      term_id: 'ts1_3',
      ar_locators: JSON.stringify(EXILE_LOCATORS),
      ar_locators_key: '1',
      lang: 'lg-spa',
    });
    expect(res).toMatchObject({
      result: true,
      interview_id: '2',
      av_section_id: '3',
      image_url: '/dedalo/media/av/posterframe/rsc35_rsc167_3.jpg',
      summary: 'Presó',
      interview_date: '2001-10-12',
      interview_code: 'OH-002',
      informant: [expect.objectContaining({ name: 'Maria', surname: 'Puig' })],
      total: 2,
      key: 1,
      term: 'Exili',
    });
    expect(res.fragments[0]).toMatchObject({ tcin_secs: 5, fragm: 'La presó de dones' });
  });

  it('subtitles are built from rsc36 and the time-code duration', async () => {
    const res = await rawRequest(`${new URL(s.base).origin}${V1}/subtitles/?section_id=1&lang=lg-spa`);
    expect(res.text.startsWith('WEBVTT\n\n1\n00:00:10.000 --> ')).toBe(true);
    expect(res.text).toContain('frontera de Portbou');
    const windowed = await rawRequest(
      `${new URL(s.base).origin}${V1}/subtitles/?section_id=1&lang=lg-spa&tc_in=50&tc_out=55`,
    );
    expect(windowed.text.startsWith('WEBVTT\n\n1\n00:00:00.000 --> ')).toBe(true);
    expect(windowed.text.split('\n')[4]).toContain('La frontera de Portbou');
  });

  it('orders ar_childrens and thesaurus_children by norder, leaving non-descriptors out', async () => {
    const term = await v1('thesaurus_term', { ar_term_id: 'ts1_1', lang: 'lg-spa' });
    expect(term.result[0].ar_childrens).toEqual(['ts1_3', 'ts1_4', 'ts1_2']);
    const children = await v1('thesaurus_children', { term_id: 'ts1_1', lang: 'lg-spa' });
    expect(children.result.map((r: { term_id: string }) => r.term_id)).toEqual(['ts1_3', 'ts1_4', 'ts1_2']);
    const onomastic = await v1('thesaurus_term', { ar_term_id: 'on1_1', lang: 'lg-spa' });
    expect(onomastic.result[0].ar_childrens).toEqual(['on1_3', 'on1_2']);
  });

  it('thesaurus_root_list groups the children of each <tld>_1 root by tld, two tlds sharing a table, one tld over two tables', async () => {
    const res = await v1('thesaurus_root_list', { lang: 'lg-eng' });
    const ids = (key: string) => res.result[key]?.map((t: { term_id: string }) => t.term_id);
    expect(Object.keys(res.result).sort()).toEqual(['on1', 'ts1', 'ts2']);
    // ts1 has a second top term (ts1_7, not listed) and a child of ts1_1 in ts_themes_more.
    expect(ids('ts1')).toEqual(['ts1_3', 'ts1_4', 'ts1_2', 'ts1_8']);
    expect(res.result.ts1[3]).toMatchObject({
      term: 'Treball (en)',
      table: 'ts_themes_more',
      parent_term: '',
    });
    expect(ids('ts2')).toEqual(['ts2_2']);
    expect(ids('on1')).toEqual(['on1_3', 'on1_2']);
    expect(res.result.ts1[0]).toMatchObject({ term: 'Exili (en)', parent_term: '', ar_childrens: [] });
    expect(res.result.ts1[2].ar_childrens).toEqual(['ts1_5']);
    const excluded = await v1('thesaurus_root_list', { lang: 'lg-eng', exclude_tld: 'ts2,on1' });
    expect(Object.keys(excluded.result)).toEqual(['ts1']);
  });

  it('thesaurus_root_list with parents names a hierarchy parent from `hierarchy` and keys it by its id', async () => {
    const res = await v1('thesaurus_root_list', { lang: 'lg-spa', parents: 'hierarchy1_245,ts1_2' });
    expect(Object.keys(res.result)).toEqual(['hierarchy1_245', 'ts1']);
    expect(res.result.hierarchy1_245.map((t: { term_id: string }) => t.term_id)).toEqual(['ts1_1']);
    expect(res.result.hierarchy1_245[0].parent_term).toBe('Temes');
    expect(
      res.result.ts1.map((t: { term_id: string; parent_term: string }) => [t.term_id, t.parent_term]),
    ).toEqual([['ts1_5', 'Guerra']]);
  });

  it('thesaurus_parents climbs to the root and stops at the hierarchy', async () => {
    const res = await v1('thesaurus_parents', { term_id: 'ts1_5', lang: 'lg-spa' });
    expect(res.result.map((r: { term_id: string }) => r.term_id)).toEqual(['ts1_2', 'ts1_1']);
  });

  it('thesaurus_search swaps a non-descriptor for its descriptor and paths it from the root, hierarchy left out', async () => {
    const res = await v1('thesaurus_search', { q: 'Exiliats', lang: 'lg-spa', tree_root: 'last_parent' });
    expect(res.search_data.total).toBe(1);
    expect(res.search_data.result[0]).toMatchObject({
      term_id: 'ts1_3',
      term: 'Exili <small class="notaND">(x Exiliats)</small>',
    });
    expect(res.ar_highlight).toEqual(['ts1_3']);
    expect(res.ar_parent).toEqual(['ts1_1']);
    expect(res.ar_ts_terms.ts1[0]).toMatchObject({
      term_id: 'ts1_1',
      ar_childrens: ['ts1_3', 'ts1_4', 'ts1_2'],
    });
  });

  it('thesaurus_autocomplete and menu_tree_plain read the ts tables (the tree by norder, subtrees after siblings)', async () => {
    expect((await v1('thesaurus_autocomplete', { q: 'port', lang: 'lg-spa' })).result).toEqual(['Portbou']);
    const tree = await v1('menu_tree_plain', {
      table: 'ts_themes',
      term_id: 'ts1_1',
      fields: 'term_id',
      lang: 'lg-spa',
    });
    expect(tree.result.map((r: { term_id: string }) => r.term_id)).toEqual([
      'ts1_3',
      'ts1_4',
      'ts1_2',
      'ts1_6',
      'ts1_5',
    ]);
  });

  it('records resolves the interview portals through publication_schema, and publication_schema answers it', async () => {
    const schema = await v1('publication_schema');
    expect(schema.dd_relations).toMatchObject({ rsc167: 'audiovisual', oh1: 'interview' });
    const res = await v1('records', {
      table: 'interview',
      section_id: '1',
      lang: 'lg-spa',
      ar_fields: 'section_id,code,informant,audiovisual',
      resolve_portal: 'true',
    });
    expect(res.result).toHaveLength(1);
    expect(res.result[0].informant).toEqual([
      expect.objectContaining({ section_id: 1, name: 'Joan', lang: 'lg-spa' }),
    ]);
    // `audiovisual` is not in publication_schema: it stays the stored JSON text.
    expect(res.result[0].audiovisual).toBe('["1","2"]');
  });

  it('masks the passages of V1_TERM_ID_RESTRICTED in fragments, the full reel and subtitles', async () => {
    // ts1_5 indexes tag 3 of recording 1 (the "retorn" passage).
    const restricted = await startTestServer(
      { ...c, env: built.env },
      { V1_API_CODE: CODE, V1_TERM_ID_RESTRICTED: 'ts1_5' },
    );
    try {
      const get = async (action: string, params: Record<string, string>) =>
        (await v1Get(restricted, CODE, action, params)).json;
      const reel = await get('full_reel', { av_section_id: '1', lang: 'lg-spa' });
      expect(reel.result.fragments[0].fragm).toContain('***');
      expect(reel.result.fragments[0].fragm).not.toContain('retorn');
      expect(reel.result.ar_restricted_fragments.map((f: { tag_id: string }) => f.tag_id)).toEqual(['3']);
      const tags = await get('reel_fragments_of_type', {
        av_section_id: '1',
        lang: 'lg-spa',
        return_restricted: 'true',
      });
      expect(tags.ar_restricted_fragments[0].tcin_secs).toBeCloseTo(84, 0);
      const vtt = await rawRequest(
        `${new URL(restricted.base).origin}${V1}/subtitles/?section_id=1&lang=lg-spa`,
      );
      expect(vtt.text).toContain('frontera de Portbou');
      expect(vtt.text).not.toContain('retorn');
    } finally {
      await restricted.close();
    }
  });

  it('tables_info, image_data and combi read the Dédalo tables', async () => {
    const info = await v1('tables_info');
    expect(info.audiovisual).toEqual(['section_id', 'lang', 'video', 'rsc36', 'duration']);
    expect(info.ts_themes).toContain('norder');
    const image = await v1('image_data', { section_id: '1', lang: 'lg-spa' });
    expect(image.result).toMatchObject({
      section_id: 1,
      image: '/dedalo/media/image/1.5MB/0/rsc29_rsc170_1.jpg',
    });
    const combi = await v1('combi', {
      ar_calls: JSON.stringify([
        { id: 'reel', options: { dedalo_get: 'full_reel', av_section_id: '3' } },
        { id: 'roots', options: { dedalo_get: 'thesaurus_root_list', exclude_tld: ['ts2', 'on1'] } },
      ]),
      lang: 'lg-spa',
    });
    expect(combi.result.map((r: { id: string }) => r.id)).toEqual(['reel', 'roots']);
    expect(combi.result[0].result).toMatchObject({ av_section_id: 3, interview_section_id: 2 });
    expect(Object.keys(combi.result[1].result)).toEqual(['ts1']);
  });
});
