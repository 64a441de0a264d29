/**
 * Writes the demo archive into one SQLite file, in the shape the publication server reads:
 * ordinary rowid tables (FTS5 external content needs the rowid), one external-content FTS5
 * table `fts_<table>_<column>` per full-text column, `sqlite_stat1` filled by ANALYZE (the
 * server takes row-count estimates from it) and journal_mode DELETE at the end, so the file can
 * be opened read-only with no -wal/-shm companions. The load runs in one transaction with
 * prepared statements and durability switched off: a half-written file is deleted and redone.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type DemoOptions, type DemoSummary, demoDataset, type TableDef } from './dataset.js';
import { type ColumnType, indexColumns } from './schema.js';

const SQLITE_TYPES: Record<ColumnType, string> = {
  int: 'INTEGER',
  real: 'REAL',
  varchar: 'TEXT',
  text: 'TEXT',
  date: 'TEXT',
};

/** Double-quoted identifier (names are checked against the convention's pattern anyway). */
export function sqliteIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`bad identifier ${name}`);
  return `"${name}"`;
}

export function sqliteCreateTable(def: TableDef): string {
  const columns = def.columns.map((c) => {
    const notNull = def.primaryKey.includes(c.name) ? ' NOT NULL' : '';
    return `${sqliteIdent(c.name)} ${SQLITE_TYPES[c.type]}${notNull}`;
  });
  columns.push(`PRIMARY KEY (${def.primaryKey.map(sqliteIdent).join(', ')})`);
  return `CREATE TABLE ${sqliteIdent(def.name)} (${columns.join(', ')})`;
}

export function ftsTableName(table: string, column: string): string {
  return `fts_${table}_${column}`;
}

export async function writeSqliteDemo(
  file: string,
  opts: DemoOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<DemoSummary> {
  const tables = demoDataset(opts);
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  mkdirSync(dirname(file), { recursive: true });

  const db = new Database(file);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -65536');
    db.pragma('temp_store = MEMORY');

    const total = tables.reduce((n, t) => n + t.rowCount, 0);
    const summary: DemoSummary = { tables: {} };
    let done = 0;
    let reported = -1;
    const step = Math.max(1, Math.floor(total / 200));

    db.exec('BEGIN');
    for (const { def, rows } of tables) {
      db.exec(sqliteCreateTable(def));
      const insert = db.prepare(
        `INSERT INTO ${sqliteIdent(def.name)} (${def.columns.map((c) => sqliteIdent(c.name)).join(', ')}) ` +
          `VALUES (${def.columns.map(() => '?').join(', ')})`,
      );
      let count = 0;
      for (const row of rows()) {
        insert.run(row);
        count++;
        done++;
        if (onProgress && done - reported >= step) {
          reported = done;
          onProgress(done, total);
        }
      }
      summary.tables[def.name] = count;
      for (const column of def.indexes ?? []) {
        db.exec(
          `CREATE INDEX ${sqliteIdent(`ix_${def.name}_${column}`)} ON ${sqliteIdent(def.name)} (${indexColumns(def, column).map(sqliteIdent).join(', ')})`,
        );
      }
      for (const column of def.fullText) {
        const fts = sqliteIdent(ftsTableName(def.name, column));
        db.exec(
          `CREATE VIRTUAL TABLE ${fts} USING fts5(${sqliteIdent(column)}, content='${def.name}', ` +
            `content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')`,
        );
        db.exec(`INSERT INTO ${fts}(${fts}) VALUES('rebuild')`);
      }
    }
    db.exec('COMMIT');
    if (onProgress && reported !== done) onProgress(done, total);
    db.exec('ANALYZE');
    db.pragma('journal_mode = DELETE');
    return summary;
  } finally {
    db.close();
  }
}
