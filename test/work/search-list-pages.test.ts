/**
 * Migration 16 and the list pages it serves, on PGlite and PostgreSQL: a page ordered by a
 * component is read in order from matrix_sort_key's index (no sequential scan of the matrix
 * table, no read of every record's JSON), prefix and exact text filters are btree scans, and the
 * pages answered equal an oracle computed here from the stored values (both directions, both
 * languages, records without a value last, pages crossing into them). The sort keys follow
 * inserts, updates, deletes and truncates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { parseSqo } from '../../src/work/search/parse-sqo.js';
import { buildSearch, pageStatement, searchRecords } from '../../src/work/search/search-records.js';
import { NO_SCOPE } from '../../src/work/search/sqo-sql.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import type { SqlClient } from '../../src/work/store/sql-client.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';

const ontology = loadOntology();
const ROWS = 3000;
const ENG = ['Memories', 'Voices', 'Échoes', 'roads', 'Songs'];
const SPA = ['Memorias', 'Voces', 'Ecos', 'caminos', 'Canciones'];

/** What the seed stores for record g (mirrored by the INSERT below). */
const code = (g: number) => `INT-${String(g).padStart(6, '0')}`;
const hasTitle = (g: number) => g % 10 !== 0;
const engTitle = (g: number) => `${ENG[g % 5]} ${g % 7}`;
const spaTitle = (g: number) => `${SPA[g % 5]} ${g % 7}`;
const year = (g: number) => 1900 + (g % 50);
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The order docs/work-sqo.md promises: by key, records without one last, ties by section_id. */
function oracle(key: (g: number) => string | number | undefined, direction: 'ASC' | 'DESC'): number[] {
  const ids = Array.from({ length: ROWS }, (_, i) => i + 1);
  return ids.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === undefined || kb === undefined) {
      if (ka === kb) return a - b;
      return ka === undefined ? 1 : -1;
    }
    const c = typeof ka === 'number' ? ka - (kb as number) : cmp(ka, kb as string);
    return c !== 0 ? (direction === 'ASC' ? c : -c) : a - b;
  });
}

const SEQ_SCAN_ON_MATRIX = /Seq Scan on matrix(?![_a-z])/;

describe.each(workEngineCases())('list pages ($engine)', (engine) => {
  let fresh: FreshDatabase;
  let db: SqlClient;
  beforeAll(async () => {
    fresh = await engine.freshDatabase();
    db = await fresh.open();
    await migrateSchema(db);
    await db.query(
      `INSERT INTO matrix (section_tipo, section_id, string, date)
       SELECT 'oh1', g,
         jsonb_build_object('oh14', jsonb_build_array(jsonb_build_object('id', 1, 'lang', 'lg-nolan',
           'value', 'INT-' || lpad(g::text, 6, '0'))))
         || CASE WHEN g % 10 = 0 THEN '{}'::jsonb ELSE jsonb_build_object('oh16', jsonb_build_array(
           jsonb_build_object('id', 1, 'lang', 'lg-eng', 'value', ($2::text[])[1 + g % 5] || ' ' || (g % 7)),
           jsonb_build_object('id', 2, 'lang', 'lg-spa', 'value', ($3::text[])[1 + g % 5] || ' ' || (g % 7))))
         END,
         jsonb_build_object('oh29', jsonb_build_array(jsonb_build_object('id', 1, 'lang', 'lg-nolan',
           'start', jsonb_build_object('year', 1900 + g % 50))))
       FROM generate_series(1, $1::integer) AS g`,
      [ROWS, ENG, SPA],
    );
    await db.query('ANALYZE');
  });
  afterAll(async () => {
    await fresh?.dispose();
  });

  const sqoOf = (raw: Record<string, unknown>) =>
    parseSqo({ section_tipo: ['oh1'], limit: 50, offset: 0, ...raw }, ontology, { lang: 'lg-eng' });

  /** The plan of the page statement searchRecords runs for this SQO. */
  const plan = async (raw: Record<string, unknown>) => {
    const sqo = sqoOf(raw);
    const built = (await buildSearch(db, ontology, sqo, NO_SCOPE, sqo.section_tipo, { page: true }))!;
    const page = pageStatement(built, sqo, false);
    const { rows } = await db.query<Record<string, string>>(`EXPLAIN ${page.sql}`, page.params);
    return rows.map((r) => Object.values(r)[0]).join('\n');
  };

  const ids = async (raw: Record<string, unknown>) =>
    (await searchRecords(db, ontology, sqoOf(raw), NO_SCOPE)).records.map((r) => r.section_id);

  const by = (tipo: string, direction: 'ASC' | 'DESC', lang?: string) => ({
    order: [{ direction, path: [{ section_tipo: 'oh1', component_tipo: tipo }], ...(lang ? { lang } : {}) }],
  });

  it('a page ordered by a component is read in order from the sort-key index', async () => {
    for (const direction of ['ASC', 'DESC'] as const) {
      const title = await plan(by('oh16', direction));
      expect(title).toContain('matrix_sort_key_text');
      expect(title).not.toMatch(SEQ_SCAN_ON_MATRIX);
      const date = await plan(by('oh29', direction));
      expect(date).toContain('matrix_sort_key_num');
      expect(date).not.toMatch(SEQ_SCAN_ON_MATRIX);
    }
  });

  it('pages ordered by a component equal the documented order, records without a value last', async () => {
    const eng = (g: number) => (hasTitle(g) ? fold(engTitle(g)) : undefined);
    const spa = (g: number) => (hasTitle(g) ? fold(spaTitle(g)) : undefined);
    const cases: [Record<string, unknown>, number[]][] = [
      [by('oh16', 'ASC'), oracle(eng, 'ASC')],
      [by('oh16', 'DESC'), oracle(eng, 'DESC')],
      [by('oh16', 'ASC', 'lg-spa'), oracle(spa, 'ASC')],
      [by('oh14', 'DESC'), oracle((g) => fold(code(g)), 'DESC')],
      [by('oh29', 'ASC'), oracle(year, 'ASC')],
      [by('oh29', 'DESC'), oracle(year, 'DESC')],
    ];
    for (const [order, expected] of cases) {
      expect(await ids(order), JSON.stringify(order)).toEqual(expected.slice(0, 50));
      // The last records with a title, then the first without one (300 have none).
      const offset = ROWS - 300 - 20;
      expect(await ids({ ...order, offset }), JSON.stringify(order)).toEqual(
        expected.slice(offset, offset + 50),
      );
      expect(await ids({ ...order, offset: ROWS - 30 })).toEqual(expected.slice(ROWS - 30));
    }
    // A filter and an order together: codes 1200..1299 by title.
    const filtered = oracle(eng, 'ASC').filter((g) => code(g).startsWith('INT-0012'));
    expect(
      await ids({
        ...by('oh16', 'ASC'),
        filter: { $and: [{ q: 'INT-0012*', path: [{ component_tipo: 'oh14' }] }] },
      }),
    ).toEqual(filtered.slice(0, 50));
  });

  it('prefix and exact filters are btree scans; a word is an index read of the side table', async () => {
    const leaf = (q: string, tipo = 'oh14') => ({
      filter: { $and: [{ q, path: [{ component_tipo: tipo }] }] },
    });
    const prefix = await plan(leaf('INT-0012*'));
    expect(prefix).toContain('matrix_string_search_pattern');
    expect(prefix).not.toMatch(SEQ_SCAN_ON_MATRIX);
    expect(await ids(leaf('INT-0012*'))).toEqual(Array.from({ length: 50 }, (_, i) => 1200 + i));
    const exact = await plan(leaf('==INT-000123'));
    expect(exact).toContain('matrix_string_search_pattern');
    expect(exact).not.toMatch(SEQ_SCAN_ON_MATRIX);
    expect(await ids(leaf('==INT-000123'))).toEqual([123]);
    expect(await ids(leaf('==INT-00012'))).toEqual([]);
    const word = await plan(leaf('roads', 'oh16'));
    expect(word).toMatch(/matrix_string_search_(trgm|record|pattern)/);
    expect(word).not.toMatch(SEQ_SCAN_ON_MATRIX);
    expect(await ids(leaf('roads', 'oh16'))).toEqual(
      Array.from({ length: ROWS }, (_, i) => i + 1)
        .filter((g) => hasTitle(g) && g % 5 === 3)
        .slice(0, 50),
    );
  });

  it('a filter typed again finds the same records without a statement to normalise its words', async () => {
    const statements: string[] = [];
    const counted = {
      query: ((sql: string, params?: readonly unknown[]) => {
        statements.push(sql);
        return db.query(sql, params);
      }) as SqlClient['query'],
    };
    const search = (q: string) =>
      searchRecords(
        counted,
        ontology,
        sqoOf({ filter: { $and: [{ q, path: [{ component_tipo: 'oh16' }] }] } }),
        NO_SCOPE,
      );
    const normalising = () => statements.filter((s) => s.includes('unaccent')).length;
    const expected = Array.from({ length: ROWS }, (_, i) => i + 1)
      .filter((g) => hasTitle(g) && g % 5 === 2)
      .slice(0, 50);
    // "ÉCHOES" is folded by the database (unaccent, lower), once.
    expect((await search('ÉCHOES')).records.map((r) => r.section_id)).toEqual(expected);
    expect(normalising()).toBe(1);
    expect((await search('ÉCHOES')).records.map((r) => r.section_id)).toEqual(expected);
    expect(normalising()).toBe(1);
    // Another word is learnt with its own statement; the first is still known.
    expect((await search('roads')).records.length).toBe(50);
    expect(normalising()).toBe(2);
    expect((await search('ÉCHOES')).records.map((r) => r.section_id)).toEqual(expected);
    expect(normalising()).toBe(2);
  });

  it('a value too long for a btree entry is stored, found by prefix and ordered by its start', async () => {
    // 6,000 characters that do not compress (a transcription's worth of md5 hex).
    const long = (
      await db.query<{ v: string }>(
        "SELECT 'LONG ' || string_agg(md5(g::text), '' ORDER BY g) AS v FROM generate_series(1, 200) AS g",
      )
    ).rows[0]!.v;
    await db.query(
      `INSERT INTO matrix (section_tipo, section_id, string)
       VALUES ('oh1', 9100, jsonb_build_object('oh14', jsonb_build_array(jsonb_build_object('id', 1, 'lang', 'lg-nolan', 'value', $1::text))))`,
      [long],
    );
    const leaf = (q: string) => ({ filter: { $and: [{ q, path: [{ component_tipo: 'oh14' }] }] } });
    expect(await ids(leaf(`${long.slice(0, 40)}*`))).toEqual([9100]);
    expect(await ids(leaf(`${long.slice(0, 400)}*`))).toEqual([9100]);
    // q is at most 1000 characters: an exact match of the whole value through the store.
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM matrix_string_search WHERE component_tipo = 'oh14' AND value_norm = lower($1::text)`,
      [long],
    );
    expect(rows[0]!.n).toBe('1');
    expect((await ids({ order: [{ direction: 'DESC', path: [{ component_tipo: 'oh14' }] }] }))[0]).toBe(9100);
    await db.query(`DELETE FROM matrix WHERE section_tipo = 'oh1' AND section_id = 9100`);
  });

  it('the sort keys follow inserts, updates, deletes and truncates', async () => {
    const keys = async (sectionTipo: string, sectionId: number) =>
      (
        await db.query<{
          component_tipo: string;
          lang: string;
          text_key: string | null;
          num_key: string | null;
        }>(
          `SELECT component_tipo, lang, text_key, num_key::text AS num_key FROM matrix_sort_key
           WHERE section_tipo = $1 AND section_id = $2 ORDER BY component_tipo, lang`,
          [sectionTipo, sectionId],
        )
      ).rows;
    await db.query(
      `INSERT INTO matrix (section_tipo, section_id, string, number)
       VALUES ('oh1', 9001, '{"oh16":[{"id":1,"lang":"lg-eng","value":""},{"id":2,"lang":"lg-eng","value":"Zoë"},{"id":3,"lang":"lg-spa","value":"Álamo"}]}',
               '{"oh99":[{"id":1,"value":"x"},{"id":2,"value":"12.5"}]}')`,
    );
    expect(await keys('oh1', 9001)).toEqual([
      { component_tipo: 'oh16', lang: '*', text_key: 'zoe', num_key: null },
      { component_tipo: 'oh16', lang: 'lg-eng', text_key: 'zoe', num_key: null },
      { component_tipo: 'oh16', lang: 'lg-spa', text_key: 'alamo', num_key: null },
      { component_tipo: 'oh99', lang: '*', text_key: null, num_key: '12.5' },
    ]);
    await db.query(
      `UPDATE matrix SET string = '{"oh14":[{"id":1,"lang":"lg-nolan","value":"B-2"}]}', number = '{}'
       WHERE section_tipo = 'oh1' AND section_id = 9001`,
    );
    expect(await keys('oh1', 9001)).toEqual([
      { component_tipo: 'oh14', lang: '*', text_key: 'b-2', num_key: null },
      { component_tipo: 'oh14', lang: 'lg-nolan', text_key: 'b-2', num_key: null },
    ]);
    await db.query(`DELETE FROM matrix WHERE section_tipo = 'oh1' AND section_id = 9001`);
    expect(await keys('oh1', 9001)).toEqual([]);
    await db.query(
      `INSERT INTO matrix_users (section_tipo, section_id, string)
       VALUES ('dd128', 5, '{"dd132":[{"id":1,"lang":"lg-nolan","value":"Ana"}],"dd133":[{"id":1,"lang":"lg-nolan","value":"$argon2id$secret"}]}')`,
    );
    // Passwords are never copied anywhere.
    expect((await keys('dd128', 5)).map((k) => k.component_tipo)).toEqual(['dd132', 'dd132']);
    await db.query('TRUNCATE matrix_users');
    expect(await keys('dd128', 5)).toEqual([]);
    expect((await keys('oh1', 1)).length).toBeGreaterThan(0);
  });
});
