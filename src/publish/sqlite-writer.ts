/**
 * The SQLite dialect of the publish writer, for the embedded publication database (one file per
 * database, opened read-only by the publication API's workers).
 *
 * - Incremental: the live file is written in place, each batch in one `BEGIN IMMEDIATE`
 *   transaction; the journal mode stays DELETE so the readers need no -wal/-shm files. External
 *   content FTS5 tables (`fts_<table>_<column>`, as the demo and the API expect) are kept in step
 *   by triggers on the content table, created here when missing.
 * - Rebuild: a new file beside the live one is loaded without journal or fsync, gets its FTS5
 *   tables (built once), triggers and ANALYZE, is synced, then renamed over the live file: the
 *   rename is atomic, and the API's workers reopen a file whose inode changed.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Cell, TableDef } from '../demo/dataset.js';
import { ftsTableName, sqliteCreateTable, sqliteIdent } from '../demo/sqlite-sink.js';
import type { MappedRecord, PublishLocator } from './map-record.js';
import {
  listedInQuery,
  type PublishWriter,
  type RecordRemoval,
  TargetUnavailable,
  type WriteMode,
} from './publish-writer.js';

const SQLITE_TYPES: Record<string, string> = {
  int: 'INTEGER',
  real: 'REAL',
  varchar: 'TEXT',
  text: 'TEXT',
  date: 'TEXT',
};

function triggerSql(def: TableDef, column: string): string[] {
  const t = sqliteIdent(def.name);
  const fts = sqliteIdent(ftsTableName(def.name, column));
  const c = sqliteIdent(column);
  const name = (suffix: string) => sqliteIdent(`${ftsTableName(def.name, column)}_${suffix}`);
  return [
    `CREATE TRIGGER IF NOT EXISTS ${name('ai')} AFTER INSERT ON ${t} BEGIN
       INSERT INTO ${fts}(rowid, ${c}) VALUES (new.rowid, new.${c}); END`,
    `CREATE TRIGGER IF NOT EXISTS ${name('ad')} AFTER DELETE ON ${t} BEGIN
       INSERT INTO ${fts}(${fts}, rowid, ${c}) VALUES ('delete', old.rowid, old.${c}); END`,
    `CREATE TRIGGER IF NOT EXISTS ${name('au')} AFTER UPDATE ON ${t} BEGIN
       INSERT INTO ${fts}(${fts}, rowid, ${c}) VALUES ('delete', old.rowid, old.${c});
       INSERT INTO ${fts}(rowid, ${c}) VALUES (new.rowid, new.${c}); END`,
  ];
}

/** Creates an external-content FTS5 table over `column` and fills it from the loaded rows. */
export function createFts(db: Database.Database, def: TableDef, column: string): void {
  const fts = sqliteIdent(ftsTableName(def.name, column));
  db.exec(
    `CREATE VIRTUAL TABLE ${fts} USING fts5(${sqliteIdent(column)}, content='${def.name}', ` +
      `content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')`,
  );
  db.exec(`INSERT INTO ${fts}(${fts}) VALUES('rebuild')`);
}

export class SqliteWriter implements PublishWriter {
  readonly dialect = 'sqlite' as const;
  private db?: Database.Database;
  private mode: WriteMode = 'incremental';
  private defs: readonly TableDef[] = [];
  private readonly rebuildFile: string;
  private readonly inserts = new Map<string, Database.Statement>();
  private readonly deletes = new Map<string, Database.Statement>();

  constructor(
    private readonly targetName: string,
    private readonly file: string,
  ) {
    this.rebuildFile = `${file}.rebuild-${process.pid}`;
  }

  private unavailable(err: unknown): TargetUnavailable {
    return err instanceof TargetUnavailable ? err : new TargetUnavailable(this.targetName, err);
  }

  async open(defs: readonly TableDef[], mode: WriteMode): Promise<void> {
    this.mode = mode;
    this.defs = defs;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      if (mode === 'rebuild') {
        for (const suffix of ['', '-journal']) rmSync(this.rebuildFile + suffix, { force: true });
        const db = new Database(this.rebuildFile);
        this.db = db;
        db.pragma('journal_mode = OFF');
        db.pragma('synchronous = OFF');
        db.pragma('cache_size = -65536');
        for (const def of defs) db.exec(sqliteCreateTable(def));
        return;
      }
      const db = new Database(this.file);
      this.db = db;
      db.pragma('busy_timeout = 10000');
      db.pragma('journal_mode = DELETE');
      db.transaction(() => {
        for (const def of defs) this.migrateTable(db, def);
      }).immediate();
    } catch (err) {
      throw this.unavailable(err);
    }
  }

  /** Creates a missing table, adds missing columns and full-text indexes (never drops anything). */
  private migrateTable(db: Database.Database, def: TableDef): void {
    const existing = db.prepare('SELECT name FROM pragma_table_info(?)').all(def.name) as { name: string }[];
    if (existing.length === 0) {
      db.exec(sqliteCreateTable(def));
    } else {
      const have = new Set(existing.map((c) => c.name));
      for (const column of def.columns) {
        if (have.has(column.name)) continue;
        db.exec(
          `ALTER TABLE ${sqliteIdent(def.name)} ADD COLUMN ${sqliteIdent(column.name)} ${SQLITE_TYPES[column.type]}`,
        );
      }
    }
    for (const column of def.fullText) {
      const fts = ftsTableName(def.name, column);
      const found = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(fts);
      if (!found) createFts(db, def, column);
      for (const sql of triggerSql(def, column)) db.exec(sql);
    }
  }

  private statements(def: TableDef): { insert: Database.Statement; remove: Database.Statement } {
    let insert = this.inserts.get(def.name);
    let remove = this.deletes.get(def.name);
    if (!insert || !remove) {
      const db = this.db!;
      insert = db.prepare(
        `INSERT INTO ${sqliteIdent(def.name)} (${def.columns.map((c) => sqliteIdent(c.name)).join(', ')}) ` +
          `VALUES (${def.columns.map(() => '?').join(', ')})`,
      );
      remove = db.prepare(
        `DELETE FROM ${sqliteIdent(def.name)} WHERE ${sqliteIdent(def.primaryKey[0]!)} = ?`,
      );
      this.inserts.set(def.name, insert);
      this.deletes.set(def.name, remove);
    }
    return { insert, remove };
  }

  async writeBatch(
    records: readonly MappedRecord[],
    removals: readonly RecordRemoval[] = [],
  ): Promise<number> {
    const db = this.db;
    if (!db) throw new Error('writer is not open');
    let rows = 0;
    const write = db.transaction(() => {
      for (const removal of removals) {
        const { remove } = this.statements(removal.table);
        for (const id of removal.sectionIds) remove.run(id);
      }
      for (const record of records) {
        const { insert, remove } = this.statements(record.table);
        if (this.mode === 'incremental') remove.run(record.sectionId);
        for (const row of record.rows) {
          insert.run(row as Cell[]);
          rows++;
        }
      }
    });
    try {
      if (this.mode === 'rebuild') write();
      else write.immediate();
    } catch (err) {
      throw this.unavailable(err);
    }
    return rows;
  }

  async listedIn(def: TableDef, sources: readonly PublishLocator[]): Promise<number[]> {
    const db = this.db;
    if (!db) throw new Error('writer is not open');
    const query = listedInQuery(def, sources, sqliteIdent);
    if (!query) return [];
    try {
      // Iterated: the many-sources read goes through the whole column without holding it.
      return query.ids(
        db.prepare(query.sql).iterate(...query.params) as Iterable<{ id: number; d?: unknown }>,
      );
    } catch (err) {
      throw this.unavailable(err);
    }
  }

  async finish(): Promise<void> {
    const db = this.db;
    if (!db || this.mode !== 'rebuild') return;
    try {
      db.transaction(() => {
        for (const def of this.defs) {
          for (const column of def.fullText) {
            createFts(db, def, column);
            for (const sql of triggerSql(def, column)) db.exec(sql);
          }
        }
      })();
      db.exec('ANALYZE');
      db.pragma('journal_mode = DELETE');
      db.close();
      this.db = undefined;
      const fd = openSync(this.rebuildFile, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      rmSync(`${this.file}-journal`, { force: true });
      renameSync(this.rebuildFile, this.file);
    } catch (err) {
      await this.abort();
      throw this.unavailable(err);
    }
  }

  async abort(): Promise<void> {
    if (this.mode !== 'rebuild') return;
    try {
      this.db?.close();
    } catch {}
    this.db = undefined;
    for (const suffix of ['', '-journal']) {
      if (existsSync(this.rebuildFile + suffix)) rmSync(this.rebuildFile + suffix, { force: true });
    }
  }

  async close(): Promise<void> {
    if (this.mode === 'rebuild' && this.db) await this.abort();
    this.db?.close();
    this.db = undefined;
  }
}
