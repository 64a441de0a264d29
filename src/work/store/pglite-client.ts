/**
 * SqlClient over an embedded PGlite, persisted in a directory. PGlite is one PostgreSQL backend
 * in this process: statements run one at a time, and a transaction holds it exclusively until it
 * ends, so the same SQL keeps the same guarantees as on a server.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { PoolStats } from '../../common/metrics.js';
import { acquireDataDirLock, type HeldLock, type LockOwner } from './data-dir-lock.js';
import type { SqlClient, SqlQueryable, SqlResult } from './sql-client.js';

/** PGlite reports affectedRows 0 for a SELECT; pg's rowCount counts the rows returned. */
function rowCountOf(result: { affectedRows?: number; rows: unknown[] }): number {
  return Math.max(result.affectedRows ?? 0, result.rows.length);
}

export class PgliteClient implements SqlClient {
  readonly engine = 'pglite' as const;

  /** Statements and transactions started and not yet settled (PGlite runs one at a time). */
  private inFlight = 0;

  private constructor(
    private readonly db: PGlite,
    private readonly lock: HeldLock,
  ) {}

  /** Set when the directory's lock was left by a process that is gone (a crash): whose it was. */
  get lockTakenOverFrom(): LockOwner | undefined {
    return this.lock.tookOverFrom;
  }

  /**
   * Opens (creating on first use) the database in `dataDir`, after taking the directory's lock
   * (`<dataDir>.lock`, data-dir-lock.ts): throws DataDirLocked while another process has it open.
   */
  static async open(dataDir: string): Promise<PgliteClient> {
    const lock = acquireDataDirLock(`${dataDir}.lock`, dirname(dataDir));
    try {
      mkdirSync(dataDir, { recursive: true });
      // The extensions the search indexes use (migration 3 creates them in the database).
      const db = new PGlite(dataDir, { extensions: { pg_trgm, unaccent } });
      await db.waitReady;
      return new PgliteClient(db, lock);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /**
   * The one backend as a pool of one, for the metrics endpoint: busy while anything runs on it,
   * and whatever else was started meanwhile is waiting for it.
   */
  poolStats(): PoolStats[] {
    const busy = this.inFlight > 0 ? 1 : 0;
    return [
      {
        engine: 'pglite',
        pool: 'work',
        size: 1,
        idle: 1 - busy,
        waiting: Math.max(0, this.inFlight - 1),
        max: 1,
      },
    ];
  }

  async query<T extends object>(sql: string, params: readonly unknown[] = []): Promise<SqlResult<T>> {
    this.inFlight += 1;
    try {
      const result = await this.db.query<T>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: rowCountOf(result) };
    } finally {
      this.inFlight -= 1;
    }
  }

  async transaction<R>(fn: (tx: SqlQueryable) => Promise<R>): Promise<R> {
    this.inFlight += 1;
    try {
      return await this.runTransaction(fn);
    } finally {
      this.inFlight -= 1;
    }
  }

  private runTransaction<R>(fn: (tx: SqlQueryable) => Promise<R>): Promise<R> {
    return this.db.transaction(async (t) =>
      fn({
        query: async <T extends object>(sql: string, params: readonly unknown[] = []) => {
          const result = await t.query<T>(sql, params as unknown[]);
          return { rows: result.rows, rowCount: rowCountOf(result) };
        },
      }),
    );
  }

  async close(): Promise<void> {
    try {
      await this.db.close();
    } finally {
      this.lock.release();
    }
  }
}
