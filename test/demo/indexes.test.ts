import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_DEFS, writeSqliteDemo } from '../../src/demo/index.js';
import { buildSelect, sqliteDialect } from '../../src/publication/db/sql-builder.js';

describe('the demo archive indexes what its lists filter on, with the id', () => {
  let dir: string;
  let db: Database.Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-indexes-'));
    const file = join(dir, 'demo.sqlite');
    await writeSqliteDemo(file, { interviews: 500, seed: 3 });
    db = new Database(file, { readonly: true });
    // The driver's liveness check, which its statements call for every scanned row.
    db.function('pub_alive', () => 1);
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a page of one language in id order from an index, with no sort of the language', () => {
    const columns = TABLE_DEFS.find((t) => t.name === 'interview')!.columns.map((c) => c.name);
    // The statement the records route sends for ?filter[lang]=lg-eng&sort=-section_id&limit=100.
    const { sql, params } = buildSelect(sqliteDialect, {
      table: 'interview',
      columns,
      where: [{ column: 'lang', op: 'eq', value: 'lg-eng' }],
      orderBy: [
        { column: 'section_id', desc: true },
        { column: 'lang', desc: false },
      ],
      limit: 101,
      offset: 0,
    });
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
      (s) => s.detail,
    );
    expect(plan.some((d) => /USING (COVERING )?INDEX ix_interview_lang/.test(d))).toBe(true);
    expect(plan.some((d) => /TEMP B-TREE/.test(d))).toBe(false);
  });
});
