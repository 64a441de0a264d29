import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

const batchOf = (s: TestServer, queries: { id: string; path: string; params?: Record<string, unknown> }[]) =>
  s.request(
    'POST',
    `${new URL(s.base).pathname}/batch`,
    { 'Content-Type': 'application/json' },
    JSON.stringify({ queries }),
  );

describe.each(engineCases())('a batch spends one statement budget on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c, { REQUEST_MAX_STATEMENTS: '5' });
  });
  afterAll(async () => s.close());

  it('queries of two statements each: two fit in five, the others are 429 too-many-statements', async () => {
    // A counted page is two statements (the page and its COUNT), charged together.
    const queries = Array.from({ length: 4 }, (_, i) => ({
      id: `q${i}`,
      path: `/${c.db}/tables/interview/records`,
      params: { limit: 1, offset: i, count: true },
    }));
    const res = await batchOf(s, queries);
    expect(res.status).toBe(200);
    const statuses = res.json.results.map((r: { status: number }) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429]);
    for (const r of res.json.results.filter((x: { status: number }) => x.status === 429)) {
      expect(r.problem.type).toMatch(/\/too-many-statements$/);
      expect(r).not.toHaveProperty('data');
    }
    // Each query alone fits: the refusals come from sharing, not from the queries themselves.
    for (const q of queries) {
      const direct = await s.get(`${q.path}?limit=1&offset=${q.params.offset}&count=true`);
      expect(direct.status).toBe(200);
    }
  });
});

describe('a batch shares its deadline on sqlite', () => {
  const c = engineCases().find((e) => e.engine === 'sqlite')!;
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    // A private copy with an endless view: a query on it runs until the deadline stops it.
    dir = mkdtempSync(join(tmpdir(), 'batch-deadline-'));
    const file = join(dir, `${c.db}.sqlite`);
    copyFileSync(join(inject('sqliteDir'), `${c.db}.sqlite`), file);
    const db = new Database(file);
    db.exec(
      'CREATE VIEW slow_view AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000000000) SELECT x AS section_id FROM c',
    );
    db.close();
    // One worker, so the batch runs its queries one after the other, in order.
    s = await startTestServer(c, { DB_SQLITE_DIR: dir, DB_SQLITE_WORKERS: '1', REQUEST_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('once the slow query spent the time, a fast query after it is a 504 too', async () => {
    const res = await batchOf(s, [
      { id: 'slow', path: `/${c.db}/tables/slow_view/records`, params: { limit: 1 } },
      { id: 'fast', path: `/${c.db}/tables/interview/records/1` },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.results.map((r: { status: number }) => r.status)).toEqual([504, 504]);
    expect(res.json.results[1].problem.type).toMatch(/\/timeout$/);
    // Alone, the fast query answers: it was the batch's deadline it ran out of.
    expect((await s.get(`/${c.db}/tables/interview/records/1`)).status).toBe(200);
  });
});
