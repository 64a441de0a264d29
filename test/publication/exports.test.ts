/**
 * CSV and NDJSON exports of the list routes (records, search): the same selection as the JSON
 * page (filters, sort, fields, lang, relations), RFC 4180 quoting checked by parsing the file
 * back with a CSV parser, content negotiation, and problems before anything is streamed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordListRequest } from '../../src/publication/query/record-requests.js';
import { exportRecords } from '../../src/publication/services/export-service.js';
import { MARIADB } from '../helpers/mariadb-availability.js';
import {
  type DirectDb,
  type EngineCase,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';

const F = (s: string) => encodeURIComponent(s);
const csvRows = (text: string): Record<string, string>[] => parse(text, { columns: true, bom: true });
const ndjsonRows = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
/** A JSON cell as the CSV writes it: empty for null, JSON for objects, text otherwise. */
const asCsv = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

describe.each(engineCases())('exports on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  const path = (table: string, route: 'records' | 'search', query: string) =>
    `/${c.db}/tables/${table}/${route}?${query}`;

  beforeAll(async () => {
    s = await startTestServer(c);
    direct = await c.openDirect();
  });
  afterAll(async () => {
    await s.close();
    await direct.close();
  });

  it('a CSV export holds the same rows, columns and order as the JSON page', async () => {
    const query = `${F('filter[lang]')}=lg-eng&sort=-date,code&fields=section_id,code,title,date,informant&limit=40&offset=3`;
    const json = await s.get(path('interview', 'records', query));
    const csv = await s.get(path('interview', 'records', `${query}&format=csv`));
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="interview.csv"');
    expect(csv.text.split('\r\n')[0] ?? csv.text.split('\n')[0]).toMatch(
      /^section_id,code,title,date,informant/,
    );
    const rows = csvRows(csv.text);
    expect(rows.length).toBe(40);
    expect(rows).toEqual(
      json.json.data.map((r: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, asCsv(v)])),
      ),
    );
  });

  it('without limit, exports every matching row in record order, as NDJSON', async () => {
    const res = await s.get(path('interview', 'records', `format=ndjson&fields=section_id,lang,title`));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['x-export-max-rows']).toBe('1000000');
    const expected = await direct.query<{ section_id: number; lang: string; title: string }>(
      'SELECT section_id, lang, title FROM interview ORDER BY section_id, lang',
    );
    expect(expected.length).toBeGreaterThan(100);
    expect(ndjsonRows(res.text)).toEqual(expected.map((r) => ({ ...r, section_id: Number(r.section_id) })));
  });

  it('EXPORT_MAX_ROWS bounds a whole-table export; an explicit limit is the page asked for', async () => {
    const small = await startTestServer(c, { EXPORT_MAX_ROWS: '7' });
    try {
      const whole = await small.get(path('interview', 'records', 'format=ndjson&fields=section_id,lang'));
      expect(ndjsonRows(whole.text).length).toBe(7);
      expect(whole.headers['x-export-max-rows']).toBe('7');
      const page = await small.get(path('interview', 'records', 'format=ndjson&fields=section_id&limit=20'));
      expect(ndjsonRows(page.text).length).toBe(20);
      expect(page.headers['x-export-max-rows']).toBeUndefined();
    } finally {
      await small.close();
    }
  });

  it('resolves relations in exports as in the JSON page (objects written as JSON in CSV)', async () => {
    const query = `fields=section_id,lang,informant&limit=5&resolve_relations=${F('{"informant":"informant"}')}`;
    const json = await s.get(path('interview', 'records', query));
    expect(json.status).toBe(200);
    const nd = await s.get(path('interview', 'records', `${query}&format=ndjson`));
    expect(ndjsonRows(nd.text)).toEqual(json.json.data);
    const csv = csvRows((await s.get(path('interview', 'records', `${query}&format=csv`))).text);
    expect(csv.map((r) => JSON.parse(r.informant!))).toEqual(
      json.json.data.map((r: { informant: unknown }) => r.informant),
    );
  });

  it('negotiates the format from Accept and says so in Vary', async () => {
    const base = path('interview', 'records', 'limit=2&fields=section_id,lang');
    const csv = await s.get(base, { accept: 'text/csv' });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers.vary).toMatch(/Accept/);
    const nd = await s.get(base, { accept: 'application/x-ndjson, application/json;q=0.5' });
    expect(nd.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const json = await s.get(base, { accept: 'application/json, text/csv;q=0.1' });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.headers.vary).toMatch(/Accept/);
    const forced = await s.get(`${base}&format=json`, { accept: 'text/csv' });
    expect(forced.json.data.length).toBe(2);
  });

  it('puts a UTF-8 byte order mark first when asked (bom=true)', async () => {
    const res = await s.get(path('interview', 'records', 'limit=1&fields=title&format=csv&bom=true'));
    expect([...res.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const plain = await s.get(path('interview', 'records', 'limit=1&fields=title&format=csv'));
    expect(plain.text.startsWith('title')).toBe(true);
  });

  it('exports a search with relevance and fragments, same rows as the JSON search', async () => {
    const query = 'q=guerra&fields=section_id,lang,title&limit=15';
    const json = await s.get(path('interview', 'search', query));
    expect(json.status).toBe(200);
    expect(json.json.data.length).toBeGreaterThan(0);
    const csv = csvRows((await s.get(path('interview', 'search', `${query}&format=csv`))).text);
    expect(csv.map((r) => [Number(r.section_id), r.lang, r.title])).toEqual(
      json.json.data.map((r: { section_id: number; lang: string; title: string }) => [
        r.section_id,
        r.lang,
        r.title,
      ]),
    );
    expect(csv.map((r) => JSON.parse(r.fragments!))).toEqual(
      json.json.data.map((r: { fragments: unknown }) => r.fragments),
    );
    const whole = ndjsonRows(
      (await s.get(path('interview', 'search', 'q=guerra&fields=section_id&format=ndjson'))).text,
    );
    const count = (await s.get(path('interview', 'search', 'q=guerra&limit=0&count=true'))).json.pagination
      .total;
    expect(whole.length).toBe(count);
  });

  it('reads in small chunks by key or by offset without losing or repeating a row', async () => {
    const ctx = () => s.server.app.ctx;
    const collect = async (
      req: Partial<RecordListRequest>,
      window: { offset?: number; maxRows?: number },
    ) => {
      const source = await exportRecords(
        ctx,
        c.db,
        'interview',
        { where: [], sort: [], limit: 100, offset: 0, count: false, ...req },
        { offset: window.offset ?? 0, maxRows: window.maxRows ?? 1_000_000, chunkRows: 7 },
      );
      const rows: Record<string, unknown>[] = [];
      for await (const row of source.rows) rows.push(row);
      return { columns: source.columns, rows };
    };
    const keys = (rows: Record<string, unknown>[]) => rows.map((r) => `${r.section_id}/${r.lang}`);
    const all = await direct.query<{ section_id: number; lang: string; title: string; date: string | null }>(
      `SELECT section_id, lang, title, ${direct.q('date')} AS date FROM interview ORDER BY section_id, lang`,
    );
    // By key: chunks of 7 cut through the language variants of a record again and again.
    const byKey = await collect({ fields: ['section_id', 'lang'] }, {});
    expect(keys(byKey.rows)).toEqual(keys(all));
    // From an offset, bounded, and with fields that leave the key out (it is read, not written).
    const titles = await collect({ fields: ['title'] }, { offset: 5, maxRows: 40 });
    expect(titles.columns).toEqual(['title']);
    expect(titles.rows.map((r) => r.title)).toEqual(all.slice(5, 45).map((r) => r.title));
    // Descending key order.
    const desc = await collect(
      { fields: ['section_id', 'lang'], sort: [{ column: 'section_id', desc: true }] },
      {},
    );
    const expectedDesc = [...all].sort((a, b) => b.section_id - a.section_id || a.lang.localeCompare(b.lang));
    expect(keys(desc.rows)).toEqual(keys(expectedDesc));
    // Other orders (NULL dates first ascending, last descending; ties of place; duration as a
    // number): the same rows as the JSON pages in that order.
    for (const sort of ['date', '-date', 'place', '-duration']) {
      const desc = sort.startsWith('-');
      const column = desc ? sort.slice(1) : sort;
      const exported = await collect({ fields: ['section_id', 'lang'], sort: [{ column, desc }] }, {});
      const pages = [];
      for (let offset = 0; offset < all.length; offset += 100) {
        const res = await s.get(
          `/${c.db}/tables/interview/records?fields=section_id,lang&sort=${sort}&limit=100&offset=${offset}`,
        );
        pages.push(...res.json.data);
      }
      expect(keys(exported.rows), sort).toEqual(keys(pages));
    }
  });

  it('answers bad requests with a problem, never a partial file', async () => {
    const bad = await s.get(path('interview', 'records', 'format=xml'));
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0]).toMatchObject({ name: 'format', in: 'query' });
    const bom = await s.get(path('interview', 'records', 'bom=true'));
    expect(bom.status).toBe(400);
    expect(bom.json.errors[0].name).toBe('bom');
    const filter = await s.get(path('interview', 'records', `format=csv&${F('filter[nope][eq]')}=1`));
    expect(filter.status).toBe(400);
    expect(filter.headers['content-type']).toMatch(/^application\/problem\+json/);
    const table = await s.get(path('nope', 'records', 'format=csv'));
    expect(table.status).toBe(404);
    // Batch stays JSON only: format is not one of its parameters.
    const batch = await s.request(
      'POST',
      `${s.base}/batch`.replace(/^https?:\/\/[^/]+/, ''),
      { 'content-type': 'application/json' },
      JSON.stringify({ queries: [{ id: 'a', path: `/${c.db}/tables/interview/records?format=csv` }] }),
    );
    expect(JSON.stringify(batch.json)).toMatch(/format/);
  });
});

/** Cells a spreadsheet or a careless writer would break on. */
const HOSTILE = [
  'plain',
  'comma, inside',
  'quote " inside and "" doubled',
  'line\nbreak',
  'crlf\r\nbreak',
  '<script>alert(1)</script>',
  '  leading and trailing spaces  ',
  '=SUM(A1:A2)',
  'emoji 🎙️ and accents àéïõü',
  '',
];

async function writeHostileTable(
  c: EngineCase,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (c.engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'i13-hostile-'));
    const db = new Database(join(dir, 'hostile.sqlite'));
    db.exec('CREATE TABLE notes (section_id INTEGER PRIMARY KEY, body TEXT)');
    const insert = db.prepare('INSERT INTO notes VALUES (?, ?)');
    for (const [i, v] of HOSTILE.entries()) insert.run(i + 1, v);
    insert.run(HOSTILE.length + 1, null);
    db.close();
    return {
      env: { DB_DRIVER: 'sqlite', DB_SQLITE_DIR: dir, DB_NAMES: 'hostile' },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `i13hostile_${process.pid}`;
  const conn = await mysql.createConnection({ ...MARIADB, multipleStatements: true });
  await conn.query(`DROP DATABASE IF EXISTS \`${name}\`; CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await conn.query(`CREATE TABLE \`${name}\`.notes (section_id INT PRIMARY KEY, body TEXT)`);
  for (const [i, v] of [...HOSTILE, null].entries()) {
    await conn.query(`INSERT INTO \`${name}\`.notes VALUES (?, ?)`, [i + 1, v]);
  }
  return {
    env: { ...c.env, DB_NAMES: name },
    drop: async () => {
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

describe.each(engineCases())('export quoting on $engine', (c) => {
  let s: TestServer;
  let hostile: Awaited<ReturnType<typeof writeHostileTable>>;
  let dbName: string;

  beforeAll(async () => {
    hostile = await writeHostileTable(c);
    dbName = hostile.env.DB_NAMES!;
    s = await startTestServer({ ...c, env: hostile.env });
  });
  afterAll(async () => {
    await s?.close();
    await hostile?.drop();
  });

  it('quotes every hostile cell so a CSV parser reads back exactly what is stored', async () => {
    const res = await s.get(`/${dbName}/tables/notes/records?format=csv`);
    expect(res.status).toBe(200);
    const rows = csvRows(res.text);
    expect(rows.map((r) => r.body)).toEqual([...HOSTILE, '']);
    expect(res.text).toContain('"quote "" inside and """" doubled"');
  });

  it('writes the same cells as NDJSON, one JSON object per line', async () => {
    const res = await s.get(`/${dbName}/tables/notes/records?format=ndjson`);
    const rows = ndjsonRows(res.text);
    expect(rows.map((r) => r.body)).toEqual([...HOSTILE, null]);
    expect(res.text.split('\n').length).toBe(HOSTILE.length + 2);
  });
});
