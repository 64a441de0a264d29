/**
 * MariaDB/MySQL engine over mysql2: one pool per allowed database, server-side prepared
 * statements (`execute`), every session read-only. Catalogue queries use information_schema.
 */
import mysql from 'mysql2/promise';
import { within } from '../../common/circuit-breaker.js';
import type { PoolStats } from '../../common/metrics.js';
import { buildSchema, catalogDefault, type RawColumn } from './schema-builder.js';
import { mariadbSearch, mariadbSearchCount } from './search-sql.js';
import { backtickDialect, buildCount, buildFacet, buildSelect } from './sql-builder.js';
import {
  type CountQuery,
  type DatabaseSchema,
  DatabaseUnavailable,
  type Driver,
  type FacetCount,
  type FacetQuery,
  type FulltextQuery,
  QueryTimeout,
  type Row,
  type SelectQuery,
  type SqlValue,
  type StatementOptions,
} from './types.js';

// MariaDB: ER_STATEMENT_TIMEOUT; MySQL: ER_QUERY_TIMEOUT.
const TIMEOUT_ERRNOS = new Set([1969, 3024]);

/**
 * Puts a server-side time limit on one statement, so a time-out really stops the work. The limit
 * is rounded up to half seconds to keep the number of distinct statement texts (and so of
 * prepared statements) small. MariaDB takes SET STATEMENT; MySQL an optimizer hint.
 */
function withTimeLimit(sql: string, timeoutMs: number | undefined, flavor: 'mariadb' | 'mysql'): string {
  if (timeoutMs === undefined) return sql;
  const halfSeconds = Math.max(1, Math.ceil(timeoutMs / 500));
  if (flavor === 'mysql')
    return sql.replace(/^SELECT /, `SELECT /*+ MAX_EXECUTION_TIME(${halfSeconds * 500}) */ `);
  return `SET STATEMENT max_statement_time=${halfSeconds / 2} FOR ${sql}`;
}

/**
 * How long past a statement's deadline we still wait for the server's own time-out answer
 * before deciding the server is not answering at all.
 */
const CLIENT_GRACE_MS = 500;

// Errors that mean "the database cannot serve now", as opposed to a fault in our SQL.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENOENT',
  'ER_BAD_DB_ERROR',
  'ER_ACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_CON_COUNT_ERROR',
  'PROTOCOL_CONNECTION_LOST',
]);

function isUnavailable(err: unknown): boolean {
  const e = err as { code?: string; fatal?: boolean };
  return e?.fatal === true || (typeof e?.code === 'string' && UNAVAILABLE_CODES.has(e.code));
}

export interface MariadbOptions {
  host?: string;
  port: number;
  user?: string;
  password?: string;
  socketPath?: string;
  poolMax: number;
}

/** The fields of mysql2's core Pool that poolStats reads (Denque queues). */
interface CorePoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

export class MariadbDriver implements Driver {
  readonly engine = 'mariadb' as const;
  private readonly pools = new Map<string, mysql.Pool>();
  private flavor?: 'mariadb' | 'mysql';
  private closed = false;

  constructor(
    private readonly options: MariadbOptions,
    dbNames: string[],
  ) {
    for (const db of dbNames) this.pools.set(db, this.createPool(db));
  }

  private createPool(db: string): mysql.Pool {
    const o = this.options;
    const pool = mysql.createPool({
      host: o.socketPath ? undefined : o.host,
      port: o.port,
      socketPath: o.socketPath,
      user: o.user ?? 'root',
      password: o.password ?? '',
      database: db,
      connectionLimit: o.poolMax,
      maxIdle: o.poolMax,
      charset: 'utf8mb4_unicode_ci',
      // Dates as stored text, like SQLite returns them: the same JSON on every engine.
      dateStrings: true,
      decimalNumbers: true,
      supportBigNumbers: true,
      connectTimeout: 5_000,
      // Each connection keeps its prepared statements in an LRU preallocated to this size
      // (mysql2's default 16,000 came to ~6 MB for a pool of 10 in a heap sample); a thousand
      // distinct statements per connection is far more than the API's requests make.
      maxPreparedStatements: 1000,
      // The promise API otherwise captures a stack trace for every statement, to graft onto a
      // failure; ours are mapped to problems by kind, and the capture cost showed in profiles.
      trace: false,
    });
    // Defence in depth beside the read-only database user docs/deployment.md asks for.
    pool.on('connection', (conn) => {
      conn.query('SET SESSION TRANSACTION READ ONLY');
    });
    return pool;
  }

  /**
   * Every database's pool, read from mysql2's pool internals (it has no public counters): the
   * connections open, the free ones and the callers queued for one.
   */
  poolStats(): PoolStats[] {
    return [...this.pools].map(([db, pool]) => {
      const core = (pool as unknown as { pool: CorePoolInternals }).pool;
      return {
        engine: 'mariadb',
        pool: db,
        size: core._allConnections?.length ?? 0,
        idle: core._freeConnections?.length ?? 0,
        waiting: core._connectionQueue?.length ?? 0,
        max: this.options.poolMax,
      };
    });
  }

  private pool(db: string): mysql.Pool {
    const pool = this.pools.get(db);
    if (!pool) throw new Error(`no pool for database "${db}"`);
    return pool;
  }

  private async run<T>(
    db: string,
    sql: string,
    params: SqlValue[],
    options: StatementOptions = {},
  ): Promise<T[]> {
    try {
      if (options.timeoutMs === undefined) {
        const [rows] = await this.pool(db).execute(sql, params);
        return rows as T[];
      }
      return await this.runWithin<T>(db, sql, params, options.timeoutMs);
    } catch (err) {
      // A request still running when shutdown closed the pools (its client went away, so the
      // server did not wait for it): the database is gone for it, not a fault to log as one.
      if (this.closed) throw new DatabaseUnavailable(db, err);
      if (err instanceof QueryTimeout || err instanceof DatabaseUnavailable) throw err;
      if (TIMEOUT_ERRNOS.has((err as { errno?: number }).errno ?? 0)) throw new QueryTimeout(db);
      throw isUnavailable(err) ? new DatabaseUnavailable(db, err) : err;
    }
  }

  /**
   * One statement with a deadline kept on both sides. The server stops the statement itself
   * (max_statement_time, withTimeLimit) and answers a time-out; that needs a server that
   * answers. A server that hangs (stopped, or its network stalled) answers nothing, so the
   * deadline is also kept here: waiting for a pool connection counts (a time-out), and past the deadline
   * plus a short grace the connection is destroyed (never returned to the pool, so the next
   * statement does not queue behind it) and the database counts as unavailable (the breaker
   * opens). Destroying the connection is also what ends the statement if the server is alive.
   */
  private async runWithin<T>(db: string, sql: string, params: SqlValue[], timeoutMs: number): Promise<T[]> {
    const deadline = Date.now() + timeoutMs + CLIENT_GRACE_MS;
    const stalled = () =>
      new DatabaseUnavailable(db, new Error(`no answer within ${timeoutMs + CLIENT_GRACE_MS} ms`));
    const acquiring = this.pool(db).getConnection();
    // Every connection busy past the deadline: the request ran out of time (504); the busy
    // statements themselves find out whether the server still answers.
    const conn = await within(acquiring, timeoutMs, () => new QueryTimeout(db)).catch((err: unknown) => {
      // A connection that arrives after we gave up goes back to the pool.
      acquiring.then(
        (late) => late.release(),
        () => {},
      );
      throw err;
    });
    try {
      const flavor =
        this.flavor ?? (await within(this.detectFlavorOn(conn), Math.max(1, deadline - Date.now()), stalled));
      const [rows] = await within(
        conn.execute(
          withTimeLimit(sql, Math.max(1, deadline - Date.now() - CLIENT_GRACE_MS), flavor),
          params,
        ),
        Math.max(1, deadline - Date.now()),
        stalled,
      );
      conn.release();
      return rows as T[];
    } catch (err) {
      if (err instanceof DatabaseUnavailable || isUnavailable(err)) conn.destroy();
      else conn.release();
      throw err;
    }
  }

  private async detectFlavorOn(conn: mysql.PoolConnection): Promise<'mariadb' | 'mysql'> {
    if (!this.flavor) {
      const [rows] = await conn.query('SELECT VERSION() AS v');
      this.flavor = /mariadb/i.test(String((rows as { v: string }[])[0]?.v)) ? 'mariadb' : 'mysql';
    }
    return this.flavor;
  }

  async introspect(db: string, options?: StatementOptions): Promise<DatabaseSchema> {
    const [columns, tables, fulltextRows, indexRows] = await Promise.all([
      this.run<{ t: string; c: string; ty: string; nu: string; k: string; d: string | null; x: string }>(
        db,
        `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, COLUMN_TYPE AS ty, IS_NULLABLE AS nu, COLUMN_KEY AS k,
           COLUMN_DEFAULT AS d, EXTRA AS x FROM information_schema.COLUMNS
         WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`,
        [db],
        options,
      ),
      this.run<{ t: string; n: number | null }>(
        db,
        'SELECT TABLE_NAME AS t, TABLE_ROWS AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?',
        [db],
        options,
      ),
      this.run<{ t: string; c: string }>(
        db,
        `SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.STATISTICS
         WHERE TABLE_SCHEMA = ? AND INDEX_TYPE = 'FULLTEXT'`,
        [db],
        options,
      ),
      this.run<{ t: string; c: string }>(
        db,
        `SELECT DISTINCT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.STATISTICS
         WHERE TABLE_SCHEMA = ? AND INDEX_TYPE <> 'FULLTEXT'`,
        [db],
        options,
      ),
    ]);
    const raw: RawColumn[] = columns.map((r) => ({
      table: r.t,
      name: r.c,
      type: r.ty,
      catalog: { nullable: r.nu === 'YES', key: r.k ?? '', default: catalogDefault(r.d), extra: r.x ?? '' },
    }));
    const estimates = new Map(tables.map((r) => [r.t, Number(r.n ?? 0)]));
    const byTable = (rows: { t: string; c: string }[]) => {
      const map = new Map<string, Set<string>>();
      for (const r of rows) {
        const set = map.get(r.t) ?? new Set<string>();
        set.add(r.c);
        map.set(r.t, set);
      }
      return map;
    };
    return buildSchema(raw, estimates, byTable(fulltextRows), byTable(indexRows));
  }

  select(db: string, query: SelectQuery, options?: StatementOptions): Promise<Row[]> {
    const { sql, params } = buildSelect(backtickDialect, query);
    return this.run<Row>(db, sql, params, options);
  }

  async facet(db: string, query: FacetQuery, options?: StatementOptions): Promise<FacetCount[]> {
    const { sql, params } = buildFacet(backtickDialect, query);
    const rows = await this.run<{ value: unknown; n: number }>(db, sql, params, options);
    return rows.map((r) => ({ value: r.value, count: Number(r.n) }));
  }

  async count(db: string, query: CountQuery, options?: StatementOptions): Promise<number> {
    const { sql, params } = buildCount(backtickDialect, query);
    const rows = await this.run<{ n: number }>(db, sql, params, options);
    return Number(rows[0]?.n ?? 0);
  }

  search(db: string, query: FulltextQuery, options?: StatementOptions): Promise<Row[]> {
    const { sql, params } = mariadbSearch(backtickDialect, query);
    return this.run<Row>(db, sql, params, options);
  }

  async searchCount(
    db: string,
    query: Omit<FulltextQuery, 'limit' | 'offset' | 'columns' | 'orderBy'>,
    options?: StatementOptions,
  ): Promise<number> {
    const { sql, params } = mariadbSearchCount(backtickDialect, query);
    const rows = await this.run<{ n: number }>(db, sql, params, options);
    return Number(rows[0]?.n ?? 0);
  }

  async ping(db: string, options?: StatementOptions): Promise<void> {
    await this.run(db, 'SELECT 1', [], options);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.pools.values()].map((p) => p.end()));
  }
}
