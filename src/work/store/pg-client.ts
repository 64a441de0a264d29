/**
 * SqlClient over a node-postgres Pool. BIGINT (count(*), identity ids) is parsed to a JS number,
 * as PGlite does, so callers see the same types on both engines; every id we store stays far
 * below 2^53.
 *
 * Every session has time limits (docs/timeouts-and-faults.md), so no request can wait forever
 * on the database: statement_timeout (WORK_REQUEST_TIMEOUT_MS: the server cancels a statement,
 * 57014), lock_timeout (WORK_DB_LOCK_TIMEOUT_MS: a row or table lock not granted in time, 55P03),
 * idle_in_transaction_session_timeout (a transaction left open by a client that went away), and
 * on this side query_timeout (a server that stopped answering at all: the statement's limit plus
 * a grace, after which the connection is thrown away) and connectionTimeoutMillis
 * (WORK_DB_ACQUIRE_TIMEOUT_MS: waiting for a pool connection, or for a new one to connect).
 * Sessions run without JIT compilation (see the pool's options).
 *
 * Statements outside transactions are prepared on the connection and reused by name (the text's
 * hash): the session lookup, the searches and page reads every list request runs are parsed and
 * analysed once per connection instead of on every request (PostgreSQL's CPU per list page
 * 1.05-1.10 -> 0.86-0.90 ms, a one-record page 0.62-0.63 -> 0.52 ms, 16 connections on 2 cores).
 * Plans stay custom (`plan_cache_mode = force_custom_plan`: planned with the request's values, as
 * an unnamed statement is), so a LIKE prefix keeps its index range. At most
 * PREPARED_STATEMENTS_MAX texts are named per pool (each connection keeps its prepared
 * statements for its life); statements without parameters (BEGIN, migrations) are sent as they
 * are. WORK_DB_PREPARED_STATEMENTS=false turns this off (a pooler that cannot keep them).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { PoolStats } from '../../common/metrics.js';
import type { PgTimeouts } from '../config.js';
import type { SqlClient, SqlQueryable, SqlResult, TransactionOptions } from './sql-client.js';

const INT8_OID = 20;

const parseInt8 = (value: string) => Number(value);

/** Per-pool type parsers, so this choice never leaks into other pg users in the process. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export const DEFAULT_PG_TIMEOUTS: PgTimeouts = { statementMs: 15_000, lockMs: 5_000, acquireMs: 5_000 };

/**
 * How long past statement_timeout this side still waits for the server's own cancellation
 * before deciding the server is not answering.
 */
const CLIENT_GRACE_MS = 1_000;

/** Long enough for any migration; a timer cannot be longer than 2^31-1 ms. */
const UNLIMITED_MS = 2 ** 31 - 1;

export interface PgClientOptions {
  url: string;
  poolMax: number;
  timeouts?: PgTimeouts;
  /**
   * Prepare statements once per connection (default true). Off for a connection pooler in
   * transaction mode that cannot keep them (PgBouncer before 1.21, or without
   * max_prepared_statements): WORK_DB_PREPARED_STATEMENTS=false.
   */
  preparedStatements?: boolean;
}

/** The connection cannot be trusted any more (no answer in time, or it broke): do not reuse it. */
function connectionIsSuspect(err: unknown): boolean {
  const e = err as { message?: unknown; code?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : '';
  return (
    message === 'Query read timeout' ||
    message.startsWith('Connection terminated') ||
    (typeof e?.code === 'string' && /^(E[A-Z]+|08...|57P0[1-3])$/.test(e.code))
  );
}

type PoolClient = pg.PoolClient & { connection?: { stream?: { destroy(): void } } };

/** Drops a connection without a goodbye: a server that does not answer would never see one. */
function discard(conn: PoolClient, err: unknown): void {
  conn.connection?.stream?.destroy();
  conn.release(err instanceof Error ? err : new Error(String(err)));
}

/** Distinct statement texts prepared by name, per pool; later ones run unnamed. */
const PREPARED_STATEMENTS_MAX = 200;

/** The statement as pg sends it: named (prepared once per connection) when it may be. */
function statementOf(
  names: Map<string, string> | undefined,
  sql: string,
  params: readonly unknown[],
): pg.QueryConfig {
  // Without values pg sends the text as it is (the simple protocol: BEGIN, migrations).
  if (params.length === 0 || !names) return { text: sql, values: params as unknown[] };
  let name = names.get(sql);
  if (name === undefined) {
    if (names.size >= PREPARED_STATEMENTS_MAX) return { text: sql, values: params as unknown[] };
    name = `w_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
  }
  return { name, text: sql, values: params as unknown[] };
}

/**
 * A prepared statement whose tables changed shape since it was prepared on this connection
 * (a column added by a migration under a `SELECT *`): PostgreSQL refuses to run it once; the
 * same text unnamed runs.
 */
const planChangedShape = (err: unknown) =>
  (err as { code?: unknown } | null)?.code === '0A000' &&
  /cached plan must not change result type/.test(String((err as { message?: unknown }).message));

/** Clients that already carry the error listener of `connect`. */
const guarded = new WeakSet<PoolClient>();

export class PgClient implements SqlClient {
  readonly engine = 'postgres' as const;
  private readonly pool: pg.Pool;
  /** Statement text -> its prepared name (statementOf); undefined: nothing is prepared. */
  private readonly statementNames: Map<string, string> | undefined;
  readonly timeouts: PgTimeouts;

  constructor(options: PgClientOptions) {
    const t = { ...DEFAULT_PG_TIMEOUTS, ...options.timeouts };
    this.timeouts = t;
    this.statementNames = options.preparedStatements === false ? undefined : new Map();
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolMax,
      types,
      statement_timeout: t.statementMs,
      lock_timeout: Math.min(t.lockMs, t.statementMs),
      idle_in_transaction_session_timeout: t.statementMs + CLIENT_GRACE_MS,
      query_timeout: t.statementMs + CLIENT_GRACE_MS,
      connectionTimeoutMillis: t.acquireMs,
      // No JIT compilation: the work API's statements are short, and a plan whose estimated
      // cost crosses jit_above_cost (a side-table refill over a table without statistics, a
      // list ordered through a large section) spent 1-3 s compiling what then ran in
      // milliseconds (a migration's one-row copy: 2.2 s with JIT, 3 ms without).
      // No parallel workers either: a list page walked by a Gather Merge starts two worker
      // processes per request, which under many concurrent requests on a small machine only
      // compete for the same cores (the word + sort list page at 16 connections on 2 cores:
      // 83 -> 126 req/s, p99 368 -> 185 ms; the other list pages unchanged).
      // Prepared statements are planned with each request's values, as unnamed ones are.
      options: '-c jit=off -c max_parallel_workers_per_gather=0 -c plan_cache_mode=force_custom_plan',
    });
    // An idle connection dropped by the server must not crash the process; the pool replaces it.
    this.pool.on('error', () => {});
  }

  /** The pool right now (pg's own counters), for the metrics endpoint. */
  poolStats(): PoolStats[] {
    const p = this.pool;
    return [
      {
        engine: 'postgres',
        pool: 'work',
        size: p.totalCount,
        idle: p.idleCount,
        waiting: p.waitingCount,
        max: p.options.max ?? 10,
      },
    ];
  }

  /**
   * A connection from the pool. While a client is checked out the pool no longer listens for its
   * errors: a socket reset then (the database killed mid-query) would be emitted with nobody
   * listening and crash the process. The query's own promise already rejects, so the event is
   * only swallowed here, once per client.
   */
  private async connect(): Promise<PoolClient> {
    const conn = (await this.pool.connect()) as PoolClient;
    if (!guarded.has(conn)) {
      guarded.add(conn);
      conn.on('error', () => {});
    }
    return conn;
  }

  async query<T extends object>(sql: string, params: readonly unknown[] = []): Promise<SqlResult<T>> {
    const conn = await this.connect();
    let result: pg.QueryResult<T>;
    try {
      const statement = statementOf(this.statementNames, sql, params);
      result = await conn.query<T>(statement).catch((err: unknown) => {
        if (!statement.name || !planChangedShape(err)) throw err;
        return conn.query<T>(sql, params as unknown[]);
      });
    } catch (err) {
      if (connectionIsSuspect(err)) discard(conn, err);
      else conn.release();
      throw err;
    }
    conn.release();
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  }

  async transaction<R>(fn: (tx: SqlQueryable) => Promise<R>, options: TransactionOptions = {}): Promise<R> {
    const conn = await this.connect();
    const queryTimeout = options.unlimited ? UNLIMITED_MS : undefined;
    const run = <T extends object>(sql: string, params: readonly unknown[] = []) =>
      queryTimeout === undefined
        ? conn.query<T>(sql, params as unknown[])
        : conn.query<T>({
            text: sql,
            values: params as unknown[],
            query_timeout: queryTimeout,
          } as pg.QueryConfig);
    const tx: SqlQueryable = {
      query: async <T extends object>(sql: string, params: readonly unknown[] = []) => {
        const result = await run<T>(sql, params);
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      },
    };
    try {
      await conn.query('BEGIN');
      if (options.unlimited) {
        // Migrations at start may legitimately run longer than any request.
        await conn.query(
          'SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0; SET LOCAL idle_in_transaction_session_timeout = 0',
        );
      }
      const value = await fn(tx);
      await conn.query('COMMIT');
      conn.release();
      return value;
    } catch (err) {
      if (connectionIsSuspect(err)) {
        // Rolling back would wait on the same silent server; closing the connection makes
        // PostgreSQL roll the transaction back itself.
        discard(conn, err);
        throw err;
      }
      try {
        await conn.query('ROLLBACK');
        conn.release();
      } catch (rollbackErr) {
        discard(conn, rollbackErr); // the connection is unusable: destroy it instead of returning it
      }
      throw err;
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
