/**
 * The ceilings the API is measured against: the same SQL the API runs for one request, issued in
 * a bare loop with the same concurrency and no HTTP in between (mysql2 pool for MariaDB; one
 * synchronous better-sqlite3 connection for SQLite, which is all one core can do). A request
 * that needs several statements runs them one after the other, or all at once for a batch.
 */
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';

export interface LoopResult {
  requestsPerSec: number;
  p99Ms: number;
}

export interface Statement {
  sql: string;
  params: unknown[];
}

/** The statements of one API request; `parallel` when the API runs them concurrently. */
export interface RequestPlan {
  statements: () => Statement[];
  parallel?: boolean;
}

function summarise(latencies: number[], seconds: number): LoopResult {
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0;
  return { requestsPerSec: latencies.length / seconds, p99Ms: p99 };
}

export async function mariadbCeiling(
  conn: { host: string; port: number; user: string; password: string; database: string },
  plan: RequestPlan,
  concurrency: number,
  seconds: number,
  /** Connections of the pool, as the server's DB_POOL_MAX (default: one per concurrent loop). */
  poolSize = concurrency,
): Promise<LoopResult> {
  const pool = mysql.createPool({ ...conn, connectionLimit: poolSize, dateStrings: true });
  const run = (s: Statement) => pool.execute(s.sql, s.params as (string | number)[]);
  const latencies: number[] = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const statements = plan.statements();
        const t = performance.now();
        if (plan.parallel) await Promise.all(statements.map(run));
        else for (const s of statements) await run(s);
        latencies.push(performance.now() - t);
      }
    }),
  );
  await pool.end();
  return summarise(latencies, seconds);
}

export function sqliteCeiling(file: string, plan: RequestPlan, seconds: number): LoopResult {
  const db = new Database(file, { readonly: true });
  const prepared = new Map<string, Database.Statement>();
  const latencies: number[] = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const statements = plan.statements();
    const t = performance.now();
    for (const { sql, params } of statements) {
      let stmt = prepared.get(sql);
      if (!stmt) {
        stmt = db.prepare(sql);
        prepared.set(sql, stmt);
      }
      stmt.all(...params);
    }
    latencies.push(performance.now() - t);
  }
  db.close();
  return summarise(latencies, seconds);
}
