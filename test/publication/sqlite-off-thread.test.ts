import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SqliteWorkerPool } from '../../src/publication/db/sqlite-worker-pool.js';
import { FIXTURE_DB } from '../helpers/global-setup.js';

// Counting to 10 million in a recursive CTE keeps one SQLite worker busy for a while.
const SLOW_SQL =
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000) SELECT count(*) AS n FROM c';

describe('SQLite work runs off the main thread', () => {
  let pool: SqliteWorkerPool;
  beforeAll(() => {
    pool = new SqliteWorkerPool(inject('sqliteDir'), 2);
  });
  afterAll(async () => pool.close());

  it('answers a fast query and keeps timers running while a slow query is in progress', async () => {
    let slowDone = false;
    const slow = pool
      .run<{ n: number }[]>({ op: 'all', db: FIXTURE_DB, sql: SLOW_SQL, params: [] })
      .then((rows) => {
        slowDone = true;
        return rows;
      });
    const fast = await pool.run<{ n: number }[]>({
      op: 'all',
      db: FIXTURE_DB,
      sql: 'SELECT count(*) AS n FROM informant',
      params: [],
    });
    expect(fast[0]!.n).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(slowDone).toBe(false); // the slow query is still running, yet the loop was free
    expect((await slow)[0]!.n).toBe(10000000);
  });

  it('reports a missing database file as an error without killing the pool', async () => {
    await expect(pool.run({ op: 'all', db: 'no_such_file', sql: 'SELECT 1', params: [] })).rejects.toThrow();
    const rows = await pool.run<{ ok: number }[]>({
      op: 'all',
      db: FIXTURE_DB,
      sql: 'SELECT 1 AS ok',
      params: [],
    });
    expect(rows[0]!.ok).toBe(1);
  });
});

describe('SQLite workers start as they are needed', () => {
  it('starts no worker before the first message, another only while every started one is busy, never more than the size', async () => {
    const pool = new SqliteWorkerPool(inject('sqliteDir'), 2);
    try {
      expect(pool.stats()).toMatchObject({ workers: 0, busy: 0, max: 2 });
      const one = { op: 'all', db: FIXTURE_DB, sql: 'SELECT 1 AS ok', params: [] };
      // One at a time: the first worker is free each time, so it takes them all.
      for (let i = 0; i < 3; i++) await pool.run(one);
      expect(pool.stats().workers).toBe(1);
      // Four at once: the second finds the first worker busy and starts the second one; the
      // others queue on the two.
      const rows = await Promise.all(Array.from({ length: 4 }, () => pool.run<{ ok: number }[]>(one)));
      expect(rows.map((r) => r[0]!.ok)).toEqual([1, 1, 1, 1]);
      expect(pool.stats()).toMatchObject({ workers: 2, max: 2 });
    } finally {
      await pool.close();
    }
  });
});

describe('time limits on one SQLite worker', () => {
  // No pub_alive() in it: no interrupt stops it, and a terminated worker only stops once it
  // returns (a few seconds of counting; the worker is replaced long before).
  const STUCK_SQL =
    'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30000000) SELECT count(*) AS n FROM c';
  let pool: SqliteWorkerPool;
  beforeAll(() => {
    pool = new SqliteWorkerPool(inject('sqliteDir'), 1);
  });
  afterAll(async () => pool.close());

  it('times out a queued message at once and keeps the others when a stuck worker is replaced', async () => {
    const outcome = (p: Promise<unknown>) =>
      p.then(
        (rows) => ({ rows }),
        (err: { code?: string; message: string }) => ({ error: err.code ?? err.message }),
      );
    const stuck = outcome(pool.run({ op: 'all', db: FIXTURE_DB, sql: STUCK_SQL, params: [] }, 200));
    // Behind it on the only worker: one whose time runs out while it waits, one with time to spare.
    const late = outcome(pool.run({ op: 'all', db: FIXTURE_DB, sql: 'SELECT 2 AS ok', params: [] }, 50));
    const patient = outcome(
      pool.run({ op: 'all', db: FIXTURE_DB, sql: 'SELECT 1 AS ok', params: [] }, 20_000),
    );
    expect(await late).toEqual({ error: 'INTERRUPTED' });
    expect(await stuck).toEqual({ error: 'INTERRUPTED' });
    // The worker was given up over the stuck statement; the patient message ran on its replacement
    // (before this change it failed with "SQLite worker exited", a 500 for its request).
    expect(await patient).toEqual({ rows: [{ ok: 1 }] });
  });
});

describe("the workers' SQLite page cache", () => {
  const cacheSize = async (pool: SqliteWorkerPool) =>
    (
      await pool.run<{ cache_size: number }[]>({
        op: 'all',
        db: FIXTURE_DB,
        sql: 'PRAGMA cache_size',
        params: [],
      })
    )[0]!.cache_size;

  it('is the configured size per connection (DB_SQLITE_CACHE_MB), else the build default of 16 MB', async () => {
    const sized = new SqliteWorkerPool(inject('sqliteDir'), 1, 8);
    const stock = new SqliteWorkerPool(inject('sqliteDir'), 1);
    try {
      expect(await cacheSize(sized)).toBe(-8 * 1024); // negative: KiB
      expect(await cacheSize(stock)).toBe(-16000);
    } finally {
      await Promise.all([sized.close(), stock.close()]);
    }
  });
});
