/**
 * The work API's PostgreSQL sessions compile no plan with JIT: a migration's one-row side-table
 * copy, planned over tables without statistics, crossed jit_above_cost and spent 2.2 s
 * compiling what ran in 3 ms (every migration test on PostgreSQL paid it). A plain session on
 * the same server (the shared test server keeps PostgreSQL's default, JIT on) still compiles
 * the same plan, so this fails if the setting is lost. Nor do they start parallel workers for a
 * list page: a Gather per request only competes for the cores the other requests need.
 * Statements with parameters are prepared once per connection and planned with each request's
 * values; one whose table changed shape since (a migration's new column under `SELECT *`) still
 * answers.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgClient } from '../../src/work/store/pg-client.js';
import { POSTGRES_ADMIN_URL, requirePostgresOrSkip } from '../helpers/postgres-availability.js';

const canRun = await requirePostgresOrSkip();

/** A statement estimated far above jit_above_cost (100,000) that runs in a moment. */
const COSTLY = `EXPLAIN (ANALYZE, FORMAT JSON)
  SELECT count(*) FROM generate_series(1, 10) a, generate_series(1, 1000000000) b WHERE a = 0 AND b = 0`;

const jitOf = (plan: unknown) => JSON.stringify(plan).includes('"JIT"');

describe.runIf(canRun)('PostgreSQL sessions of the work API', () => {
  let client: PgClient;
  let plain: pg.Client;

  beforeAll(async () => {
    client = new PgClient({ url: POSTGRES_ADMIN_URL, poolMax: 1 });
    plain = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await plain.connect();
  });
  afterAll(async () => {
    await client?.close();
    await plain?.end();
  });

  it('run without JIT, where a plain session on the same server compiles the plan', async () => {
    expect((await client.query<{ jit: string }>('SHOW jit')).rows[0]!.jit).toBe('off');
    expect(jitOf((await client.query(COSTLY)).rows)).toBe(false);
    const { rows } = await plain.query<{ jit: string }>('SHOW jit');
    // Without JIT on the server itself the comparison below says nothing.
    if (rows[0]!.jit !== 'on') return;
    expect(jitOf((await plain.query(COSTLY)).rows)).toBe(true);
  });

  it('plan no parallel workers, where a plain session on the same server would', async () => {
    const setting = await client.query<{ max_parallel_workers_per_gather: string }>(
      'SHOW max_parallel_workers_per_gather',
    );
    expect(setting.rows[0]!.max_parallel_workers_per_gather).toBe('0');
    // A table large enough (~14 MB) for the planner to scan it with workers: EXPLAIN only.
    const table = `parallel_probe_${process.pid}`;
    await plain.query(`CREATE TABLE ${table} AS SELECT g FROM generate_series(1, 400000) g`);
    await plain.query(`ANALYZE ${table}`);
    const scan = `EXPLAIN (FORMAT JSON) SELECT count(*) FROM ${table} WHERE g % 7 = 0`;
    const parallel = (plan: unknown) => JSON.stringify(plan).includes('Gather');
    expect(parallel((await client.query(scan)).rows)).toBe(false);
    const plainSetting = await plain.query<{ max_parallel_workers_per_gather: string }>(
      'SHOW max_parallel_workers_per_gather',
    );
    const plainPlan = (await plain.query(scan)).rows;
    await plain.query(`DROP TABLE ${table}`);
    // Without parallel query on the server itself the comparison says nothing.
    if (plainSetting.rows[0]!.max_parallel_workers_per_gather === '0') return;
    expect(parallel(plainPlan)).toBe(true);
  });

  it('prepare statements once per connection, planned with the values of each request', async () => {
    const mode = await client.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
    expect(mode.rows[0]!.plan_cache_mode).toBe('force_custom_plan');
    const sql = 'SELECT $1::integer + 1 AS n';
    expect((await client.query<{ n: number }>(sql, [1])).rows).toEqual([{ n: 2 }]);
    expect((await client.query<{ n: number }>(sql, [41])).rows).toEqual([{ n: 42 }]);
    // poolMax 1: the same connection answers this too.
    const prepared = await client.query<{ statement: string }>(
      'SELECT statement FROM pg_prepared_statements',
    );
    expect(prepared.rows.map((r) => r.statement)).toContain(sql);
  });

  it('answer a prepared statement whose table gained a column since', async () => {
    const table = `shape_probe_${process.pid}`;
    await client.query(`CREATE TABLE ${table} (a integer)`);
    try {
      await client.query(`INSERT INTO ${table} VALUES (1)`);
      const sql = `SELECT * FROM ${table} WHERE a = $1`;
      expect((await client.query(sql, [1])).rows).toEqual([{ a: 1 }]);
      await client.query(`ALTER TABLE ${table} ADD COLUMN b integer DEFAULT 7`);
      expect((await client.query(sql, [1])).rows).toEqual([{ a: 1, b: 7 }]);
    } finally {
      await client.query(`DROP TABLE ${table}`);
    }
  });

  it('prepare nothing when told not to (a pooler that cannot keep prepared statements)', async () => {
    const unprepared = new PgClient({ url: POSTGRES_ADMIN_URL, poolMax: 1, preparedStatements: false });
    try {
      const sql = 'SELECT $1::integer * 2 AS n';
      expect((await unprepared.query<{ n: number }>(sql, [21])).rows).toEqual([{ n: 42 }]);
      expect((await unprepared.query<{ n: number }>(sql, [4])).rows).toEqual([{ n: 8 }]);
      const prepared = await unprepared.query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM pg_prepared_statements',
      );
      expect(prepared.rows).toEqual([{ n: 0 }]);
    } finally {
      await unprepared.close();
    }
  });
});
