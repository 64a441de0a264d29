/**
 * The one interface the work API's store speaks to a database through. Two implementations run
 * the same SQL: a PostgreSQL pool (pg) and an embedded PGlite. Values are always bound as $1, $2
 * ...; the interface has no way to splice them into SQL text.
 */

import type { PoolStats } from '../../common/metrics.js';

export type SqlEngine = 'postgres' | 'pglite';

export interface SqlResult<T> {
  rows: T[];
  /** Rows the statement touched (INSERT/UPDATE/DELETE) or returned (SELECT). */
  rowCount: number;
}

/** Something statements can run on: the client itself, or a transaction in progress. */
export interface SqlQueryable {
  query<T extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<SqlResult<T>>;
}

export interface TransactionOptions {
  /**
   * No time limits (statement, lock, idle in transaction, client-side): schema migrations at
   * start, and the publish lock held through a publish run (publish/target-lock.ts), which may
   * legitimately last longer than any request is allowed to.
   */
  unlimited?: boolean;
}

export interface SqlClient extends SqlQueryable {
  readonly engine: SqlEngine;
  /**
   * Runs `fn` inside BEGIN ... COMMIT on one connection; a throw rolls back and rethrows. Every
   * multi-statement write goes through here (counter + insert is one transaction).
   */
  transaction<R>(fn: (tx: SqlQueryable) => Promise<R>, options?: TransactionOptions): Promise<R>;
  /** The pool right now, for the metrics endpoint (common/metrics.ts); absent: none reported. */
  poolStats?(): PoolStats[];
  close(): Promise<void>;
}
