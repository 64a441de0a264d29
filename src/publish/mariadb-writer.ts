/**
 * The MariaDB/MySQL dialect of the publish writer.
 *
 * - Incremental: each batch is one InnoDB transaction (DELETE the records' rows, one multi-row
 *   INSERT per table); FULLTEXT indexes follow by themselves. Missing tables, columns and
 *   FULLTEXT indexes are added at open; nothing is dropped.
 * - Rebuild: everything is loaded into a second database (`<db>__pubnew`) without FULLTEXT
 *   indexes (built once per table, much cheaper than row by row: on a second connection as soon as
 *   the table is loaded, while the next tables load), then one `RENAME TABLE`
 *   statement moves every live table out to `<db>__pubold` and every new table in: MariaDB runs
 *   the whole rename atomically, so readers see either the old tables or the new ones.
 */
import mysql from 'mysql2/promise';
import type { Row, TableDef } from '../demo/dataset.js';
import { mariadbCreateTable, mariadbIdent } from '../demo/mariadb-sink.js';
import type { MappedRecord, PublishLocator } from './map-record.js';
import {
  listedInQuery,
  type PublishWriter,
  type RecordRemoval,
  TargetUnavailable,
  type WriteMode,
} from './publish-writer.js';

const MARIADB_TYPES: Record<string, string> = {
  int: 'INT',
  real: 'DOUBLE',
  varchar: 'VARCHAR(255)',
  text: 'MEDIUMTEXT',
  date: 'DATE',
};

/** Keeps one INSERT far below the default max_allowed_packet (16 MiB). */
const BATCH_CHARS = 4_000_000;

export interface MariadbTarget {
  /** mysql://user:password@host:port/database */
  url: string;
}

/** The statement that builds a FULLTEXT index over a loaded table (`ft_<column>`). */
export function addFullTextSql(db: string, def: TableDef, column: string): string {
  return `ALTER TABLE ${mariadbIdent(db)}.${mariadbIdent(def.name)} ADD FULLTEXT INDEX ${mariadbIdent(`ft_${column}`)} (${mariadbIdent(column)})`;
}

function rowChars(row: Row): number {
  let n = 0;
  for (const cell of row) n += typeof cell === 'string' ? cell.length : 8;
  return n;
}

export class MariadbWriter implements PublishWriter {
  readonly dialect = 'mariadb' as const;
  private conn?: mysql.Connection;
  /** Rebuild: a second connection building the FULLTEXT indexes of finished tables. */
  private indexer?: Promise<mysql.Connection>;
  /** The FULLTEXT builds started so far, one after the other. */
  private indexing: Promise<void> = Promise.resolve();
  private mode: WriteMode = 'incremental';
  private defs: readonly TableDef[] = [];
  readonly database: string;
  private readonly connection: mysql.ConnectionOptions;

  constructor(
    private readonly targetName: string,
    url: string,
  ) {
    const parsed = new URL(url);
    this.database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    mariadbIdent(`${this.database}__pubnew`); // a bad name fails here, before any connection
    this.connection = {
      host: parsed.hostname || '127.0.0.1',
      port: parsed.port ? Number(parsed.port) : 3306,
      user: decodeURIComponent(parsed.username || 'root'),
      password: decodeURIComponent(parsed.password),
      charset: 'UTF8MB4_UNICODE_CI',
      multipleStatements: false,
      connectTimeout: 10_000,
    };
  }

  private get newDb(): string {
    return `${this.database}__pubnew`;
  }

  private get oldDb(): string {
    return `${this.database}__pubold`;
  }

  private unavailable(err: unknown): TargetUnavailable {
    return err instanceof TargetUnavailable ? err : new TargetUnavailable(this.targetName, err);
  }

  private get c(): mysql.Connection {
    if (!this.conn) throw new Error('writer is not open');
    return this.conn;
  }

  async open(defs: readonly TableDef[], mode: WriteMode): Promise<void> {
    this.mode = mode;
    this.defs = defs;
    try {
      this.conn = await mysql.createConnection(this.connection);
      const create = (db: string) =>
        this.c.query(
          `CREATE DATABASE IF NOT EXISTS ${mariadbIdent(db)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
        );
      if (mode === 'rebuild') {
        await this.c.query(`DROP DATABASE IF EXISTS ${mariadbIdent(this.newDb)}`);
        await create(this.newDb);
        await this.c.query(`USE ${mariadbIdent(this.newDb)}`);
        for (const def of defs) await this.c.query(mariadbCreateTable(def));
        return;
      }
      await create(this.database);
      await this.c.query(`USE ${mariadbIdent(this.database)}`);
      for (const def of defs) await this.migrateTable(def);
    } catch (err) {
      await this.close();
      throw this.unavailable(err);
    }
  }

  private async migrateTable(def: TableDef): Promise<void> {
    const [columns] = (await this.c.query(
      'SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
      [this.database, def.name],
    )) as unknown as [{ c: string }[]];
    if (columns.length === 0) {
      await this.c.query(mariadbCreateTable(def));
    } else {
      const have = new Set(columns.map((r) => r.c));
      for (const column of def.columns) {
        if (have.has(column.name)) continue;
        await this.c.query(
          `ALTER TABLE ${mariadbIdent(def.name)} ADD COLUMN ${mariadbIdent(column.name)} ${MARIADB_TYPES[column.type]} NULL`,
        );
      }
    }
    await this.addFullText(this.database, def);
  }

  private async addFullText(db: string, def: TableDef): Promise<void> {
    if (def.fullText.length === 0) return;
    const [indexed] = (await this.c.query(
      `SELECT COLUMN_NAME AS c FROM information_schema.STATISTICS
       WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_TYPE = 'FULLTEXT'`,
      [db, def.name],
    )) as unknown as [{ c: string }[]];
    const have = new Set(indexed.map((r) => r.c));
    for (const column of def.fullText) {
      if (have.has(column)) continue;
      await this.c.query(addFullTextSql(db, def, column));
    }
  }

  async writeBatch(
    records: readonly MappedRecord[],
    removals: readonly RecordRemoval[] = [],
  ): Promise<number> {
    const c = this.c;
    let rows = 0;
    // Rows grouped by table, so each table gets one DELETE and as few INSERTs as the size allows.
    const byTable = new Map<TableDef, { ids: number[]; rows: Row[] }>();
    const group = (def: TableDef) => {
      let g = byTable.get(def);
      if (!g) {
        g = { ids: [], rows: [] };
        byTable.set(def, g);
      }
      return g;
    };
    for (const removal of removals) group(removal.table).ids.push(...removal.sectionIds);
    for (const record of records) {
      const g = group(record.table);
      g.ids.push(record.sectionId);
      g.rows.push(...record.rows);
    }
    try {
      await c.query('START TRANSACTION');
      for (const [def, g] of byTable) {
        const table = mariadbIdent(def.name);
        if (this.mode === 'incremental' && g.ids.length > 0) {
          await c.query(`DELETE FROM ${table} WHERE ${mariadbIdent(def.primaryKey[0]!)} IN (?)`, [g.ids]);
        }
        const sql = `INSERT INTO ${table} (${def.columns.map((col) => mariadbIdent(col.name)).join(', ')}) VALUES ?`;
        let chunk: Row[] = [];
        let chars = 0;
        for (const row of g.rows) {
          chunk.push(row);
          chars += rowChars(row);
          if (chars >= BATCH_CHARS) {
            await c.query(sql, [chunk]);
            chunk = [];
            chars = 0;
          }
        }
        if (chunk.length > 0) await c.query(sql, [chunk]);
        rows += g.rows.length;
      }
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw this.unavailable(err);
    }
    return rows;
  }

  async listedIn(def: TableDef, sources: readonly PublishLocator[]): Promise<number[]> {
    const query = listedInQuery(def, sources, mariadbIdent);
    if (!query) return [];
    try {
      const [rows] = (await this.c.query(query.sql, query.params)) as unknown as [
        { id: number; d?: unknown }[],
      ];
      return query.ids(rows);
    } catch (err) {
      throw this.unavailable(err);
    }
  }

  /**
   * Builds a finished table's FULLTEXT indexes on a second connection while the next tables load
   * (InnoDB builds them by sorting the rows already there, far cheaper than row by row; measured
   * overlap: see docs/benchmarks.md). A failure surfaces in finish().
   */
  tableDone(def: TableDef): void {
    if (this.mode !== 'rebuild' || def.fullText.length === 0) return;
    this.indexer ??= mysql.createConnection({ ...this.connection, database: this.newDb });
    this.indexing = this.indexing.then(async () => {
      const conn = await this.indexer!;
      for (const column of def.fullText) {
        await conn.query(addFullTextSql(this.newDb, def, column));
      }
    });
    this.indexing.catch(() => {}); // awaited in finish(); abort() drops the database anyway
  }

  private async stopIndexer(): Promise<void> {
    await this.indexing.catch(() => {});
    const indexer = this.indexer;
    this.indexer = undefined;
    const conn = await indexer?.catch(() => undefined);
    if (conn) await conn.end().catch(() => conn.destroy());
  }

  async finish(): Promise<void> {
    if (this.mode !== 'rebuild') return;
    const c = this.c;
    try {
      await this.indexing;
      await this.stopIndexer();
      for (const def of this.defs) await this.addFullText(this.newDb, def);
      for (const def of this.defs)
        await c.query(`ANALYZE TABLE ${mariadbIdent(this.newDb)}.${mariadbIdent(def.name)}`);
      await c.query(
        `CREATE DATABASE IF NOT EXISTS ${mariadbIdent(this.database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
      );
      await c.query(`DROP DATABASE IF EXISTS ${mariadbIdent(this.oldDb)}`);
      await c.query(`CREATE DATABASE ${mariadbIdent(this.oldDb)}`);
      const [live] = (await c.query(
        'SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?',
        [this.database],
      )) as unknown as [{ t: string }[]];
      const liveNames = new Set(live.map((r) => r.t));
      const q = (db: string, t: string) => `${mariadbIdent(db)}.${mariadbIdent(t)}`;
      const moves: string[] = [];
      for (const def of this.defs) {
        if (liveNames.has(def.name))
          moves.push(`${q(this.database, def.name)} TO ${q(this.oldDb, def.name)}`);
        moves.push(`${q(this.newDb, def.name)} TO ${q(this.database, def.name)}`);
      }
      // One statement: atomic for readers.
      await c.query(`RENAME TABLE ${moves.join(', ')}`);
      await c.query(`DROP DATABASE IF EXISTS ${mariadbIdent(this.oldDb)}`);
      await c.query(`DROP DATABASE IF EXISTS ${mariadbIdent(this.newDb)}`);
    } catch (err) {
      await this.abort();
      throw this.unavailable(err);
    }
  }

  async abort(): Promise<void> {
    await this.stopIndexer();
    if (this.mode !== 'rebuild' || !this.conn) return;
    await this.conn.query(`DROP DATABASE IF EXISTS ${mariadbIdent(this.newDb)}`).catch(() => {});
  }

  async close(): Promise<void> {
    await this.stopIndexer();
    const conn = this.conn;
    this.conn = undefined;
    if (conn) await conn.end().catch(() => conn.destroy());
  }
}
