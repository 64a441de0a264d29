/**
 * SQLite engine: each allowed database is a read-only file `<dir>/<db>.sqlite`, queried through
 * the worker pool so the event loop never waits on the synchronous better-sqlite3 calls.
 */

import type { PoolStats } from '../../common/metrics.js';
import { RawJson } from './raw-json.js';
import type { RowsJsonWritten } from './row-json.cjs';
import { buildSchema, catalogDefault, type RawColumn } from './schema-builder.js';
import { sqliteSearch, sqliteSearchCount } from './search-sql.js';
import { buildCount, buildFacet, buildSelect, sqliteDialect } from './sql-builder.js';
import { SqliteWorkerError, SqliteWorkerPool } from './sqlite-worker-pool.js';
import {
  type CountQuery,
  type DatabaseSchema,
  DatabaseUnavailable,
  type Driver,
  type FacetCount,
  type FacetQuery,
  type FulltextQuery,
  type JsonRows,
  QueryTimeout,
  type Row,
  type RowsJsonShape,
  type SelectQuery,
  type StatementOptions,
} from './types.js';

interface RawIntrospection {
  columns: RawColumn[];
  estimates: Record<string, number>;
  fulltext: Record<string, string[]>;
  indexed?: Record<string, string[]>;
}

export class SqliteDriver implements Driver {
  readonly engine = 'sqlite' as const;
  private readonly pool: SqliteWorkerPool;

  constructor(dir: string, workers: number, cacheMb?: number) {
    this.pool = new SqliteWorkerPool(dir, workers, cacheMb);
  }

  /** The worker threads as one pool: busy workers, and statements queued behind them. */
  poolStats(): PoolStats[] {
    const { workers, busy, queued, max } = this.pool.stats();
    return [
      {
        engine: 'sqlite',
        pool: 'workers',
        size: workers,
        idle: workers - busy,
        waiting: queued,
        max,
      },
    ];
  }

  private async run<T>(
    db: string,
    message: Record<string, unknown>,
    options: StatementOptions = {},
  ): Promise<T> {
    try {
      return await this.pool.run<T>({ ...message, db }, options.timeoutMs);
    } catch (err) {
      if (err instanceof SqliteWorkerError && err.code === 'INTERRUPTED') throw new QueryTimeout(db);
      // A missing or unreadable file, or a pool closed by shutdown under a request still running,
      // means the database is unavailable, not that SQL was wrong.
      if (err instanceof SqliteWorkerError && /CANTOPEN|NOTADB|CORRUPT|IOERR|CLOSED/.test(err.code ?? '')) {
        throw new DatabaseUnavailable(db, err);
      }
      if (err instanceof SqliteWorkerError && /does not exist|unable to open/i.test(err.message)) {
        throw new DatabaseUnavailable(db, err);
      }
      throw err;
    }
  }

  async introspect(db: string, options?: StatementOptions): Promise<DatabaseSchema> {
    const raw = await this.run<RawIntrospection>(db, { op: 'introspect' }, options);
    const fulltext = new Map(Object.entries(raw.fulltext).map(([t, cols]) => [t, new Set(cols)]));
    const indexed = new Map(Object.entries(raw.indexed ?? {}).map(([t, cols]) => [t, new Set(cols)]));
    const columns = raw.columns.map((c) =>
      c.catalog ? { ...c, catalog: { ...c.catalog, default: catalogDefault(c.catalog.default) } } : c,
    );
    return buildSchema(columns, new Map(Object.entries(raw.estimates)), fulltext, indexed);
  }

  select(db: string, query: SelectQuery, options?: StatementOptions): Promise<Row[]> {
    const { sql, params } = buildSelect(sqliteDialect, query);
    return this.run<Row[]>(db, { op: 'all', sql, params }, options);
  }

  async selectJson(
    db: string,
    query: SelectQuery,
    shape: RowsJsonShape,
    options?: StatementOptions,
  ): Promise<JsonRows> {
    const { sql, params } = buildSelect(sqliteDialect, query);
    const written = await this.run<RowsJsonWritten>(db, { op: 'json', sql, params, shape }, options);
    return {
      json: new RawJson(written.bytes, written.written),
      count: written.count,
      collected: written.collected,
    };
  }

  async count(db: string, query: CountQuery, options?: StatementOptions): Promise<number> {
    const { sql, params } = buildCount(sqliteDialect, query);
    const rows = await this.run<{ n: number }[]>(db, { op: 'all', sql, params }, options);
    return Number(rows[0]?.n ?? 0);
  }

  search(db: string, query: FulltextQuery, options?: StatementOptions): Promise<Row[]> {
    const { sql, params } = sqliteSearch(sqliteDialect, query);
    return this.run<Row[]>(db, { op: 'all', sql, params }, options);
  }

  async searchCount(
    db: string,
    query: Omit<FulltextQuery, 'limit' | 'offset' | 'columns' | 'orderBy'>,
    options?: StatementOptions,
  ): Promise<number> {
    const { sql, params } = sqliteSearchCount(sqliteDialect, query);
    const rows = await this.run<{ n: number }[]>(db, { op: 'all', sql, params }, options);
    return Number(rows[0]?.n ?? 0);
  }

  async facet(db: string, query: FacetQuery, options?: StatementOptions): Promise<FacetCount[]> {
    const { sql, params } = buildFacet(sqliteDialect, query);
    const rows = await this.run<{ value: unknown; n: number }[]>(db, { op: 'all', sql, params }, options);
    return rows.map((r) => ({ value: r.value, count: Number(r.n) }));
  }

  async ping(db: string, options?: StatementOptions): Promise<void> {
    await this.run(db, { op: 'ping' }, options);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
