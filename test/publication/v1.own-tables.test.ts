/**
 * v1 actions that read tables the demo data lacks, on each engine, over small tables this file
 * builds in a database of its own (dropped at the end): global_search and global_search_json
 * over a `global_search` table with its full-text index (a FULLTEXT index on MariaDB, the FTS5
 * table on SQLite), and bibliography_rows with use_union over a `publications` table with
 * author_main / author_others. See docs/publication-v1.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renameAuthors } from '../../src/publication/v1/actions/texts.js';
import { MARIADB } from '../helpers/mariadb-availability.js';
import {
  type EngineCase,
  engineCases,
  type HttpResult,
  rawRequest,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';

const CODE = 'v1-global';
const COLUMNS = [
  'section_id',
  'lang',
  'table',
  'link',
  'list_data',
  'full_data',
  'fields',
  'sort',
  'sort_id',
  'name_surname',
  'birth_place',
  'gender',
  'start_date',
  'dead_at_prison',
  'thesaurus',
] as const;

const field = (title: string, descriptors: string[]) =>
  JSON.stringify([
    { name: 'title', value: title },
    { name: 'descriptors', value: JSON.stringify(descriptors) },
  ]);

/** Four indexed records: two interviews and two publications, in two languages. */
const ROWS: (string | number | null)[][] = [
  [
    1,
    'lg-cat',
    'interview',
    '{"section_id":"11","table":"interview"}',
    'Joan Serra',
    'Joan Serra exili frontera camp',
    field('Joan Serra', ['exili']),
    'Serra, Joan',
    '10',
    'Joan Serra',
    '["Girona"]',
    1,
    946684800,
    1,
    '["ts1_1","ts1_2"]',
  ],
  [
    2,
    'lg-cat',
    'interview',
    '{"section_id":"12","table":"interview"}',
    'Maria Puig',
    'Maria Puig presó Barcelona',
    field('Maria Puig', []),
    'Puig, Maria',
    '9',
    'Maria Puig',
    '["Barcelona","Girona"]',
    2,
    978307200,
    null,
    '["ts1_2"]',
  ],
  [
    3,
    'lg-spa',
    'publications',
    '{"section_id":"3","table":"publications"}',
    'Pere Vidal',
    'Pere Vidal libro exilio',
    field('Pere Vidal', ['exilio']),
    'Vidal, Pere',
    '2',
    'Pere Vidal',
    '["Lleida"]',
    1,
    1009843200,
    null,
    '["ts1_1"]',
  ],
  [
    4,
    'lg-cat',
    'publications',
    '{"section_id":"4","table":"publications"}',
    'Anna Roca',
    'Anna Roca exili memòria frontera',
    field('Anna Roca', ['exili', 'memòria']),
    'Roca, Anna',
    '100',
    'Anna Roca',
    '[]',
    2,
    1041379200,
    null,
    '["ts1_1","ts1_2","ts1_3"]',
  ],
];

const PUB_COLUMNS = [
  'section_id',
  'lang',
  'title',
  'author_main',
  'author_others',
  'authors_count',
  'publication_date',
];
const PUBS: (string | number)[][] = [
  [1, 'lg-spa', 'Exili', 'Serra, Joan', 'Puig, Maria', 2, '2001'],
  [2, 'lg-spa', 'Presó', 'Puig, Maria', '', 1, '1999'],
  [3, 'lg-spa', 'Frontera', 'Vidal, Pere', 'Puig, Maria; Roca, Anna', 3, '2005'],
  [4, 'lg-spa', 'Memòria', 'Roca, Anna', '', 1, '2010'],
  [5, 'lg-spa', 'Retorn', 'Puig, Maria', 'Serra, Joan', 2, '2003'],
  [5, 'lg-cat', 'Retorn', 'Puig, Maria', 'Serra, Joan', 2, '2003'],
];
const PUB_DDL = `(section_id INT NOT NULL, lang VARCHAR(16) NOT NULL, title VARCHAR(255), author_main VARCHAR(255),
  author_others VARCHAR(255), authors_count INT, publication_date VARCHAR(16), status VARCHAR(16) NOT NULL DEFAULT 'it''s new',
  code VARCHAR(16) DEFAULT NULL, PRIMARY KEY (section_id, lang))`;
/** Run after the rows are in, on both engines. */
const PUB_INDEXES = [
  'CREATE INDEX ix_pub_author ON publications (author_main)',
  'CREATE UNIQUE INDEX ux_pub_code ON publications (code)',
];

interface Built {
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function buildGlobalSearchDb(c: EngineCase): Promise<Built> {
  const name = `v1gs_${process.pid}_${Date.now().toString(36)}`;
  const marks = COLUMNS.map(() => '?').join(', ');
  if (c.engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'v1gs-'));
    const db = new Database(join(dir, `${name}.sqlite`));
    db.exec(
      `CREATE TABLE global_search (id INTEGER PRIMARY KEY, section_id INTEGER, lang TEXT, "table" TEXT, link TEXT,
        list_data TEXT, full_data TEXT, fields TEXT, sort TEXT, sort_id TEXT, name_surname TEXT, birth_place TEXT,
        gender INTEGER, start_date INTEGER, dead_at_prison INTEGER, thesaurus TEXT)`,
    );
    const insert = db.prepare(
      `INSERT INTO global_search (${COLUMNS.map((x) => `"${x}"`).join(', ')}) VALUES (${marks})`,
    );
    for (const r of ROWS) insert.run(...r);
    db.exec(`CREATE TABLE publications ${PUB_DDL}`);
    const pub = db.prepare(
      `INSERT INTO publications (${PUB_COLUMNS.join(', ')}) VALUES (${PUB_COLUMNS.map(() => '?').join(', ')})`,
    );
    for (const r of PUBS) pub.run(...r);
    for (const ix of PUB_INDEXES) db.exec(ix);
    db.exec(
      `CREATE VIRTUAL TABLE fts_global_search_full_data USING fts5(full_data, content='global_search', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')`,
    );
    db.exec(`INSERT INTO fts_global_search_full_data(fts_global_search_full_data) VALUES('rebuild')`);
    db.close();
    return {
      env: { ...c.env, DB_SQLITE_DIR: dir, DB_NAMES: name },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const conn = await mysql.createConnection(MARIADB);
  await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await conn.query(
    `CREATE TABLE \`${name}\`.global_search (id INT AUTO_INCREMENT PRIMARY KEY, section_id INT, lang VARCHAR(16),
      \`table\` VARCHAR(64), link TEXT, list_data TEXT, full_data MEDIUMTEXT, fields MEDIUMTEXT, sort VARCHAR(255),
      sort_id VARCHAR(32), name_surname VARCHAR(255), birth_place TEXT, gender INT, start_date BIGINT,
      dead_at_prison INT, thesaurus TEXT, FULLTEXT (full_data)) ENGINE=InnoDB`,
  );
  for (const r of ROWS) {
    await conn.query(
      `INSERT INTO \`${name}\`.global_search (${COLUMNS.map((x) => `\`${x}\``).join(', ')}) VALUES (${marks})`,
      r,
    );
  }
  await conn.query(`CREATE TABLE \`${name}\`.publications ${PUB_DDL}`);
  await conn.query(`INSERT INTO \`${name}\`.publications (${PUB_COLUMNS.join(', ')}) VALUES ?`, [PUBS]);
  await conn.query(`USE \`${name}\``);
  for (const ix of PUB_INDEXES) await conn.query(ix);
  await conn.end();
  return {
    env: { ...c.env, DB_NAMES: name },
    drop: async () => {
      const again = await mysql.createConnection(MARIADB);
      await again.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await again.end();
    },
  };
}

describe('bibliography_rows author renaming', () => {
  it('renames authors as a column only, never inside a quoted value', () => {
    expect(
      renameAuthors('authors = \'authors\' OR `authors` IS NULL OR co_authors = "authors"', 'author_main'),
    ).toBe('author_main = \'authors\' OR author_main IS NULL OR co_authors = "authors"');
  });
});

describe.each(engineCases())('v1 own tables on $engine', (c) => {
  let s: TestServer;
  let built: Built;
  const v1 = (action: string, params: Record<string, string> = {}): Promise<HttpResult> =>
    rawRequest(
      `${new URL(s.base).origin}/publication/server_api/v1/json/${action}?${new URLSearchParams({ code: CODE, ...params })}`,
    );
  const json = (search: unknown, action = 'global_search_json') =>
    v1(action, { json_search: JSON.stringify(search) }).then((r) => r.json);
  const ids = (body: { results: { id: string }[] }) => body.results.map((r) => r.id);

  beforeAll(async () => {
    built = await buildGlobalSearchDb(c);
    s = await startTestServer({ ...c, env: built.env }, { V1_API_CODE: CODE });
  });
  afterAll(async () => {
    await s?.close();
    await built?.drop();
  });

  it('global_search finds words by relevance, pages, counts and filters', async () => {
    const res = await v1('global_search', { q: 'exili', rows_per_page: '1' });
    expect(res.json.msg).toBe('OK. Request global_search done successfully');
    expect(res.json.total).toBe(2);
    expect(res.json.rows_per_page).toBe(1);
    expect(res.json.result).toHaveLength(1);
    const [first] = res.json.result;
    expect(Object.keys(first)).toEqual(['table', 'section_id', 'list_data', 'link', 'relevance']);
    expect([1, 4]).toContain(first.section_id);
    const page2 = await v1('global_search', { q: 'exili', rows_per_page: '1', page_number: '2' });
    expect(page2.json.result.map((r: { section_id: number }) => r.section_id)).toEqual(
      [1, 4].filter((id) => id !== first.section_id),
    );
    const both = await v1('global_search', { q: 'exili frontera', search_modifier: 'IN BOOLEAN MODE' });
    expect(both.json.result.map((r: { section_id: number }) => r.section_id).sort()).toEqual([1, 4]);
    const filtered = await v1('global_search', { q: 'exili', sql_filter: "name_surname LIKE 'Anna%'" });
    expect(filtered.json.result.map((r: { section_id: number }) => r.section_id)).toEqual([4]);
    const spa = await v1('global_search', { lang: 'lg-spa', ar_fields: 'section_id' });
    expect(spa.json.result).toEqual([{ table: 'global_search', section_id: 3 }]);
    // Without q there is no relevance: the records come in section_id order (docs/publication-v1.md).
    const all = await v1('global_search', { ar_fields: 'section_id' });
    expect(all.json.result.map((r: { section_id: number }) => r.section_id)).toEqual([1, 2, 3, 4]);
    const bad = await v1('global_search', { q: 'x', search_modifier: 'IN BOOLEAN MODE) OR SLEEP(5' });
    expect(bad.json.result).toBe(false);
    expect(bad.json.msg).toMatch(/^Error\. Request global_search failed\. Error\. Illegal search_modifier/);
  });

  it('global_search_json flattens link and fields, orders by sort_id, and pages', async () => {
    const body = await json({ pagination: { limit: 3, offset: 0 } });
    expect(body.total).toBe(4);
    // LENGTH(sort_id), sort_id: '2', '9', '10', '100'.
    expect(ids(body)).toEqual(['3', '12', '11']);
    expect(body.results[0]).toEqual({
      id: '3',
      table: 'publications',
      title: 'Pere Vidal',
      descriptors: ['exilio'],
    });
    expect(ids(await json({ pagination: { limit: 3, offset: 3 } }))).toEqual(['4']);
    expect(await json({}, 'global_search_mdcat')).toMatchObject({ total: 4 });
  });

  it('global_search_json maps lang codes, database, query (phrases too) and sort', async () => {
    expect(ids(await json({ lang: 'es' }))).toEqual(['3']);
    expect((await json({ lang: 'ca' })).total).toBe(3);
    expect((await json({ lang: 'de' })).total).toBe(4);
    // Names every JavaScript object has are unknown codes too (a fuzz run found 'toString').
    for (const lang of ['toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect((await json({ lang })).total).toBe(4);
    expect(ids(await json({ database: 'PUBLICATIONS' }))).toEqual(['3', '4']);
    const q = await json({ query: 'exili' });
    expect(ids(q).sort()).toEqual(['11', '4']);
    expect(ids(await json({ query: "'exili memòria'" }))).toEqual(['4']);
    expect(ids(await json({ query: "'memòria exili'" }))).toEqual([]);
    expect(ids(await json({ sort: { name: 'name', direction: 'asc' } }))).toEqual(['12', '4', '11', '3']);
    expect(ids(await json({ sort: { name: 'date', direction: 'desc' } }))).toEqual(['4', '3', '12', '11']);
  });

  it('global_search_json applies each kind of filter', async () => {
    const f = async (filters: Record<string, unknown>) => ids(await json({ filters })).sort();
    expect(await f({ birth_place: 'Girona' })).toEqual(['11', '12']);
    expect(await f({ birth_place: ['Lleida', 'Barcelona'] })).toEqual(['12', '3']);
    expect(await f({ name_surname: 'Pui' })).toEqual(['12']);
    expect(await f({ gender: 2 })).toEqual(['12', '4']);
    expect(await f({ start_date: 978307200 })).toEqual(['12']);
    expect(await f({ start_date: [978307200, 1009843200] })).toEqual(['12', '3']);
    expect(await f({ dead_at_prison: true })).toEqual(['11']);
    expect(await f({ dead_at_prison: false })).toEqual(['12', '3', '4']);
    expect(await f({ thesaurus: ['ts1_1', 'ts1_2'] })).toEqual(['11', '4']);
    expect(await f({ thesaurus: 'ts1_3' })).toEqual(['4']);
    expect(await f({ birth_place: 'Girona', gender: 1 })).toEqual(['11']);
  });

  it('bibliography_rows orders single authors first, then by author (ordinal 0)', async () => {
    const res = await v1('bibliography_rows', { ar_fields: 'section_id', lang: 'lg-spa', count: 'true' });
    expect(res.json.result.map((r: { section_id: number }) => r.section_id)).toEqual([2, 4, 5, 1, 3]);
    expect(res.json.result.every((r: { ordinal: number }) => r.ordinal === 0)).toBe(true);
    expect(res.json.total).toBe(5);
  });

  it('bibliography_rows with use_union lists main-author records, then other-author ones, each once', async () => {
    const params = { ar_fields: 'section_id,title', lang: 'lg-spa', use_union: 'true', count: 'true' };
    const res = await v1('bibliography_rows', { ...params, sql_filter: "authors LIKE '%Puig%'" });
    expect(
      res.json.result.map((r: { section_id: number; ordinal: number }) => [r.section_id, r.ordinal]),
    ).toEqual([
      [2, 0],
      [5, 0],
      [1, 1],
      [3, 1],
    ]);
    expect(res.json.total).toBe(4);
    expect(res.json.msg).toBe('Ok request done. bibliography_rows');
    // Serra is main author of 1 and other author of 5: each record once, in its first part.
    const serra = await v1('bibliography_rows', { ...params, sql_filter: "authors = 'Serra, Joan'" });
    expect(serra.json.result.map((r: { section_id: number }) => r.section_id)).toEqual([1, 5]);
    const paged = await v1('bibliography_rows', {
      ...params,
      sql_filter: "authors LIKE '%Puig%'",
      limit: '2',
      offset: '1',
    });
    expect(paged.json.result.map((r: { section_id: number }) => r.section_id)).toEqual([5, 1]);
    expect(paged.json.total).toBe(4);
    const bad = await v1('bibliography_rows', {
      ...params,
      sql_filter: 'authors = 1; DROP TABLE publications',
    });
    expect(bad.json.result).toBe(false);
    expect(bad.json.msg).toMatch(/^Error on sql request\. Illegal sql_filter/);
    const noColumns = await v1('bibliography_rows', { use_union: 'true', table: 'global_search' });
    expect(noColumns.json).toEqual({
      result: false,
      msg: 'Error. use_union needs the column author_main in global_search',
    });
  });

  it('tables_info full reads Null, Key, Default and Extra from the catalogue', async () => {
    const full = (await v1('tables_info', { full: 'true' })).json;
    const described = Object.fromEntries(
      full.publications.map(
        (x: { Field: string; Null: string; Key: string; Default: unknown; Extra: string }) => [
          x.Field,
          [x.Null, x.Key, x.Default, x.Extra],
        ],
      ),
    );
    expect(described).toEqual({
      section_id: ['NO', 'PRI', null, ''],
      lang: ['NO', 'PRI', null, ''],
      title: ['YES', '', null, ''],
      author_main: ['YES', 'MUL', null, ''],
      author_others: ['YES', '', null, ''],
      authors_count: ['YES', '', null, ''],
      publication_date: ['YES', '', null, ''],
      status: ['NO', '', "it's new", ''],
      code: ['YES', 'UNI', null, ''],
    });
    expect(full.global_search.map((x: { Field: string }) => x.Field)).not.toContain('id');
    expect((await v1('tables_info')).json.publications).toEqual(Object.keys(described));
  });

  it('global_search_json answers one of its shapes to any json_search, never a server fault', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('*', '>=2001', '<x', "a' OR 1=1", '%', 'ts1_1'),
      fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant('*')), { maxLength: 3 }),
      fc.json({ maxDepth: 1 }),
    );
    const names = fc.constantFrom(
      'birth_place',
      'name_surname',
      'gender',
      'start_date',
      'dead_at_prison',
      'thesaurus',
      'stolpersteine',
      'data_mod',
      'prison',
      'nope',
      '__proto__',
    );
    const search = fc.record(
      {
        database: value,
        lang: fc.oneof(fc.constantFrom('ca', 'es', 'en', 'fr', 'de'), value),
        query: fc.oneof(fc.constantFrom('exili', "'exili memòria'", '+exili -frontera', '"'), value),
        filters: fc.oneof(fc.dictionary(names, value, { maxKeys: 3 }), value),
        pagination: fc.oneof(fc.record({ limit: value, offset: value }, { requiredKeys: [] }), value),
        sort: fc.oneof(fc.record({ name: value, direction: value }, { requiredKeys: [] }), value),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          search.map((x) => JSON.stringify(x)),
          fc.string({ maxLength: 30 }),
        ),
        async (text) => {
          const res = await v1('global_search_json', { json_search: text });
          expect(res.status).toBe(200);
          const body = res.json;
          if (body.results === false) {
            expect(Object.keys(body).sort()).toEqual(
              Object.keys(body).length === 1 ? ['results'] : ['error_id', 'error_msg', 'results'],
            );
            if (body.error_msg !== undefined) expect(body.error_msg).not.toMatch(/Check server log/);
          } else {
            expect(typeof body.total).toBe('number');
            expect(Array.isArray(body.results)).toBe(true);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('process_result answers rows or a v1 error to any spec, never a server fault', async () => {
    const spec = fc.record(
      {
        fn: fc.constantFrom(
          'add_parents_and_children_recursive',
          'add_parents_or_children',
          'break_down_totals',
          'sum_totals',
          'resolve_indexation_fragments',
        ),
        columns: fc.oneof(
          fc.array(fc.record({ name: fc.constantFrom('title', 'author_others', 'x') })),
          fc.json(),
        ),
        columns_name: fc.oneof(fc.array(fc.constantFrom('title', 'author_others', 'x')), fc.json()),
        base_column: fc.oneof(fc.constantFrom('author_others', 'title', 'nope'), fc.json()),
        total_column: fc.oneof(fc.constantFrom('authors_count', 'title'), fc.json()),
        split_columns: fc.oneof(fc.array(fc.constantFrom('title', 'author_main')), fc.json()),
        separator: fc.oneof(fc.constantFrom('; ', ' | ', ''), fc.json()),
        column: fc.oneof(fc.constantFrom('title', 'author_main'), fc.json()),
      },
      { requiredKeys: ['fn'] },
    );
    await fc.assert(
      fc.asyncProperty(spec, async (p) => {
        const res = await v1('records', {
          table: 'publications',
          ar_fields:
            'section_id, lang, title, author_main, author_others, authors_count, author_others AS term_id',
          process_result: JSON.stringify(p),
        });
        expect(res.status).toBe(200);
        if (res.json.result === false) expect(res.json.msg).not.toMatch(/Check server log/);
        else expect(Array.isArray(res.json.result)).toBe(true);
      }),
      { numRuns: 80 },
    );
  });

  it('reads the table V1_TABLE_GLOBAL_SEARCH names', async () => {
    const other = await startTestServer(
      { ...c, env: built.env },
      { V1_API_CODE: CODE, V1_TABLE_GLOBAL_SEARCH: 'publications' },
    );
    try {
      const url = (action: string, params: Record<string, string>) =>
        `${new URL(other.base).origin}/publication/server_api/v1/json/${action}?${new URLSearchParams({ code: CODE, ...params })}`;
      const plain = await rawRequest(url('global_search', { ar_fields: 'section_id,title', lang: 'lg-cat' }));
      expect(plain.json.result).toEqual([{ table: 'publications', section_id: 5, title: 'Retorn' }]);
      const json = await rawRequest(url('global_search_json', { json_search: '{}' }));
      expect(json.json).toEqual({
        results: false,
        error_msg: 'publications has no column link',
        error_id: 1,
      });
    } finally {
      await other.close();
    }
  });

  it('global_search_json answers its own failure shapes', async () => {
    expect((await v1('global_search_json', { json_search: '{not json' })).json).toEqual({ results: false });
    expect(await json({ filters: { nope: 1 } })).toEqual({
      results: false,
      error_msg: 'unknown filter nope',
      error_id: 1,
    });
    expect(await json({ filters: { prison: 'x' } })).toEqual({
      results: false,
      error_msg: 'filter prison: the table has no column prison',
      error_id: 1,
    });
    expect((await json({ filters: { gender: 'two' } })).error_msg).toBe('filter gender: expected an integer');
    expect((await json({ sort: { name: 'nope' } })).error_msg).toBe('sort: the table has no column nope');
    expect((await json({ pagination: { limit: -1 } })).results).toBe(false);
  });
});
