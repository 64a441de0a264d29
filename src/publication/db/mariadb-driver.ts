/**
 * MariaDB/MySQL engine over mysql2: one pool per allowed database, server-side prepared
 * statements (`execute`), every session read-only. Catalogue queries use information_schema.
 */
import mysql from 'mysql2/promise';
import { buildSchema, type RawColumn } from './schema-builder.js';
import { backtickDialect, buildCount, buildSelect } from './sql-builder.js';
import {
  type DatabaseSchema,
  DatabaseUnavailable,
  type Driver,
  type Row,
  type SelectQuery,
  type SqlValue,
} from './types.js';

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

export class MariadbDriver implements Driver {
  readonly engine = 'mariadb' as const;
  private readonly pools = new Map<string, mysql.Pool>();

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
    });
    // Defence in depth beside the read-only database user the README asks for.
    pool.on('connection', (conn) => {
      conn.query('SET SESSION TRANSACTION READ ONLY');
    });
    return pool;
  }

  private pool(db: string): mysql.Pool {
    const pool = this.pools.get(db);
    if (!pool) throw new Error(`no pool for database "${db}"`);
    return pool;
  }

  private async run<T>(db: string, sql: string, params: SqlValue[]): Promise<T[]> {
    try {
      const [rows] = await this.pool(db).execute(sql, params);
      return rows as T[];
    } catch (err) {
      throw isUnavailable(err) ? new DatabaseUnavailable(db, err) : err;
    }
  }

  async introspect(db: string): Promise<DatabaseSchema> {
    const [columns, tables, fulltextRows] = await Promise.all([
      this.run<{ t: string; c: string; ty: string }>(
        db,
        `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, COLUMN_TYPE AS ty FROM information_schema.COLUMNS
         WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`,
        [db],
      ),
      this.run<{ t: string; n: number | null }>(
        db,
        'SELECT TABLE_NAME AS t, TABLE_ROWS AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?',
        [db],
      ),
      this.run<{ t: string; c: string }>(
        db,
        `SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.STATISTICS
         WHERE TABLE_SCHEMA = ? AND INDEX_TYPE = 'FULLTEXT'`,
        [db],
      ),
    ]);
    const raw: RawColumn[] = columns.map((r) => ({ table: r.t, name: r.c, type: r.ty }));
    const estimates = new Map(tables.map((r) => [r.t, Number(r.n ?? 0)]));
    const fulltext = new Map<string, Set<string>>();
    for (const r of fulltextRows) {
      const set = fulltext.get(r.t) ?? new Set<string>();
      set.add(r.c);
      fulltext.set(r.t, set);
    }
    return buildSchema(raw, estimates, fulltext);
  }

  select(db: string, query: SelectQuery): Promise<Row[]> {
    const { sql, params } = buildSelect(backtickDialect, query);
    return this.run<Row>(db, sql, params);
  }

  async count(db: string, query: Pick<SelectQuery, 'table' | 'where'>): Promise<number> {
    const { sql, params } = buildCount(backtickDialect, query);
    const rows = await this.run<{ n: number }>(db, sql, params);
    return Number(rows[0]?.n ?? 0);
  }

  async ping(db: string): Promise<void> {
    await this.run(db, 'SELECT 1', []);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.end()));
  }
}
