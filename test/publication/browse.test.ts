/**
 * The browse pages over plain HTTP, on each engine: HTML with a strict Content-Security-Policy,
 * the API index answering browsers with the browse home, errors as HTML pages (escaped, never a
 * stack), and the JSON routes' API-key rule applying to the pages too. The pages' behaviour in a
 * browser is in browse.browser.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARIADB } from '../helpers/mariadb-availability.js';
import {
  type EngineCase,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';

describe.each(engineCases())('browse pages over HTTP on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c);
  });
  afterAll(async () => s.close());

  it('serves HTML pages under /browse/ with a strict CSP and its own stylesheet', async () => {
    const home = await s.get('/browse/');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(home.text).toContain(`href="/publication/server_api/v2/browse/${c.db}/"`);
    expect(home.text).not.toMatch(/<script/i);
    const css = await s.get('/browse/style.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const bare = await s.get(`/browse/${c.db}`);
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe(`/publication/server_api/v2/browse/${c.db}/`);
    const tables = await s.get(`/browse/${c.db}/`);
    expect(tables.text).toContain(`/browse/${c.db}/interview`);
    // Dédalo's description of the publication is left out of the list, not out of reach.
    expect(tables.text).not.toContain(`/browse/${c.db}/publication_schema`);
    expect((await s.get(`/browse/${c.db}/publication_schema`)).status).toBe(200);
    const page = await s.get(`/browse/${c.db}/interview?limit=50&lang=all`);
    const total = (await s.get(`/${c.db}/tables/interview/records?limit=0&count=true`)).json.pagination.total;
    expect(page.text).toContain(`1–50 of ${total}`);
    expect((page.text.match(/<tr[ >]/g) ?? []).length).toBe(51);
  });

  it('names the records that point at a record (dd_relations, through publication_schema)', async () => {
    const informant = (await s.get(`/${c.db}/tables/informant/records/1`)).json.data[0];
    const cell =
      typeof informant.dd_relations === 'string'
        ? JSON.parse(informant.dd_relations)
        : informant.dd_relations;
    const id = Number(cell[0].section_id);
    const titles = (await s.get(`/${c.db}/tables/interview/records/${id}`)).json.data.map(
      (r: { title: string }) => r.title,
    );
    const page = await s.get(`/browse/${c.db}/informant/1?ui=en`);
    const appears = page.text.match(/<dt lang="en">Appears in<\/dt><dd>(.*?)<\/dd>/s);
    expect(appears, 'an "Appears in" field').not.toBeNull();
    const link = appears![1]!.match(
      new RegExp(`<a href="[^"]*/browse/${c.db}/interview/${id}\\?ui=en"[^>]*>([^<]*)</a>`),
    );
    expect(link, `a link to interview ${id}`).not.toBeNull();
    expect(titles).toContain(link![1]!.replaceAll('&#39;', "'").replaceAll('&amp;', '&'));
    expect(page.text).not.toContain('section_tipo');
  });

  it('answers a browser at the API root with the browse home, and JSON clients as before', async () => {
    const html = await s.get('/', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.text).toContain('/browse/');
    expect(html.headers.vary).toMatch(/Accept/);
    const json = await s.get('/', { accept: 'application/json' });
    expect(json.json.links.databases).toBe('/publication/server_api/v2/databases');
    const none = await s.get('/');
    expect(none.json.name).toBeDefined();
    const docs = await s.get('/docs');
    expect(docs.text).toContain('href="/publication/server_api/v2/browse/"');
  });

  it('shows errors as readable, escaped HTML pages with the right status', async () => {
    const table = await s.get(`/browse/${c.db}/nope`);
    expect(table.status).toBe(404);
    expect(table.headers['content-type']).toMatch(/^text\/html/);
    expect(table.text).toContain('table &quot;nope&quot; does not exist');
    const record = await s.get(`/browse/${c.db}/interview/999999`);
    expect(record.status).toBe(404);
    expect(record.text).toContain('record 999999 does not exist');
    const badId = await s.get(`/browse/${c.db}/interview/abc`);
    expect(badId.status).toBe(400);
    expect(badId.headers['content-type']).toMatch(/^text\/html/);
    const hostile = await s.get('/browse/%3Cscript%3Ealert(1)%3C%2Fscript%3E/');
    expect(hostile.status).toBe(404);
    expect(hostile.text).not.toContain('<script>alert(1)');
    expect(hostile.text).toContain('&lt;script&gt;');
    const deep = await s.get('/browse/a/b/c/d/e');
    expect(deep.status).toBe(404);
    expect(deep.headers['content-type']).toMatch(/^text\/html/);
    for (const res of [table, record, badId, hostile, deep]) expect(res.text).not.toMatch(/at .*\.js:\d+/);
  });

  it('keeps the page and explains a bad filter instead of failing', async () => {
    const res = await s.get(`/browse/${c.db}/interview?op%5Bsection_id%5D=gt&v%5Bsection_id%5D=abc`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('role="alert"');
    expect(res.text).toContain('expects a number');
    expect(res.text).toContain('name="v[section_id]" value="abc"');
  });

  it('applies the API-key rule of the JSON routes', async () => {
    const keyed = await startTestServer(c, { API_KEYS: 'k-browse-0123456789abcdef' });
    try {
      const refused = await keyed.get(`/browse/${c.db}/interview`);
      expect(refused.status).toBe(401);
      const ok = await keyed.get(`/browse/${c.db}/interview`, { 'x-api-key': 'k-browse-0123456789abcdef' });
      expect(ok.status).toBe(200);
      expect(ok.headers['cache-control']).toMatch(/^private/);
    } finally {
      await keyed.close();
    }
  });
});

/**
 * A multilingual table where one version lacks a field: `notes` 1 has a Spanish summary and an
 * English title but no English summary; note 2 exists only in Spanish.
 */
async function writeFallbackDb(
  c: EngineCase,
): Promise<{ env: Record<string, string>; db: string; drop(): Promise<void> }> {
  const rows = [
    [1, 'lg-eng', 'The harbour', null],
    [1, 'lg-spa', 'El puerto', 'Un resumen en castellano'],
    [2, 'lg-spa', 'La mina', 'Otro resumen'],
  ];
  if (c.engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'browse-fallback-'));
    const db = new Database(join(dir, 'fallback.sqlite'));
    db.exec(
      'CREATE TABLE notes (section_id INTEGER, lang TEXT, title TEXT, summary TEXT, PRIMARY KEY (section_id, lang))',
    );
    db.exec('CREATE INDEX ix_lang ON notes (lang, section_id)');
    const insert = db.prepare('INSERT INTO notes VALUES (?, ?, ?, ?)');
    for (const r of rows) insert.run(...r);
    db.close();
    return {
      env: { DB_DRIVER: 'sqlite', DB_SQLITE_DIR: dir, DB_NAMES: 'fallback' },
      db: 'fallback',
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `browse_fallback_${process.pid}`;
  const conn = await mysql.createConnection({ ...MARIADB, multipleStatements: true });
  await conn.query(`DROP DATABASE IF EXISTS \`${name}\`; CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await conn.query(
    `CREATE TABLE \`${name}\`.notes (section_id INT, lang VARCHAR(8), title VARCHAR(255), summary TEXT, PRIMARY KEY (section_id, lang), KEY ix_lang (lang, section_id))`,
  );
  for (const r of rows) await conn.query(`INSERT INTO \`${name}\`.notes VALUES (?, ?, ?, ?)`, r);
  return {
    env: { ...c.env, DB_NAMES: name },
    db: name,
    drop: async () => {
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

describe.each(engineCases())('browse pages mark what falls back to another language on $engine', (c) => {
  let s: TestServer;
  let fallback: Awaited<ReturnType<typeof writeFallbackDb>>;
  beforeAll(async () => {
    fallback = await writeFallbackDb(c);
    s = await startTestServer({ ...c, env: fallback.env });
  });
  afterAll(async () => {
    await s?.close();
    await fallback?.drop();
  });

  it('shows a field missing in the reader’s language from another version, marked', async () => {
    const page = await s.get(`/browse/${fallback.db}/notes/1?ui=en`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1 lang="en">The harbour');
    // The summary exists only in Spanish: shown, marked, and in the Spanish lang attribute.
    expect(page.text).toMatch(
      /<dt lang="en">summary <span class="fallback" title="Not available in English: shown in Spanish">in Spanish<\/span><\/dt><dd lang="es">Un resumen en castellano<\/dd>/,
    );
    // The title is English: no mark.
    expect(page.text).toMatch(/<dt lang="en">Title<\/dt><dd>The harbour<\/dd>/);
    const es = await s.get(`/browse/${fallback.db}/notes/1?ui=es`);
    expect(es.text).toContain('<h1 lang="es">El puerto');
    expect(es.text).not.toContain('class="fallback"');
  });

  it('says which version a record is shown in when it has none in the reader’s language', async () => {
    const page = await s.get(`/browse/${fallback.db}/notes/2`, { 'accept-language': 'en-GB,en;q=0.9' });
    expect(page.headers.vary).toMatch(/Accept-Language/);
    expect(page.text).toContain('This record has no English version: it is shown in Spanish.');
    expect(page.text).toContain('<h1 lang="es">La mina');
    // The English list shows the English versions and offers every language.
    const list = await s.get(`/browse/${fallback.db}/notes`, { 'accept-language': 'en' });
    expect(list.text).toContain('Showing the records that exist in English.');
    expect(list.text).toContain('1–1 of 1');
    const all = await s.get(`/browse/${fallback.db}/notes?lang=all`, { 'accept-language': 'en' });
    expect(all.text).toContain('1–3 of 3');
  });
});
