/**
 * SQLite engine: each allowed database is a read-only file `<dir>/<db>.sqlite`, queried through
 * the worker pool so the event loop never waits on the synchronous better-sqlite3 calls.
 */
import { buildSchema, type RawColumn } from './schema-builder.js';
import { buildCount, buildSelect, doubleQuoteDialect } from './sql-builder.js';
import { SqliteWorkerError, SqliteWorkerPool } from './sqlite-worker-pool.js';
import {
  type DatabaseSchema,
  DatabaseUnavailable,
  type Driver,
  type Row,
  type SelectQuery,
} from './types.js';

interface RawIntrospection {
  columns: RawColumn[];
  estimates: Record<string, number>;
  fulltext: Record<string, string[]>;
}

export class SqliteDriver implements Driver {
  readonly engine = 'sqlite' as const;
  private readonly pool: SqliteWorkerPool;

  constructor(dir: string, workers: number) {
    this.pool = new SqliteWorkerPool(dir, workers);
  }

  private async run<T>(db: string, message: Record<string, unknown>): Promise<T> {
    try {
      return await this.pool.run<T>({ ...message, db });
    } catch (err) {
      // A missing or unreadable file means the database is unavailable, not that SQL was wrong.
      if (err instanceof SqliteWorkerError && /CANTOPEN|NOTADB|CORRUPT|IOERR/.test(err.code ?? '')) {
        throw new DatabaseUnavailable(db, err);
      }
      if (err instanceof SqliteWorkerError && /does not exist|unable to open/i.test(err.message)) {
        throw new DatabaseUnavailable(db, err);
      }
      throw err;
    }
  }

  async introspect(db: string): Promise<DatabaseSchema> {
    const raw = await this.run<RawIntrospection>(db, { op: 'introspect' });
    const fulltext = new Map(Object.entries(raw.fulltext).map(([t, cols]) => [t, new Set(cols)]));
    return buildSchema(raw.columns, new Map(Object.entries(raw.estimates)), fulltext);
  }

  select(db: string, query: SelectQuery): Promise<Row[]> {
    const { sql, params } = buildSelect(doubleQuoteDialect, query);
    return this.run<Row[]>(db, { op: 'all', sql, params });
  }

  async count(db: string, query: Pick<SelectQuery, 'table' | 'where'>): Promise<number> {
    const { sql, params } = buildCount(doubleQuoteDialect, query);
    const rows = await this.run<{ n: number }[]>(db, { op: 'all', sql, params });
    return Number(rows[0]?.n ?? 0);
  }

  async ping(db: string): Promise<void> {
    await this.run(db, { op: 'ping' });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
