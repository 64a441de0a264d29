/**
 * The ceilings the API is measured against: the same SQL the API runs, issued in a bare loop
 * with the same concurrency and no HTTP in between (mysql2 pool for MariaDB; one synchronous
 * better-sqlite3 connection for SQLite, which is all one core can do).
 */
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';

export interface LoopResult {
  requestsPerSec: number;
  p99Ms: number;
}

function summarise(latencies: number[], seconds: number): LoopResult {
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0;
  return { requestsPerSec: latencies.length / seconds, p99Ms: p99 };
}

export type SqlMaker = () => { sql: string; params: unknown[] };

export async function mariadbCeiling(
  conn: { host: string; port: number; user: string; password: string; database: string },
  make: SqlMaker,
  concurrency: number,
  seconds: number,
): Promise<LoopResult> {
  const pool = mysql.createPool({ ...conn, connectionLimit: concurrency, dateStrings: true });
  const latencies: number[] = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const { sql, params } = make();
        const t = performance.now();
        await pool.execute(sql, params as (string | number)[]);
        latencies.push(performance.now() - t);
      }
    }),
  );
  await pool.end();
  return summarise(latencies, seconds);
}

export function sqliteCeiling(file: string, make: SqlMaker, seconds: number): LoopResult {
  const db = new Database(file, { readonly: true });
  const statements = new Map<string, Database.Statement>();
  const latencies: number[] = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const { sql, params } = make();
    let stmt = statements.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      statements.set(sql, stmt);
    }
    const t = performance.now();
    stmt.all(...params);
    latencies.push(performance.now() - t);
  }
  db.close();
  return summarise(latencies, seconds);
}
