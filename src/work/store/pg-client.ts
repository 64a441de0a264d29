/**
 * SqlClient over a node-postgres Pool. BIGINT (count(*), identity ids) is parsed to a JS number,
 * as PGlite does, so callers see the same types on both engines; every id we store stays far
 * below 2^53.
 */
import pg from 'pg';
import type { SqlClient, SqlQueryable, SqlResult } from './sql-client.js';

const INT8_OID = 20;

const parseInt8 = (value: string) => Number(value);

/** Per-pool type parsers, so this choice never leaks into other pg users in the process. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PgClientOptions {
  url: string;
  poolMax: number;
}

export class PgClient implements SqlClient {
  readonly engine = 'postgres' as const;
  private readonly pool: pg.Pool;

  constructor(options: PgClientOptions) {
    this.pool = new pg.Pool({ connectionString: options.url, max: options.poolMax, types });
    // An idle connection dropped by the server must not crash the process; the pool replaces it.
    this.pool.on('error', () => {});
  }

  async query<T extends object>(sql: string, params: readonly unknown[] = []): Promise<SqlResult<T>> {
    const result = await this.pool.query<T>(sql, params as unknown[]);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  }

  async transaction<R>(fn: (tx: SqlQueryable) => Promise<R>): Promise<R> {
    const conn = await this.pool.connect();
    const tx: SqlQueryable = {
      query: async <T extends object>(sql: string, params: readonly unknown[] = []) => {
        const result = await conn.query<T>(sql, params as unknown[]);
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      },
    };
    let broken = false;
    try {
      await conn.query('BEGIN');
      const value = await fn(tx);
      await conn.query('COMMIT');
      return value;
    } catch (err) {
      try {
        await conn.query('ROLLBACK');
      } catch {
        broken = true; // the connection is unusable: destroy it instead of returning it
      }
      throw err;
    } finally {
      conn.release(broken);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
