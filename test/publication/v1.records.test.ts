/**
 * The legacy v1 API on each engine: transport (code check, the three intake modes, the
 * envelope, errors as HTTP 200), `records` checked against the database itself, portal and
 * relation resolution, the catalogue actions and combi. See docs/publication-v1.md.
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

const CODE = 'v1-test-code';

describe.each(engineCases())('v1 records on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  let origin: string;
  let fx: V1Fixture;

  const v1 = (action: string, params: Record<string, string> = {}, withCode = true) =>
    v1Get(s, CODE, action, params, withCode);
  const post = (action: string, body: string, type: string) =>
    rawRequest(`${origin}${V1}/json/${action}`, 'POST', { 'Content-Type': type }, body);

  beforeAll(async () => {
    fx = await openV1Fixture(c, CODE, { V1_API_ENTITY: 'Test archive' });
    ({ server: s, direct, origin } = fx);
  });
  afterAll(() => fx.close());

  describe('transport', () => {
    it('refuses a missing or wrong code with a bare JSON string and HTTP 200', async () => {
      const missing = await v1('records', { table: 'interview' }, false);
      expect(missing.status).toBe(200);
      expect(missing.headers['content-type']).toMatch(/^application\/json/);
      expect(missing.json).toBe('Error. Empty user code');
      const wrong = await v1('records', { table: 'interview', code: 'nope' }, false);
      expect(wrong.json).toBe("Error. Invalid user code 'nope' Test archive");
      const right = await v1('records', { table: 'interview', limit: '1' });
      expect(Array.isArray(right.json.result)).toBe(true);
    });

    it('sends the v1 CORS headers on every answer', async () => {
      const res = await v1('records', { table: 'interview', limit: '1' });
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-headers']).toBe('Content-Type');
    });

    it('answers the same rows whichever way the parameters arrive', async () => {
      const want = {
        table: 'interview',
        ar_fields: 'section_id,code',
        lang: 'lg-spa',
        limit: '3',
        count: 'true',
      };
      const flat = await v1('records', want);
      const options = JSON.stringify({ ...want, limit: 3, count: true });
      const form = await post(
        'records',
        new URLSearchParams({ code: CODE, options }).toString(),
        'application/x-www-form-urlencoded',
      );
      const body = await post(
        'records',
        JSON.stringify({ code: CODE, ...want, limit: 3, count: true }),
        'application/json',
      );
      const formFields = await post(
        'records',
        new URLSearchParams({ code: CODE, ...want }).toString(),
        'application/x-www-form-urlencoded',
      );
      for (const res of [form, body, formFields]) {
        expect(res.json.result).toEqual(flat.json.result);
        expect(res.json.total).toBe(flat.json.total);
      }
      expect(flat.json.total).toBeGreaterThan(3);
    });

    it('keeps false and 0 sent in a JSON body (upstream dropped them, docs/publication-v1.md)', async () => {
      const res = await post(
        'records',
        JSON.stringify({ code: CODE, table: 'interview', ar_fields: ['section_id'], count: false, limit: 2 }),
        'text/plain',
      );
      expect(res.json.total).toBe(false);
      expect(res.json.result).toHaveLength(2);
    });

    it('coerces only the flat strings "true" and "false", and takes the action from the path', async () => {
      const res = await v1('records', {
        table: 'interview',
        limit: '1',
        count: 'false',
        dedalo_get: 'tables_info',
      });
      expect(res.json.total).toBe(false);
      expect(res.json.msg).toMatch(/^OK get rows_data done/);
    });

    it('answers an unknown action, no action, a bad database and a bad lang the v1 way', async () => {
      expect((await v1('nope')).json).toEqual({
        result: false,
        msg: 'Error. Undefined method (dedalo_get) : nope',
      });
      const none = await rawRequest(`${origin}${V1}/json/?code=${CODE}`);
      expect(none.status).toBe(200);
      expect(none.json).toBeNull();
      const viaIndex = await rawRequest(
        `${origin}${V1}/json/index.php?code=${CODE}&dedalo_get=table_thesaurus`,
      );
      expect(viaIndex.json).toBe('ts_onomastic,ts_themes');
      expect((await v1('records', { table: 'interview', db_name: 'mysql' })).json).toEqual({
        result: false,
        msg: 'Error. Illegal database name: mysql',
      });
      expect((await v1('records', { table: 'interview', lang: 'spanish' })).json.result).toBe(false);
    });

    it('answers search_tipos with a clear "not supported"', async () => {
      const res = await v1('search_tipos', { ar_query: '[]' });
      expect(res.json.result).toBe(false);
      expect(res.json.msg).toMatch(/not supported/);
    });
  });

  describe('records', () => {
    it('returns the table first, the asked columns in order, raw relation text, and total on count', async () => {
      const res = await v1('records', {
        table: 'interview',
        ar_fields: 'section_id,informant,code',
        lang: 'lg-spa',
        limit: '5',
        offset: '2',
        count: 'true',
      });
      const ref = await direct.query<Record<string, unknown>>(
        `SELECT ${direct.q('section_id')}, ${direct.q('informant')}, ${direct.q('code')} FROM ${direct.q('interview')} WHERE ${direct.q('lang')} = ? ORDER BY ${direct.q('section_id')} LIMIT 5 OFFSET 2`,
        ['lg-spa'],
      );
      const [counted] = await direct.query<{ n: number }>(
        `SELECT COUNT(*) AS n FROM ${direct.q('interview')} WHERE ${direct.q('lang')} = ?`,
        ['lg-spa'],
      );
      expect(res.json.result).toEqual(ref.map((r) => ({ table: 'interview', ...r })));
      expect(Object.keys(res.json.result[0])).toEqual(['table', 'section_id', 'informant', 'code']);
      expect(typeof res.json.result[0].informant).toBe('string');
      expect(res.json.total).toBe(Number(counted?.n));
      expect(res.json.msg).toBe('OK get rows_data done. Ok exec_query done');
      expect(res.json.debug).toHaveProperty('total_time');
    });

    it('returns every language when lang is not sent (kept; docs/publication-v1.md)', async () => {
      const res = await v1('records', { table: 'interview', ar_fields: 'section_id,lang', section_id: '1' });
      const langs = res.json.result.map((r: { lang: string }) => r.lang).sort();
      const ref = await direct.query<{ lang: string }>(
        `SELECT ${direct.q('lang')} FROM ${direct.q('interview')} WHERE ${direct.q('section_id')} = 1`,
      );
      expect(langs).toEqual(ref.map((r) => r.lang).sort());
      expect(langs.length).toBeGreaterThan(1);
    });

    it('applies sql_filter with AND / OR / NOT, LIKE, IN, BETWEEN and IS NULL as the engine would', async () => {
      const filter =
        "(code LIKE 'OH-00001%' OR section_id IN (2, 3)) AND NOT section_id = 12 AND section_id BETWEEN 1 AND 40 AND code IS NOT NULL";
      const res = await v1('records', {
        table: 'interview',
        ar_fields: 'section_id',
        lang: 'lg-spa',
        sql_filter: filter,
        order: 'section_id DESC',
      });
      const ref = await direct.query<{ section_id: number }>(
        `SELECT ${direct.q('section_id')} FROM ${direct.q('interview')} WHERE lang = 'lg-spa' AND (${filter}) ORDER BY section_id DESC`,
      );
      expect(res.json.result.map((r: { section_id: number }) => r.section_id)).toEqual(
        ref.map((r) => r.section_id),
      );
      expect(ref.length).toBeGreaterThan(3);
    });

    it('takes section_id as a comma list', async () => {
      const res = await v1('records', {
        table: 'interview',
        ar_fields: 'section_id',
        section_id: '4, 9,2',
        lang: 'lg-spa',
      });
      expect(res.json.result.map((r: { section_id: number }) => r.section_id)).toEqual([2, 4, 9]);
    });

    it('accepts aliases, functions and DISTINCT in ar_fields and orders by an alias', async () => {
      const res = await v1('records', {
        table: 'interview',
        ar_fields: "DISTINCT CONCAT(code, ' / ', lang) AS label, UPPER(lang) AS l",
        section_id: '3',
        order: 'label',
      });
      expect(res.json.result.length).toBeGreaterThan(0);
      for (const row of res.json.result) {
        expect(Object.keys(row)).toEqual(['table', 'label', 'l']);
        expect(row.label).toBe(`OH-000003 / ${row.l.toLowerCase()}`);
      }
    });

    it('finds words with MATCH ... AGAINST and orders by relevance', async () => {
      const res = await v1('records', {
        table: 'interview',
        ar_fields: "section_id, MATCH(transcription) AGAINST('boat') AS relevance",
        sql_filter: "MATCH(transcription) AGAINST('+boat' IN BOOLEAN MODE)",
        lang: 'lg-eng',
        order: 'relevance DESC',
        count: 'true',
      });
      const rows = res.json.result as { section_id: number; relevance: number }[];
      expect(rows.length).toBeGreaterThan(0);
      expect(res.json.total).toBe(rows.length);
      for (let i = 1; i < rows.length; i++)
        expect(rows[i - 1]!.relevance).toBeGreaterThanOrEqual(rows[i]!.relevance);
      const ids = rows.map((r) => r.section_id);
      const texts = await direct.query<{ section_id: number; transcription: string }>(
        `SELECT section_id, transcription FROM ${direct.q('interview')} WHERE lang = 'lg-eng'`,
      );
      const withBoat = texts.filter((t) => /\bboat\b/i.test(t.transcription)).map((t) => t.section_id);
      expect(ids.sort((a, b) => a - b)).toEqual(withBoat.sort((a, b) => a - b));
    });

    it('counts groups, not the rows before grouping (fixed; docs/publication-v1.md)', async () => {
      const res = await v1('records', {
        table: 'interview',
        ar_fields: 'lang, COUNT(*) AS n',
        group: 'lang',
        count: 'true',
      });
      const ref = await direct.query<{ lang: string; n: number }>(
        `SELECT lang, COUNT(*) AS n FROM ${direct.q('interview')} GROUP BY lang ORDER BY lang`,
      );
      expect(res.json.total).toBe(ref.length);
      const got = [...res.json.result].sort((a: { lang: string }, b: { lang: string }) =>
        a.lang.localeCompare(b.lang),
      );
      expect(got.map((r: { lang: string; n: number }) => [r.lang, Number(r.n)])).toEqual(
        ref.map((r) => [r.lang, Number(r.n)]),
      );
    });

    it('queries several tables as one ordered, paged list labelled with the whole list (kept; docs/publication-v1.md)', async () => {
      const res = await v1('records', {
        table: 'ts_themes,ts_onomastic',
        ar_fields: 'term_id,section_id',
        order: 'section_id DESC',
        limit: '4',
        offset: '1',
        count: 'true',
        lang: 'lg-spa',
      });
      const themes = await direct.query<{ section_id: number }>(
        `SELECT section_id FROM ${direct.q('ts_themes')} WHERE lang = 'lg-spa'`,
      );
      const onomastic = await direct.query<{ section_id: number }>(
        `SELECT section_id FROM ${direct.q('ts_onomastic')}`,
      );
      const all = [...themes, ...onomastic].map((r) => r.section_id).sort((a, b) => b - a);
      expect(res.json.total).toBe(all.length);
      expect(res.json.result.map((r: { section_id: number }) => r.section_id)).toEqual(all.slice(1, 5));
      for (const row of res.json.result) expect(row.table).toBe('ts_themes,ts_onomastic');
    });

    it('runs a parsed sql_fullselect (fixed; docs/publication-v1.md)', async () => {
      const res = await v1('records', {
        sql_fullselect: 'SELECT section_id, code FROM interview WHERE section_id = 3',
        lang: 'lg-spa',
      });
      expect(res.json.result).toEqual([{ table: 'interview', section_id: 3, code: 'OH-000003' }]);
    });

    it('does not refuse ordinary words such as "update" or "user" inside values (fixed; docs/publication-v1.md)', async () => {
      const res = await v1('records', {
        table: 'interview',
        ar_fields: 'section_id',
        sql_filter: "title LIKE '%update%' OR title = 'user mysql'",
      });
      expect(res.json.result).toEqual([]);
      expect(res.json.msg).toMatch(/^OK/);
    });

    it('refuses unknown columns and tables, naming them', async () => {
      const col = await v1('records', { table: 'interview', sql_filter: 'password = 1' });
      expect(col.json).toEqual({
        result: false,
        msg: 'Error on sql request. Illegal sql_filter: unknown column password in interview',
      });
      const table = await v1('records', { table: 'users' });
      expect(table.json.result).toBe(false);
      expect(table.json.msg).toMatch(/Illegal table/);
      expect((await v1('records', {})).json).toEqual({ result: false, msg: 'Empty options->table ' });
      expect((await v1('records', { table: 'interview', limit: '-1' })).json.result).toBe(false);
    });

    it('permits only the five process_result functions (docs/publication-v1.md)', async () => {
      const res = await v1('records', {
        table: 'interview',
        process_result: JSON.stringify({ fn: 'web_data::get_thesaurus_children' }),
      });
      expect(res.json.result).toBe(false);
      expect(res.json.msg).toMatch(/not allowed/);
    });

    it('maps a term column to ts_term objects with resolve_geolocation', async () => {
      const res = await v1('records', {
        table: 'ts_themes',
        ar_fields: 'section_id,term_id',
        section_id: '4',
        lang: 'lg-spa',
        map: JSON.stringify([
          { table: 'ts_themes', field: 'term_id', function: 'resolve_geolocation', output_field: 'geo' },
        ]),
      });
      expect(res.json.result[0].geo.map((t: { term_id: string }) => t.term_id)).toEqual(['ts1_4']);
      expect(res.json.result[0].geo[0]).toHaveProperty('ar_childrens');
    });

    it('adds the rows a column points at with add_parents_or_children', async () => {
      const res = await v1('records', {
        table: 'ts_themes',
        ar_fields: 'section_id,children',
        section_id: '1',
        lang: 'lg-spa',
        process_result: JSON.stringify({
          fn: 'process_result::add_parents_or_children',
          columns_name: ['children'],
        }),
      });
      const [row] = await direct.query<{ children: string }>(
        `SELECT children FROM ${direct.q('ts_themes')} WHERE section_id = 1 AND lang = 'lg-spa'`,
      );
      const kids = (JSON.parse(row!.children) as { section_id: string }[]).map((l) => Number(l.section_id));
      expect(res.json.result.map((r: { section_id: number }) => r.section_id)).toEqual([1, ...kids]);
    });

    it('adds every ancestor and descendant with add_parents_and_children_recursive', async () => {
      // Reference: the closure over parent (a term_id) and children (locators), read directly.
      const all = await direct.query<{
        section_id: number;
        term_id: string;
        parent: string | null;
        children: string | null;
      }>(`SELECT section_id, term_id, parent, children FROM ${direct.q('ts_themes')} WHERE lang = 'lg-spa'`);
      const byTerm = new Map(all.map((r) => [r.term_id, r]));
      const bySection = new Map(all.map((r) => [r.section_id, r]));
      const start = all.find((r) => r.parent && r.children?.startsWith('[{'))!;
      const seen = new Set([start.section_id]);
      const queue = [start];
      while (queue.length > 0) {
        const r = queue.shift()!;
        const next = [
          // parent is stored as a bare term_id or as a JSON list of one
          ...(r.parent
            ? r.parent.startsWith('[')
              ? (JSON.parse(r.parent) as string[])
              : [r.parent]
            : []
          ).map((t) => byTerm.get(t)),
          ...((r.children ? JSON.parse(r.children) : []) as { section_id: string }[]).map((l) =>
            bySection.get(Number(l.section_id)),
          ),
        ];
        for (const n of next) {
          if (n && !seen.has(n.section_id)) {
            seen.add(n.section_id);
            queue.push(n);
          }
        }
      }
      expect(seen.size).toBeGreaterThan(3);
      const res = await v1('records', {
        table: 'ts_themes',
        ar_fields: 'section_id,term_id,parent,children',
        section_id: String(start.section_id),
        lang: 'lg-spa',
        process_result: JSON.stringify({
          fn: 'process_result::add_parents_and_children_recursive',
          columns: [{ name: 'parent' }, { name: 'children' }],
        }),
      });
      const ids = res.json.result.map((r: { section_id: number }) => r.section_id);
      expect(ids[0]).toBe(start.section_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort((a, b) => a - b)).toEqual([...seen].sort((a, b) => a - b));
      const bad = await v1('records', {
        table: 'ts_themes',
        section_id: '1',
        process_result: JSON.stringify({
          fn: 'add_parents_and_children_recursive',
          columns: [{ name: 'nope' }],
        }),
      });
      expect(bad.json).toMatchObject({
        result: false,
        msg: 'Error. process_result: unknown column nope in ts_themes',
      });
    });

    it('splits grouped multi-valued rows and sums their totals with break_down_totals', async () => {
      const pubs = await direct.query<{ authors: string }>(
        `SELECT authors FROM ${direct.q('publications')} WHERE lang = 'lg-spa' AND authors IS NOT NULL`,
      );
      const want = new Map<string, number>();
      for (const p of pubs)
        for (const a of p.authors.split('; ')) want.set(a.trim(), (want.get(a.trim()) ?? 0) + 1);
      expect(pubs.some((p) => p.authors.includes('; '))).toBe(true);
      const res = await v1('records', {
        table: 'publications',
        ar_fields: 'authors, authors AS copy, COUNT(*) AS n',
        sql_filter: 'authors IS NOT NULL',
        lang: 'lg-spa',
        group: 'authors',
        process_result: JSON.stringify({
          fn: 'process_result::break_down_totals',
          base_column: 'authors',
          total_column: 'n',
          split_columns: ['copy'],
          separator: '; ',
        }),
      });
      const got = new Map<string, number>();
      for (const r of res.json.result as { authors: string; copy: string; n: number }[]) {
        expect(r.copy).toBe(r.authors);
        expect(got.has(r.authors)).toBe(false);
        got.set(r.authors, r.n);
      }
      expect(got).toEqual(want);
      // Without a total column each row counts once.
      const ungrouped = await v1('records', {
        table: 'publications',
        ar_fields: 'authors',
        sql_filter: 'authors IS NOT NULL',
        lang: 'lg-spa',
        process_result: JSON.stringify({ fn: 'break_down_totals', base_column: 'authors', separator: '; ' }),
      });
      expect(
        new Map(ungrouped.json.result.map((r: { authors: string; total: number }) => [r.authors, r.total])),
      ).toEqual(want);
      const missing = await v1('records', {
        table: 'publications',
        limit: '1',
        process_result: JSON.stringify({ fn: 'break_down_totals' }),
      });
      expect(missing.json).toMatchObject({
        result: false,
        msg: 'Error. break_down_totals needs base_column',
      });
    });

    it('counts the rows naming each term with sum_totals', async () => {
      const interviews = await direct.query<{ section_id: number; informant: string | null }>(
        `SELECT section_id, informant FROM ${direct.q('interview')} WHERE lang = 'lg-spa' ORDER BY section_id`,
      );
      const want = new Map<string, number[]>();
      for (const i of interviews) {
        for (const id of (i.informant ? JSON.parse(i.informant) : []) as (string | number)[])
          want.set(String(id), [...(want.get(String(id)) ?? []), i.section_id]);
      }
      const res = await v1('records', {
        table: 'interview',
        ar_fields: 'section_id, informant AS term_id',
        lang: 'lg-spa',
        process_result: JSON.stringify({ fn: 'process_result::sum_totals' }),
      });
      const got = res.json.result as {
        term_id: string;
        total: number;
        section_id: number[];
        term: unknown;
        geojson: unknown;
      }[];
      expect(got.length).toBe(want.size);
      for (const t of got) {
        expect(t.section_id).toEqual(want.get(t.term_id));
        expect(t.total).toBe(t.section_id.length);
        expect(Object.keys(t)).toEqual(['term_id', 'term', 'geojson', 'total', 'section_id']);
      }
      const terms = await v1('records', {
        table: 'ts_themes',
        ar_fields: 'section_id, term_id, term',
        section_id: '1,2',
        lang: 'lg-spa',
        process_result: JSON.stringify({ fn: 'sum_totals' }),
      });
      expect(terms.json.result.map((t: { term_id: string; total: number }) => [t.term_id, t.total])).toEqual([
        ['ts1_1', 1],
        ['ts1_2', 1],
      ]);
      expect(typeof terms.json.result[0].term).toBe('string');
    });

    it('replaces a locator column by its fragments with resolve_indexation_fragments', async () => {
      const [row] = await direct.query<{ section_id: number }>(
        `SELECT section_id FROM ${direct.q('ts_onomastic')} WHERE indexation LIKE '[{%' ORDER BY section_id LIMIT 1`,
      );
      const res = await v1('records', {
        table: 'ts_onomastic',
        ar_fields: 'section_id,indexation',
        section_id: String(row!.section_id),
        lang: 'lg-spa',
        process_result: JSON.stringify({ fn: 'resolve_indexation_fragments', column: 'indexation' }),
      });
      const fragments = res.json.result[0].indexation;
      expect(fragments.length).toBeGreaterThan(0);
      for (const f of fragments) {
        expect(f.fragm.length).toBeGreaterThan(0);
        expect(f).toHaveProperty('index_locator');
      }
    });

    it('returns numbers as strings when V1_NUMBERS_AS_STRINGS is set (docs/publication-v1.md)', async () => {
      const other = await startTestServer(c, { V1_API_CODE: CODE, V1_NUMBERS_AS_STRINGS: 'true' });
      try {
        const o = new URL(other.base).origin;
        const res = await rawRequest(
          `${o}${V1}/json/records?code=${CODE}&table=interview&ar_fields=section_id&limit=1`,
        );
        expect(res.json.result[0].section_id).toBe('1');
      } finally {
        await other.close();
      }
    });
  });

  describe('portals and relations', () => {
    it('resolves every publication_schema column with resolve_portal, in the stored order', async () => {
      const res = await v1('records', {
        table: 'interview',
        ar_fields: 'section_id,informant',
        section_id: '2',
        lang: 'lg-spa',
        resolve_portal: 'true',
      });
      const [row] = await direct.query<{ informant: string }>(
        `SELECT informant FROM ${direct.q('interview')} WHERE section_id = 2 AND lang = 'lg-spa'`,
      );
      const ids = (JSON.parse(row!.informant) as unknown[]).map((x) => Number(x));
      const got = res.json.result[0].informant as { table: string; section_id: number }[];
      expect(got.map((r) => r.section_id)).toEqual(ids);
      expect(got[0]!.table).toBe('informant');
      expect(got[0]).not.toHaveProperty('id');
    });

    it('resolves custom portals, deeper levels with dotted keys, and table.column targets', async () => {
      const res = await v1('records', {
        table: 'interview',
        ar_fields: 'section_id,informant',
        section_id: '2',
        lang: 'lg-spa',
        resolve_portals_custom: JSON.stringify({ informant: 'informant', 'informant.image': 'image' }),
      });
      const informants = res.json.result[0].informant as { image: unknown }[];
      expect(informants.length).toBeGreaterThan(0);
      for (const inf of informants) expect(Array.isArray(inf.image)).toBe(true);
      const images = informants.flatMap((i) => i.image as { table: string }[]);
      for (const img of images) expect(img.table).toBe('image');

      const byTerm = await v1('records', {
        table: 'ts_themes',
        ar_fields: 'term_id,section_id',
        section_id: '2',
        lang: 'lg-spa',
        resolve_portals_custom: JSON.stringify({ term_id: 'ts_themes.term_id' }),
      });
      expect(byTerm.json.result[0].term_id[0].term_id).toBe('ts1_2');
    });

    it('filters resolved rows with portal_filter', async () => {
      const res = await v1('records', {
        table: 'interview',
        ar_fields: 'section_id,informant',
        lang: 'lg-spa',
        limit: '10',
        resolve_portals_custom: JSON.stringify({ informant: 'informant' }),
        portal_filter: JSON.stringify({ informant: "gender = 'female'" }),
      });
      const all = res.json.result.flatMap((r: { informant: { gender: string }[] }) => r.informant);
      expect(all.length).toBeGreaterThan(0);
      for (const inf of all) expect(inf.gender).toBe('female');
    });

    it('adds dd_relations rows through publication_schema.dd_relations', async () => {
      const res = await v1('records', {
        table: 'image',
        ar_fields: 'section_id,dd_relations',
        section_id: '1',
        resolve_dd_relations: 'true',
        lang: 'lg-spa',
      });
      const rel = res.json.result[0].dd_relations as { table: string; section_id: number }[];
      expect(rel.map((r) => [r.table, r.section_id])).toEqual([
        ['interview', 1],
        ['interview', 9],
      ]);
    });
  });

  describe('catalogue actions and combi', () => {
    it('lists tables and columns without id, bare', async () => {
      const res = await v1('tables_info');
      expect(res.json.interview).toContain('transcription');
      expect(res.json.publication_schema).not.toContain('id');
      const full = await v1('tables_info', { full: 'true' });
      expect(full.json.interview[0]).toMatchObject({ Field: 'section_id' });
    });

    it('describes columns with full as the engine does (SHOW COLUMNS on MariaDB, the pragmas on SQLite)', async () => {
      const full = await v1('tables_info', { full: 'true' });
      for (const table of ['interview', 'ts_themes', 'publications']) {
        let want: Record<string, unknown>[];
        if (c.engine === 'mariadb') {
          want = await direct.query(`SHOW COLUMNS FROM ${direct.q(table)}`);
        } else {
          const cols = await direct.query<{
            name: string;
            type: string;
            notnull: number;
            dflt_value: string | null;
            pk: number;
          }>(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info('${table}') ORDER BY cid`);
          const pkCount = cols.filter((x) => x.pk > 0).length;
          want = cols.map((x) => {
            const rowid = x.pk > 0 && pkCount === 1 && /^integer$/i.test(x.type);
            return {
              Field: x.name,
              Type: x.type,
              Null: x.notnull || rowid ? 'NO' : 'YES',
              Key: x.pk > 0 ? 'PRI' : expect.any(String),
              Default: x.dflt_value === null ? null : expect.any(String),
              Extra: rowid ? 'auto_increment' : '',
            };
          });
        }
        expect(full.json[table]).toEqual(want.filter((w) => w.Field !== 'id'));
      }
      const keys = full.json.interview
        .filter((x: { Key: string }) => x.Key === 'PRI')
        .map((x: { Field: string }) => x.Field);
      expect(keys).toEqual(['section_id', 'lang']);
      expect(full.json.interview.find((x: { Field: string }) => x.Field === 'section_id').Null).toBe('NO');
    });

    it('returns publication_schema bare and the derived thesaurus settings', async () => {
      const schema = await v1('publication_schema');
      expect(schema.json.dd_relations.oh1).toBe('interview');
      expect((await v1('table_thesaurus')).json).toBe('ts_onomastic,ts_themes');
      expect((await v1('table_thesaurus_map')).json).toEqual({ on1: 'ts_onomastic', ts1: 'ts_themes' });
    });

    it('runs combi calls with their ids, each failing on its own', async () => {
      const res = await v1('combi', {
        ar_calls: JSON.stringify([
          {
            id: 'rows',
            options: {
              dedalo_get: 'records',
              table: 'interview',
              ar_fields: 'section_id',
              limit: 2,
              lang: 'lg-spa',
            },
          },
          { id: 'bad', options: { dedalo_get: 'records', table: 'interview', sql_filter: 'sleep(1)' } },
          { id: 'map', options: { dedalo_get: 'table_thesaurus_map' } },
        ]),
      });
      expect(res.json.msg).toBe('web_data::get_combi Ok. Request done');
      const [rows, bad, map] = res.json.result;
      expect(rows.id).toBe('rows');
      expect(rows.result.map((r: { section_id: number }) => r.section_id)).toEqual([1, 2]);
      expect(bad).toEqual({
        result: false,
        msg: 'Error on sql request. Illegal sql_filter: function SLEEP',
        id: 'bad',
      });
      // A bare object answer gets its id beside its own keys, as upstream; a bare string is wrapped.
      expect(map).toEqual({ on1: 'ts_onomastic', ts1: 'ts_themes', id: 'map' });
    });
  });
});

describe('v1 when V1_API_CODE is not set', () => {
  it('serves nothing under the v1 path', async () => {
    const [c] = engineCases();
    const s = await startTestServer(c!);
    try {
      const res = await rawRequest(`${new URL(s.base).origin}${V1}/json/records?code=x&table=interview`);
      expect(res.status).toBe(404);
    } finally {
      await s.close();
    }
  });
});
