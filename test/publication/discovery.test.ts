import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MARIADB } from '../helpers/mariadb-availability.js';
import {
  type DirectDb,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';

describe.each(engineCases())('discovery on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  const hidden = c.engine === 'sqlite' ? 'hidden_db' : 'mysql'; // exists, but is not in DB_NAMES

  beforeAll(async () => {
    if (c.engine === 'sqlite') {
      const dir = inject('sqliteDir');
      copyFileSync(join(dir, `${c.db}.sqlite`), join(dir, 'hidden_db.sqlite'));
    }
    s = await startTestServer(c);
    direct = await c.openDirect();
  });
  afterAll(async () => {
    await s.close();
    await direct.close();
    if (c.engine === 'sqlite') rmSync(join(inject('sqliteDir'), 'hidden_db.sqlite'), { force: true });
  });

  it('describes itself at the index with links under BASE_PATH', async () => {
    const res = await s.get('/');
    expect(res.status).toBe(200);
    const bp = new URL(s.base).pathname;
    expect(res.json).toEqual({
      name: expect.any(String),
      version: '2.1.0',
      links: {
        databases: `${bp}/databases`,
        docs: `${bp}/docs`,
        openapi: `${bp}/openapi.yaml`,
        health: `${bp}/health`,
      },
    });
  });

  it('lists only the configured databases', async () => {
    const res = await s.get('/databases');
    expect(res.json.data).toEqual([
      { name: c.db, links: { tables: `${new URL(s.base).pathname}/${c.db}/tables` } },
    ]);
  });

  it('lists tables with estimated row counts and column counts, hiding engine internals', async () => {
    const res = await s.get(`/${c.db}/tables`);
    expect(res.status).toBe(200);
    const names = res.json.data.map((t: { name: string }) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['interview', 'informant', 'publication_schema', 'ts_themes']),
    );
    expect(names.some((n: string) => n.startsWith('fts_') || n.startsWith('sqlite_'))).toBe(false);
    const interview = res.json.data.find((t: { name: string }) => t.name === 'interview');
    const exact = Number((await direct.query<{ n: number }>('SELECT COUNT(*) AS n FROM interview'))[0]!.n);
    expect(interview.column_count).toBeGreaterThan(5);
    // An estimate: close to the truth, not necessarily equal to it.
    expect(interview.row_count).toBeGreaterThan(exact / 2);
    expect(interview.row_count).toBeLessThan(exact * 2);
    // With a trailing slash, the same list (directly and in a batch), not a bad table name.
    const slash = await s.get(`/${c.db}/tables/`);
    expect(slash.status, slash.text).toBe(200);
    expect(slash.json.data).toEqual(res.json.data);
    const batch = await s.request(
      'POST',
      `${new URL(s.base).pathname}/batch`,
      { 'Content-Type': 'application/json' },
      JSON.stringify({ queries: [{ id: 'slash', path: `/${c.db}/tables/` }] }),
    );
    expect(batch.json.results[0]).toMatchObject({ status: 200, data: { data: res.json.data } });
  });

  it('describes a table with its exact row count and SQL column types', async () => {
    const res = await s.get(`/${c.db}/tables/informant`);
    expect(res.status).toBe(200);
    const exact = Number((await direct.query<{ n: number }>('SELECT COUNT(*) AS n FROM informant'))[0]!.n);
    expect(res.json.data.name).toBe('informant');
    expect(res.json.data.row_count).toBe(exact);
    const sectionId = res.json.data.columns.find((col: { name: string }) => col.name === 'section_id');
    expect(sectionId.type).toMatch(/int/i);
    expect(res.json.data.columns.map((col: { name: string }) => col.name)).toContain('surname');
  });

  it('answers 404 for an unknown database, one not in DB_NAMES, and an unknown table', async () => {
    for (const path of [
      '/nodb/tables',
      `/${hidden}/tables`,
      `/${hidden}/tables/interview/records`,
      `/${c.db}/tables/nope`,
      `/${c.db}/tables/nope/records`,
    ]) {
      const res = await s.get(path);
      expect(res.status, path).toBe(404);
      expect(res.json.type, path).toMatch(/\/not-found$/);
    }
  });

  it('refuses table names outside the identifier pattern with 400', async () => {
    const res = await s.get(`/${c.db}/tables/${encodeURIComponent('interview;drop')}/records`);
    expect(res.status).toBe(400);
    expect(res.json.errors[0]).toMatchObject({ name: 'table', in: 'path' });
  });
});

describe.each(engineCases())('databases named like static routes on $engine', (c) => {
  const NAMES = ['databases', 'health', 'docs'];
  let s: TestServer;
  const created: string[] = [];
  beforeAll(async () => {
    if (c.engine === 'sqlite') {
      for (const name of NAMES) {
        copyFileSync(
          join(inject('sqliteDir'), `${c.db}.sqlite`),
          join(inject('sqliteDir'), `${name}.sqlite`),
        );
      }
    } else {
      const conn = await mysql.createConnection(MARIADB);
      for (const name of NAMES) {
        const [rows] = await conn.query('SHOW DATABASES LIKE ?', [name]);
        if ((rows as unknown[]).length > 0) continue; // someone else's: use it, never drop it
        await conn.query(`CREATE DATABASE \`${name}\``);
        await conn.query(`CREATE TABLE \`${name}\`.\`thing\` (section_id INT PRIMARY KEY)`);
        created.push(name);
      }
      await conn.end();
    }
    s = await startTestServer(c, { DB_NAMES: [c.db, ...NAMES].join(',') });
  });
  afterAll(async () => {
    await s.close();
    if (c.engine === 'sqlite') {
      for (const name of NAMES) rmSync(join(inject('sqliteDir'), `${name}.sqlite`), { force: true });
    }
    if (created.length > 0) {
      const conn = await mysql.createConnection(MARIADB);
      for (const name of created) await conn.query(`DROP DATABASE \`${name}\``);
      await conn.end();
    }
  });

  it('keeps /databases, /health and /docs static while /{name}/tables reaches the database', async () => {
    const list = await s.get('/databases');
    expect(list.json.data.map((d: { name: string }) => d.name)).toEqual([c.db, ...NAMES]);
    const health = await s.get('/health');
    expect(health.json.databases).toMatchObject({ health: 'connected', docs: 'connected' });
    expect((await s.get('/docs')).headers['content-type']).toMatch(/text\/html/);
    for (const name of NAMES) {
      const tables = await s.get(`/${name}/tables`);
      expect(tables.status, name).toBe(200);
      expect(Array.isArray(tables.json.data), name).toBe(true);
    }
  });
});
