/**
 * V1_PUBLICACION_FILTER_SQL on each engine: the operator's condition hides rows from term
 * loading, portal resolution, thesaurus_search and thesaurus_random_term, and the
 * `publication_filter_sql` parameter narrows further but cannot lift it. The hidden row is a
 * thesaurus term some other term names as a child, chosen from the database before the server starts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DirectDb, engineCases, type TestServer } from '../helpers/publication-server.js';
import { openV1Fixture, type V1Fixture, v1Get } from '../helpers/v1-fixture.js';

const CODE = 'v1-filter';

describe.each(engineCases())('v1 PUBLICACION_FILTER_SQL on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  let parent: { section_id: number; children: string };
  let hidden: { section_id: number; term_id: string; term: string };
  let fx: V1Fixture | undefined;
  const v1 = (action: string, params: Record<string, string> = {}) => v1Get(s, CODE, action, params);

  beforeAll(async () => {
    direct = await c.openDirect();
    const parents = await direct.query<{ section_id: number; children: string }>(
      `SELECT section_id, children FROM ${direct.q('ts_themes')}
       WHERE lang = 'lg-spa' AND children LIKE '[{%},{%' ORDER BY section_id LIMIT 1`,
    );
    parent = parents[0]!;
    const childId = Number((JSON.parse(parent.children) as { section_id: string }[])[0]!.section_id);
    const children = await direct.query<{ section_id: number; term_id: string; term: string }>(
      `SELECT section_id, term_id, term FROM ${direct.q('ts_themes')} WHERE lang = 'lg-spa' AND section_id = ?`,
      [childId],
    );
    hidden = children[0]!;
    fx = await openV1Fixture(
      c,
      CODE,
      { V1_PUBLICACION_FILTER_SQL: ` AND section_id <> ${hidden.section_id}` },
      direct,
    );
    s = fx.server;
  });
  afterAll(async () => {
    if (fx) await fx.close();
    else await direct.close();
  });

  it('hides the row from thesaurus_term', async () => {
    const res = await v1('thesaurus_term', { ar_term_id: hidden.term_id, lang: 'lg-spa' });
    expect(res.json.result[0]).toMatchObject({ term_id: hidden.term_id, term: null });
    const shown = await v1('thesaurus_term', { ar_term_id: 'ts1_1', lang: 'lg-spa' });
    expect(typeof shown.json.result[0].term).toBe('string');
  });

  it('drops the row from resolved portals, keeping the others', async () => {
    const res = await v1('records', {
      table: 'ts_themes',
      ar_fields: 'section_id,children',
      section_id: String(parent.section_id),
      lang: 'lg-spa',
      resolve_portals_custom: JSON.stringify({ children: 'ts_themes' }),
    });
    const want = (JSON.parse(parent.children) as { section_id: string }[])
      .map((l) => Number(l.section_id))
      .filter((id) => id !== hidden.section_id);
    expect(res.json.result[0].children.map((r: { section_id: number }) => r.section_id)).toEqual(want);
    // A portal_filter of the call's own replaces it for that table.
    const own = await v1('records', {
      table: 'ts_themes',
      ar_fields: 'section_id,children',
      section_id: String(parent.section_id),
      lang: 'lg-spa',
      resolve_portals_custom: JSON.stringify({ children: 'ts_themes' }),
      portal_filter: JSON.stringify({ ts_themes: 'section_id > 0' }),
    });
    expect(own.json.result[0].children.map((r: { section_id: number }) => r.section_id)).toContain(
      hidden.section_id,
    );
  });

  it('hides the row from thesaurus_search, and publication_filter_sql narrows further', async () => {
    const all = await direct.query<{ term_id: string }>(
      `SELECT term_id FROM ${direct.q('ts_themes')} WHERE lang = 'lg-spa' AND term LIKE ?`,
      [`%${hidden.term}%`],
    );
    const found = await v1('thesaurus_search', {
      q: hidden.term,
      lang: 'lg-spa',
      table: 'ts_themes',
      rows_per_page: '0',
    });
    expect(found.json.search_data.total).toBe(all.length - 1);
    const narrowed = await v1('thesaurus_search', {
      q: hidden.term,
      lang: 'lg-spa',
      table: 'ts_themes',
      rows_per_page: '0',
      publication_filter_sql: ' AND section_id < 0',
    });
    expect(narrowed.json.search_data.total).toBe(0);
  });

  it('accepts the configured filter itself as a records sql_filter, leading AND and all', async () => {
    const all = await direct.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ${direct.q('ts_themes')} WHERE lang = 'lg-spa'`,
    );
    const res = await v1('records', {
      table: 'ts_themes',
      ar_fields: 'section_id',
      lang: 'lg-spa',
      count: 'true',
      sql_filter: ` AND section_id <> ${hidden.section_id}`,
    });
    expect(res.json.total).toBe(Number(all[0]!.n) - 1);
    expect(res.json.result.map((r: { section_id: number }) => r.section_id)).not.toContain(hidden.section_id);
    // Any other fragment with a leading AND is still refused, as upstream's SQL was invalid.
    const other = await v1('records', { table: 'ts_themes', sql_filter: ' AND section_id <> 1' });
    expect(other.json.result).toBe(false);
  });

  it('thesaurus_random_term takes publication_filter_sql, which cannot lift the configured filter', async () => {
    const [indexed] = await direct.query<{ section_id: number; term_id: string }>(
      `SELECT section_id, term_id FROM ${direct.q('ts_themes')}
       WHERE lang = 'lg-spa' AND indexation IS NOT NULL AND indexation NOT IN ('', '[]') AND section_id <> ?
       ORDER BY section_id LIMIT 1`,
      [hidden.section_id],
    );
    const one = await v1('thesaurus_random_term', {
      table: 'ts_themes',
      lang: 'lg-spa',
      publication_filter_sql: `AND section_id = ${indexed!.section_id}`,
    });
    expect(one.json.term_id).toBe(indexed!.term_id);
    const lifted = await v1('thesaurus_random_term', {
      table: 'ts_themes',
      lang: 'lg-spa',
      publication_filter_sql: `AND section_id = ${hidden.section_id}`,
    });
    expect(lifted.json.term_id).toBeNull();
    const bad = await v1('thesaurus_random_term', {
      table: 'ts_themes',
      publication_filter_sql: 'AND 1=1; DROP TABLE ts_themes',
    });
    expect(bad.json.result).toBe(false);
    expect(bad.json.msg).toMatch(/^Error on sql request\. Illegal publication_filter_sql/);
  });
});
