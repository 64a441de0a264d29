import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FIXTURE_DB } from '../helpers/global-setup.js';
import { MARIADB } from '../helpers/mariadb-availability.js';
import {
  type EngineCase,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';

const R = 'resolve_relations';
const I = 'resolve_inverse_relations';
const enc = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
const manyKeys = Object.fromEntries(Array.from({ length: 11 }, (_v, i) => [`c${i}`, 'informant']));

/** [what, table, query, parameter named in errors, detail pattern] */
const BAD: [string, string, string, string, RegExp][] = [
  ['malformed JSON', 'interview', `${R}=${enc('{"informant":')}`, R, /not valid JSON/],
  ['a bare word other than auto', 'interview', `${R}=informant`, R, /not valid JSON/],
  ['a JSON array', 'interview', `${R}=${enc([1])}`, R, /must be a JSON object/],
  ['a JSON string', 'interview', `${R}=${enc('"auto"')}`, R, /must be a JSON object/],
  ['a non-string target', 'interview', `${R}=${enc({ informant: 1 })}`, R, /must be a string/],
  ['an unknown source column', 'interview', `${R}=${enc({ nope: 'informant' })}`, R, /has no column "nope"/],
  ['an unknown target table', 'interview', `${R}=${enc({ informant: 'nope' })}`, R, /unknown table "nope"/],
  [
    'an unknown target column',
    'interview',
    `${R}=${enc({ image: 'image.nope' })}`,
    R,
    /has no column "nope"/,
  ],
  [
    'a malformed target',
    'interview',
    `${R}=${enc({ image: 'image.section_id.x' })}`,
    R,
    /table, table.column or auto/,
  ],
  [
    'a target without section_id',
    'interview',
    `${R}=${enc({ informant: 'publication_schema' })}`,
    R,
    /no section_id/,
  ],
  ['more than 10 keys', 'interview', `${R}=${enc(manyKeys)}`, R, /11 keys; at most 10/],
  [
    'more than 3 levels',
    'interview',
    `${R}=${enc({ informant: 'informant', 'informant.image': 'image', 'informant.image.dd_relations': 'interview', 'informant.image.dd_relations.image': 'image' })}`,
    R,
    /4 levels deep; at most 3/,
  ],
  [
    'a nested key without its parent',
    'interview',
    `${R}=${enc({ 'informant.image': 'image' })}`,
    R,
    /needs its parent/,
  ],
  [
    'a nested key under auto',
    'interview',
    `${R}=${enc({ link: 'auto', 'link.image': 'image' })}`,
    R,
    /parent "link" is auto/,
  ],
  [
    'a nested column the parent table lacks',
    'interview',
    `${R}=${enc({ informant: 'informant', 'informant.title': 'image' })}`,
    R,
    /"informant" has no column "title"/,
  ],
  ['a bad key', 'interview', `${R}=${enc({ 'in-formant': 'informant' })}`, R, /keys are column names/],
  [
    'a column left out by fields',
    'interview',
    `fields=section_id&${R}=${enc({ informant: 'informant' })}`,
    R,
    /fields leaves out/,
  ],
  ['the parameter twice', 'interview', `${R}=auto&${R}=auto`, R, /given 2 times/],
  [
    'an over-long value',
    'interview',
    `${R}=${enc(`{"informant":"${'x'.repeat(5000)}"}`)}`,
    R,
    /at most 4096/,
  ],
  ['a word other than true/false', 'informant', `${I}=yes`, I, /must be true, 1, false, 0 or a JSON object/],
  ['malformed inverse JSON', 'informant', `${I}=${enc('{"oh1"')}`, I, /not valid JSON/],
  ['a non-string inverse target', 'informant', `${I}=${enc({ oh1: 5 })}`, I, /must be a table name/],
  ['an unknown inverse table', 'informant', `${I}=${enc({ oh1: 'nope' })}`, I, /unknown table "nope"/],
  [
    'a bad section_tipo key',
    'informant',
    `${I}=${enc({ 'oh-1': 'interview' })}`,
    I,
    /keys are section_tipos/,
  ],
  ['too many inverse keys', 'informant', `${I}=${enc(manyKeys)}`, I, /11 keys; at most 10/],
  ['a table without dd_relations', 'audiovisual', `${I}=true`, I, /has no dd_relations column/],
  [
    'a section_tipo map on a table without dd_relations',
    'audiovisual',
    `${I}=${enc({ oh1: 'interview' })}`,
    I,
    /has no dd_relations column/,
  ],
  ['dd_relations left out by fields', 'informant', `fields=section_id&${I}=true`, I, /fields leaves out/],
  [
    'dd_relations resolved twice',
    'informant',
    `${R}=${enc({ dd_relations: 'interview' })}&${I}=true`,
    I,
    /resolved by both/,
  ],
];

describe.each(engineCases())('relation parameter validation on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c);
  });
  afterAll(async () => {
    await s.close();
  });

  it.each(BAD)('refuses %s with a 400 naming the parameter', async (_what, table, query, param, detail) => {
    for (const path of [
      `/${c.db}/tables/${table}/records?${query}`,
      `/${c.db}/tables/${table}/records/1?${query}`,
    ]) {
      const res = await s.get(path);
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.json.type).toMatch(/\/bad-request$/);
      const mine = res.json.errors.filter((e: { name: string }) => e.name === param);
      expect(mine.length, res.text).toBeGreaterThan(0);
      expect(mine.map((e: { detail: string }) => e.detail).join('\n')).toMatch(detail);
    }
  });

  it('names both parameters when both are wrong, next to other bad parameters', async () => {
    const res = await s.get(`/${c.db}/tables/interview/records?limit=-1&${R}=${enc({ x: 'y' })}&${I}=maybe`);
    expect(res.status).toBe(400);
    const names = res.json.errors.map((e: { name: string }) => e.name);
    expect(names).toEqual(expect.arrayContaining(['limit', R, I]));
  });

  it('accepts the off values and empty objects as no resolution', async () => {
    const plain = await s.get(`/${c.db}/tables/informant/records?limit=3`);
    for (const q of [`${I}=false`, `${I}=0`, `${I}=${enc({})}`, `${R}=${enc({})}`]) {
      const res = await s.get(`/${c.db}/tables/informant/records?limit=3&${q}`);
      expect(res.status, q).toBe(200);
      expect(res.json.data).toEqual(plain.json.data);
    }
  });
});

/** publication_schema damaged in each way resolve_inverse_relations=true must report. */
const BROKEN: Record<string, { sql: string[]; detail: RegExp }> = {
  intact: { sql: [], detail: /./ },
  broken_json: {
    sql: [`UPDATE publication_schema SET data = '{"dd_relations": {"oh1"'`],
    detail: /not valid JSON/,
  },
  not_object: { sql: [`UPDATE publication_schema SET data = '[1,2]'`], detail: /not a JSON object/ },
  no_map: {
    sql: [`UPDATE publication_schema SET data = '{"interview":"interview"}'`],
    detail: /no "dd_relations" object/,
  },
  no_row: { sql: ['DELETE FROM publication_schema'], detail: /no row with id 1/ },
  no_table: { sql: ['DROP TABLE publication_schema'], detail: /does not exist/ },
};

/** Builds one database per variant: SQLite copies of the fixture, or small MariaDB databases. */
async function buildBrokenDatabases(
  c: EngineCase,
): Promise<{ env: Record<string, string>; names: Record<string, string>; drop(): Promise<void> }> {
  const names: Record<string, string> = {};
  if (c.engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'pubrel-'));
    for (const [variant, { sql }] of Object.entries(BROKEN)) {
      names[variant] = `rel_${variant}`;
      const file = join(dir, `${names[variant]}.sqlite`);
      copyFileSync(join(inject('sqliteDir'), `${FIXTURE_DB}.sqlite`), file);
      const db = new Database(file);
      for (const stmt of sql) db.exec(stmt);
      db.close();
    }
    return {
      env: { DB_SQLITE_DIR: dir, DB_NAMES: Object.values(names).join(',') },
      names,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const conn = await mysql.createConnection(MARIADB);
  const prefix = `pubrel_${process.pid}_${Date.now().toString(36)}`;
  for (const [variant, { sql }] of Object.entries(BROKEN)) {
    const name = `${prefix}_${variant}`;
    names[variant] = name;
    await conn.query(`CREATE DATABASE \`${name}\``);
    await conn.changeUser({ database: name });
    await conn.query('CREATE TABLE informant (section_id INT NOT NULL PRIMARY KEY, dd_relations TEXT)');
    await conn.query(`INSERT INTO informant VALUES (1, '[{"section_tipo":"rsc197","section_id":"1"}]')`);
    await conn.query('CREATE TABLE publication_schema (id INT NOT NULL PRIMARY KEY, data TEXT)');
    await conn.query(`INSERT INTO publication_schema VALUES (1, '{"dd_relations":{"rsc197":"informant"}}')`);
    for (const stmt of sql) await conn.query(stmt);
  }
  return {
    env: { DB_NAMES: Object.values(names).join(',') },
    names,
    drop: async () => {
      for (const name of Object.values(names)) await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

describe.each(engineCases())('a broken publication_schema on $engine', (c) => {
  let s: TestServer;
  let built: Awaited<ReturnType<typeof buildBrokenDatabases>>;
  beforeAll(async () => {
    built = await buildBrokenDatabases(c);
    s = await startTestServer(c, built.env);
  });
  afterAll(async () => {
    await s?.close();
    await built?.drop();
  });

  it('resolves through an intact publication_schema', async () => {
    const res = await s.get(`/${built.names.intact}/tables/informant/records/1?${I}=true`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0].dd_relations.length).toBeGreaterThan(0);
  });

  it.each(Object.entries(BROKEN).filter(([v]) => v !== 'intact'))(
    '%s is a 400 that says what is wrong, never a 500',
    async (variant, { detail }) => {
      const db = built.names[variant]!;
      for (const path of [
        `/${db}/tables/informant/records?${I}=true`,
        `/${db}/tables/informant/records/1?${I}=1`,
      ]) {
        const res = await s.get(path);
        expect(res.status, res.text).toBe(400);
        expect(res.json.errors).toHaveLength(1);
        expect(res.json.errors[0]).toMatchObject({ name: I, in: 'query' });
        expect(res.json.errors[0].detail).toMatch(detail);
        expect(res.json.errors[0].detail).toMatch(/publication_schema/);
      }
      // An explicit map does not need publication_schema at all.
      const explicit = await s.get(
        `/${db}/tables/informant/records/1?${I}=${enc({ dd_relations: 'informant' })}`,
      );
      expect(explicit.status, explicit.text).toBe(200);
    },
  );
});

const FUZZ_COLUMNS = [
  'section_id',
  'lang',
  'informant',
  'image',
  'link',
  'dd_relations',
  'parent',
  'term_id',
  'title',
  'nope',
];
const FUZZ_TARGETS = [
  'auto',
  'informant',
  'interview',
  'image',
  'audiovisual',
  'ts_themes.term_id',
  'ts_themes.descriptor',
  'image.title',
  'interview.lang',
  'publication_schema',
  'nope',
];
const fuzzKeyArb = fc
  .array(fc.constantFrom(...FUZZ_COLUMNS), { minLength: 1, maxLength: 4 })
  .map((segments) => segments.join('.'));
const fuzzQueryArb = fc.record(
  {
    resolve_relations: fc.oneof(
      fc.constant('auto'),
      fc
        .dictionary(fuzzKeyArb, fc.oneof(fc.constantFrom(...FUZZ_TARGETS), fc.jsonValue()), { maxKeys: 6 })
        .map((o) => JSON.stringify(o)),
      fc.string(),
    ),
    resolve_inverse_relations: fc.oneof(
      fc.constantFrom('true', '0'),
      fc
        .dictionary(
          fc.constantFrom('oh1', 'rsc35', 'dd_relations', 'image', 'x-y'),
          fc.constantFrom(...FUZZ_TARGETS),
        )
        .map((o) => JSON.stringify(o)),
    ),
    lang: fc.constantFrom('lg-eng', 'lg-spa'),
    fields: fc.constantFrom('section_id,informant', 'section_id,dd_relations,parent'),
  },
  { requiredKeys: [] },
);

describe.each(engineCases())('random relation parameters on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c);
  });
  afterAll(async () => s.close());

  it('never answer with a server error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fuzzQueryArb,
        fc.constantFrom(
          'interview/records',
          'interview/records/1',
          'informant/records',
          'image/records/3',
          'ts_themes/records',
        ),
        async (params, route) => {
          const query = Object.entries(params)
            .map(([k, v]) => `${k}=${enc(v)}`)
            .join('&');
          const res = await s.get(`/${c.db}/tables/${route}?${query}`);
          expect(res.status, `${route}?${query} -> ${res.text.slice(0, 300)}`).toBeLessThan(500);
          expect([200, 400]).toContain(res.status);
          if (res.status === 400) expect(res.json.errors.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 200 },
    );
  });
});
