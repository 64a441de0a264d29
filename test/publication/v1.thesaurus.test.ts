/**
 * The v1 thesaurus family on each engine, checked against the ts tables read directly:
 * root list, term, children (both names), parents, autocomplete, search, random term, menu tree,
 * and the restricted-terms setting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DirectDb,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import { openV1Fixture, type V1Fixture, v1Get } from '../helpers/v1-fixture.js';

const CODE = 'v1-thesaurus';

interface TermRow {
  term_id: string;
  term: string;
  parent: string | null;
  descriptor: string;
  norder: number;
  indexation: string | null;
}

const parentOf = (p: string | null) => {
  if (!p) return '';
  return p.startsWith('[') ? ((JSON.parse(p) as string[])[0] ?? '') : p;
};

describe.each(engineCases())('v1 thesaurus on $engine', (c) => {
  let s: TestServer;
  let restricted: TestServer;
  let direct: DirectDb;
  let themes: TermRow[];
  let onomastic: TermRow[];
  let fx: V1Fixture;

  const call = (server: TestServer, action: string, params: Record<string, string> = {}) =>
    v1Get(server, CODE, action, params);
  const v1 = (action: string, params: Record<string, string> = {}) => call(s, action, params);
  const childrenOf = (rows: TermRow[], id: string) =>
    rows
      .filter((r) => parentOf(r.parent) === id && r.descriptor === 'yes')
      .sort((a, b) => a.norder - b.norder)
      .map((r) => r.term_id);

  beforeAll(async () => {
    fx = await openV1Fixture(c, CODE);
    ({ server: s, direct } = fx);
    restricted = await startTestServer(c, { V1_API_CODE: CODE, V1_AR_RESTRICTED_TERMS: 'ts1_5' });
    themes = await direct.query<TermRow>(
      `SELECT term_id, term, parent, descriptor, norder, indexation FROM ${direct.q('ts_themes')} WHERE lang = 'lg-spa'`,
    );
    onomastic = await direct.query<TermRow>(
      `SELECT term_id, term, parent, descriptor, norder, indexation FROM ${direct.q('ts_onomastic')}`,
    );
  });
  afterAll(async () => {
    await restricted.close();
    await fx.close();
  });

  it('lists the children of each tld’s root <tld>_1 as ts_term objects, though the demo has several top terms', async () => {
    const res = await v1('thesaurus_root_list', { lang: 'lg-spa' });
    const tops = themes.filter((r) => parentOf(r.parent) === '' && r.descriptor === 'yes');
    expect(tops.length).toBeGreaterThan(1);
    const got = res.json.result.ts1 as Record<string, unknown>[];
    expect(got.length).toBeGreaterThan(0);
    expect(got.map((t) => t.term_id)).toEqual(childrenOf(themes, 'ts1_1'));
    expect(res.json.result.on1.map((t: { term_id: string }) => t.term_id)).toEqual(
      childrenOf(onomastic, 'on1_1'),
    );
    const first = got[0]!;
    expect(Object.keys(first).slice(0, 10)).toEqual([
      'term_id',
      'term',
      'scope_note',
      'indexation',
      'time',
      'space',
      'lang',
      'options',
      'highlight',
      'table',
    ]);
    expect(first.table).toBe('ts_themes');
    expect(first.parent_term).toBe('');
    expect(first.ar_childrens).toEqual(childrenOf(themes, first.term_id as string));
    expect(Object.keys(res.json.result).sort()).toEqual(['on1', 'ts1']);
    const excluded = await v1('thesaurus_root_list', { lang: 'lg-spa', exclude_tld: 'on1' });
    expect(Object.keys(excluded.json.result)).toEqual(['ts1']);
  });

  it('lists the children of given parents, named by the parent', async () => {
    const res = await v1('thesaurus_root_list', { lang: 'lg-spa', parents: 'ts1_1' });
    expect(res.json.result.ts1.map((t: { term_id: string }) => t.term_id)).toEqual(
      childrenOf(themes, 'ts1_1'),
    );
    expect(res.json.result.ts1[0].parent_term).toBe(themes.find((t) => t.term_id === 'ts1_1')!.term);
  });

  it('returns terms in request order, null terms for unknown ids, and combined indexations', async () => {
    const res = await v1('thesaurus_term', { ar_term_id: 'ts1_4,ts1_1,ts1_999', lang: 'lg-spa' });
    expect(res.json.result.map((t: { term_id: string }) => t.term_id)).toEqual(['ts1_4', 'ts1_1', 'ts1_999']);
    expect(res.json.result[0].term).toBe(themes.find((t) => t.term_id === 'ts1_4')!.term);
    expect(res.json.result[2].term).toBeNull();
    expect(res.json.matching_terms).toBe(false);

    const indexed = onomastic.filter((r) => r.indexation && r.indexation !== '[]').slice(0, 2);
    const combined = await v1('thesaurus_term', {
      ar_term_id: JSON.stringify(indexed.map((r) => r.term_id)),
      combine: 'combined',
      get_matching_terms: 'true',
    });
    const key = (l: { section_tipo: unknown; section_id: unknown; tag_id: unknown }) =>
      `${l.section_tipo}|${l.section_id}|${l.tag_id}`;
    const [a, b] = indexed.map((r) => (JSON.parse(r.indexation!) as Parameters<typeof key>[0][]).map(key));
    const common = a!.filter((k) => b!.includes(k));
    for (const t of combined.json.result) {
      expect(JSON.parse(t.indexation).map(key)).toEqual(common);
    }
  });

  it('returns children (both action names), recursively, and per term in multiple mode', async () => {
    const res = await v1('thesaurus_children', { term_id: 'ts1_1', lang: 'lg-spa' });
    expect(res.json.result.map((r: { term_id: string }) => r.term_id)).toEqual(childrenOf(themes, 'ts1_1'));
    expect(res.json.total).toBe(res.json.result.length);
    const old = await v1('thesaurus_childrens', { term_id: 'ts1_1', lang: 'lg-spa' });
    expect(old.json.result).toEqual(res.json.result);

    const deep = await v1('thesaurus_children', {
      term_id: 'ts1_2',
      lang: 'lg-spa',
      recursive: 'true',
      ar_fields: 'term',
    });
    const expected: string[] = [];
    const walk = (id: string) => {
      for (const child of childrenOf(themes, id)) {
        expected.push(child);
        walk(child);
      }
    };
    walk('ts1_2');
    expect(deep.json.result.map((r: { term_id: string }) => r.term_id)).toEqual(expected);
    expect(Object.keys(deep.json.result[0])).toEqual(['table', 'term_id', 'term']);

    const multi = await v1('thesaurus_children', { term_id: 'ts1_1,ts1_2', lang: 'lg-spa' });
    expect(multi.json.total).toBeNull();
    expect(multi.json.result.map((r: { ter_id: string; total: number }) => [r.ter_id, r.total])).toEqual([
      ['ts1_1', childrenOf(themes, 'ts1_1').length],
      ['ts1_2', childrenOf(themes, 'ts1_2').length],
    ]);

    const unmapped = await v1('thesaurus_children', { term_id: 'zz9_1' });
    expect(unmapped.json).toMatchObject({ result: [], total: 0 });
    expect(unmapped.json.msg).toMatch(/^Error\. Invalid section tipo/);
  });

  it('returns parents nearest first, recursive by default (kept; docs/publication-v1.md)', async () => {
    const leaf = themes.find(
      (t) =>
        parentOf(t.parent) !== '' &&
        parentOf(themes.find((p) => p.term_id === parentOf(t.parent))?.parent ?? null) !== '',
    )!;
    const parent = parentOf(leaf.parent);
    const grand = parentOf(themes.find((p) => p.term_id === parent)!.parent);
    const res = await v1('thesaurus_parents', { term_id: leaf.term_id, lang: 'lg-spa' });
    expect(res.json.result.map((r: { term_id: string }) => r.term_id).slice(0, 2)).toEqual([parent, grand]);
    const near = await v1('thesaurus_parents', { term_id: leaf.term_id, lang: 'lg-spa', recursive: 'false' });
    expect(near.json.result.map((r: { term_id: string }) => r.term_id)).toEqual([parent]);
  });

  it('autocompletes on substrings (kept; docs/publication-v1.md), simple or full', async () => {
    const q = themes[0]!.term.slice(1, 4).toLowerCase();
    const res = await v1('thesaurus_autocomplete', { q, lang: 'lg-spa', table: 'ts_themes' });
    const want = themes.filter((t) => t.term.toLowerCase().includes(q)).map((t) => t.term);
    expect([...res.json.result].sort()).toEqual(want.sort());
    const full = await v1('thesaurus_autocomplete', {
      q,
      lang: 'lg-spa',
      table: 'ts_themes',
      format: 'full',
    });
    expect(full.json.result[0]).toEqual({
      table: 'ts_themes',
      term: expect.any(String),
      term_id: expect.any(String),
    });
    expect((await v1('thesaurus_autocomplete', {})).json).toEqual({
      result: false,
      msg: 'Error. Empty search value (q)',
    });
    const literal = await v1('thesaurus_autocomplete', { q: '%', table: 'ts_themes', lang: 'lg-spa' });
    expect(literal.json.result).toEqual([]);
  });

  it('searches terms a page at a time and swaps a non-descriptor for its descriptor', async () => {
    const nd = onomastic.find((r) => r.descriptor === 'no' && parentOf(r.parent) !== '')!;
    const res = await v1('thesaurus_search', { q: nd.term, table: 'ts_onomastic', rows_per_page: '10' });
    const parent = onomastic.find((r) => r.term_id === parentOf(nd.parent))!;
    const swapped = res.json.search_data.result.find((r: { term: string }) => r.term.includes('notaND'));
    expect(swapped.term_id).toBe(parent.term_id);
    expect(swapped.term).toBe(`${parent.term} <small class="notaND">(x ${nd.term})</small>`);
    const one = await v1('thesaurus_search', { q: 'a', table: 'ts_themes', lang: 'lg-spa' });
    expect(one.json.search_data.rows_per_page).toBe(1);
    expect(one.json.search_data.result).toHaveLength(1);
    expect(one.json.search_data.total).toBe(themes.filter((t) => t.term.toLowerCase().includes('a')).length);
    expect(Object.keys(one.json.ar_ts_terms)).toEqual(['ts1']);
  });

  it('picks a random indexed term', async () => {
    const res = await v1('thesaurus_random_term', { lang: 'lg-spa' });
    expect(Object.keys(res.json)).toEqual(['term', 'term_id', 'indexation']);
    expect(JSON.parse(res.json.indexation).length).toBeGreaterThan(0);
  });

  it('lists a plain menu tree: siblings, then each subtree', async () => {
    const res = await v1('menu_tree_plain', {
      table: 'ts_themes',
      term_id: 'ts1_2',
      lang: 'lg-spa',
      fields: 'term_id,term',
    });
    const ids = res.json.result.map((r: { term_id: string }) => r.term_id);
    const kids = themes
      .filter((t) => parentOf(t.parent) === 'ts1_2')
      .sort((a, b) => a.norder - b.norder)
      .map((t) => t.term_id);
    expect(ids.slice(0, kids.length)).toEqual(kids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('never shows a restricted term as a child', async () => {
    const res = await call(restricted, 'thesaurus_children', { term_id: 'ts1_1', lang: 'lg-spa' });
    const ids = res.json.result.map((r: { term_id: string }) => r.term_id);
    expect(childrenOf(themes, 'ts1_1')).toContain('ts1_5');
    expect(ids).not.toContain('ts1_5');
    const term = await call(restricted, 'thesaurus_term', { ar_term_id: 'ts1_1', lang: 'lg-spa' });
    expect(term.json.result[0].ar_childrens).not.toContain('ts1_5');
  });
});
