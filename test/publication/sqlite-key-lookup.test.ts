import { mkdtempSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSelect, sqliteDialect } from '../../src/publication/db/sql-builder.js';
import { SqliteDriver } from '../../src/publication/db/sqlite-driver.js';
import { isKeyLookupPlan, SqliteKeyLookup } from '../../src/publication/db/sqlite-key-lookup.js';
import { DatabaseUnavailable, type SelectQuery } from '../../src/publication/db/types.js';

/** A publication file: `keyed` has its key indexed, `loose` the same rows and no index at all. */
function writeDb(file: string, title: string): void {
  const db = new Database(file);
  db.exec(`
    CREATE TABLE keyed (section_id INTEGER NOT NULL, lang TEXT NOT NULL, title TEXT, PRIMARY KEY (section_id, lang));
    CREATE TABLE loose (section_id INTEGER, lang TEXT, title TEXT);`);
  for (const table of ['keyed', 'loose']) {
    const insert = db.prepare(`INSERT INTO ${table} VALUES (?, ?, ?)`);
    for (let id = 1; id <= 50; id++) {
      insert.run(id, 'lg-eng', `${title} ${id}`);
      insert.run(id, 'lg-spa', `["${title}", ${id}]`);
    }
  }
  db.close();
}

const record = (table: string, id: number): SelectQuery => ({
  table,
  columns: ['section_id', 'lang', 'title'],
  where: [{ column: 'section_id', op: 'eq', value: id }],
  orderBy: [{ column: 'lang', desc: false }],
  limit: 1000,
  byKey: true,
});
const shape = { decode: ['title'], collect: 'lang' };
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('plans a key lookup may run on the main thread', () => {
  it('accepts equality searches on an index and nothing else', () => {
    expect(
      isKeyLookupPlan(['SEARCH interview USING INDEX sqlite_autoindex_interview_1 (section_id=?)']),
    ).toBe(true);
    expect(isKeyLookupPlan(['SEARCH t USING INTEGER PRIMARY KEY (rowid=?)'])).toBe(true);
    expect(isKeyLookupPlan(['SEARCH t USING COVERING INDEX ix (a=? AND b=?)'])).toBe(true);
    expect(isKeyLookupPlan(['SCAN interview'])).toBe(false);
    expect(isKeyLookupPlan(['SEARCH t USING INDEX ix (a>?)'])).toBe(false);
    expect(isKeyLookupPlan(['SEARCH t USING INDEX ix (a=? AND b>?)'])).toBe(false);
    expect(isKeyLookupPlan(['SEARCH t USING INDEX ix (a=?)', 'USE TEMP B-TREE FOR ORDER BY'])).toBe(false);
    expect(isKeyLookupPlan([])).toBe(false);
  });
});

describe('a record read by its key on SQLite', () => {
  let dir: string;
  let driver: SqliteDriver;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'key-lookup-'));
    writeDb(join(dir, 'pub.sqlite'), 'first');
    driver = new SqliteDriver(dir, 1);
  });
  afterAll(async () => {
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads an indexed key on the main thread, with the same bytes as a worker writes', async () => {
    const lookup = new SqliteKeyLookup(dir);
    try {
      const inline = await driver.selectJson('pub', record('keyed', 7), shape);
      const viaWorker = await driver.selectJson('pub', { ...record('keyed', 7), byKey: false }, shape);
      expect(text(inline.json.bytes)).toBe(text(viaWorker.json.bytes));
      expect(JSON.parse(text(inline.json.bytes))).toEqual([
        { section_id: 7, lang: 'lg-eng', title: 'first 7' },
        { section_id: 7, lang: 'lg-spa', title: ['first', 7] },
      ]);
      expect(inline.collected).toEqual(['lg-eng', 'lg-spa']);
      // The same statement, answered by the lookup itself (not handed to a worker).
      const { sql, params } = buildSelect(sqliteDialect, record('keyed', 7));
      expect(lookup.tryJson('pub', sql, params, shape)?.count).toBe(2);
    } finally {
      lookup.close();
    }
  });

  it('leaves a table without an index on the key to the workers (it would scan), with the same answer', async () => {
    const lookup = new SqliteKeyLookup(dir);
    try {
      const { sql, params } = buildSelect(sqliteDialect, record('loose', 7));
      expect(lookup.tryJson('pub', sql, params, shape)).toBeUndefined();
    } finally {
      lookup.close();
    }
    const read = await driver.selectJson('pub', record('loose', 7), shape);
    expect(read.collected).toEqual(['lg-eng', 'lg-spa']);
    expect(JSON.parse(text(read.json.bytes))[0]).toEqual({ section_id: 7, lang: 'lg-eng', title: 'first 7' });
  });

  it('reads a file renamed over the old one, and reports a removed file as unavailable', async () => {
    await driver.selectJson('pub', record('keyed', 3), shape); // the main thread's connection is open
    const next = join(dir, 'next.sqlite');
    writeDb(next, 'second');
    renameSync(next, join(dir, 'pub.sqlite'));
    const read = await driver.selectJson('pub', record('keyed', 3), shape);
    expect(JSON.parse(text(read.json.bytes))[0].title).toBe('second 3');
    unlinkSync(join(dir, 'pub.sqlite'));
    await expect(driver.selectJson('pub', record('keyed', 3), shape)).rejects.toBeInstanceOf(
      DatabaseUnavailable,
    );
  });
});
