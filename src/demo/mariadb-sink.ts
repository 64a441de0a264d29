/**
 * Writes the demo archive into a fresh MariaDB/MySQL database (dropped first): utf8mb4 InnoDB
 * tables from the shared definitions, loaded with multi-row INSERTs of bound values. Speed comes
 * from committing every few thousand rows instead of per statement, from generating the next
 * batch while the server stores the previous one, and from adding the FULLTEXT indexes only after
 * the load (building them once is much cheaper than maintaining them row by row). ANALYZE TABLE
 * at the end gives the server's planner and row estimates fresh statistics.
 */
import mysql from 'mysql2/promise';
import { type DemoOptions, type DemoSummary, demoDataset, type Row, type TableDef } from './dataset.js';
import { type ColumnType, indexColumns } from './schema.js';

export interface MariadbConnectionOptions {
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  socketPath?: string;
}

const MARIADB_TYPES: Record<ColumnType, string> = {
  int: 'INT',
  real: 'DOUBLE',
  varchar: 'VARCHAR(255)',
  text: 'MEDIUMTEXT',
  date: 'DATE',
};

const BATCH_ROWS = 500;
/** Keeps one statement far below the default max_allowed_packet (16 MiB). */
const BATCH_CHARS = 4_000_000;
const BATCHES_PER_COMMIT = 20;

export function mariadbIdent(name: string): string {
  if (!/^[A-Za-z0-9_$-]{1,64}$/.test(name)) throw new Error(`bad identifier ${name}`);
  return `\`${name}\``;
}

export function mariadbCreateTable(def: TableDef): string {
  const columns = def.columns.map((c) => {
    const nullability = def.primaryKey.includes(c.name) ? ' NOT NULL' : ' NULL';
    return `${mariadbIdent(c.name)} ${MARIADB_TYPES[c.type]}${nullability}`;
  });
  columns.push(`PRIMARY KEY (${def.primaryKey.map(mariadbIdent).join(', ')})`);
  return (
    `CREATE TABLE ${mariadbIdent(def.name)} (${columns.join(', ')}) ` +
    'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci'
  );
}

function rowChars(row: Row): number {
  let n = 0;
  for (const cell of row) n += typeof cell === 'string' ? cell.length : 8;
  return n;
}

export async function writeMariadbDemo(
  conn: MariadbConnectionOptions,
  dbName: string,
  opts: DemoOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<DemoSummary> {
  const tables = demoDataset(opts);
  const db = mariadbIdent(dbName);
  const connection = await mysql.createConnection({
    ...conn,
    charset: 'UTF8MB4_UNICODE_CI',
    multipleStatements: false,
  });
  try {
    await connection.query(`DROP DATABASE IF EXISTS ${db}`);
    await connection.query(`CREATE DATABASE ${db} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await connection.query(`USE ${db}`);
    await connection.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');

    const total = tables.reduce((n, t) => n + t.rowCount, 0);
    const summary: DemoSummary = { tables: {} };
    let done = 0;

    for (const { def, rows } of tables) {
      await connection.query(mariadbCreateTable(def));
      const sql =
        `INSERT INTO ${mariadbIdent(def.name)} (${def.columns.map((c) => mariadbIdent(c.name)).join(', ')}) ` +
        'VALUES ?';
      // At most one INSERT in flight: the next batch is generated while the server works.
      let inFlight: Promise<unknown> | null = null;
      let batches = 0;
      const send = async (batch: Row[]) => {
        if (inFlight) await inFlight;
        if (batches % BATCHES_PER_COMMIT === 0) {
          if (batches > 0) await connection.query('COMMIT');
          await connection.query('START TRANSACTION');
        }
        batches++;
        const pending = connection.query(sql, [batch]);
        pending.catch(() => {}); // awaited (and rethrown) by the next send or the final flush
        inFlight = pending;
        done += batch.length;
        onProgress?.(done, total);
      };

      let batch: Row[] = [];
      let chars = 0;
      let count = 0;
      for (const row of rows()) {
        batch.push(row);
        chars += rowChars(row);
        count++;
        if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) {
          await send(batch);
          batch = [];
          chars = 0;
        }
      }
      if (batch.length > 0) await send(batch);
      if (inFlight) await inFlight;
      if (batches > 0) await connection.query('COMMIT');
      summary.tables[def.name] = count;
    }

    for (const { def } of tables) {
      for (const column of def.indexes ?? []) {
        await connection.query(
          `ALTER TABLE ${mariadbIdent(def.name)} ADD INDEX ${mariadbIdent(`ix_${column}`)} (${indexColumns(def, column).map(mariadbIdent).join(', ')})`,
        );
      }
      for (const column of def.fullText) {
        await connection.query(
          `ALTER TABLE ${mariadbIdent(def.name)} ADD FULLTEXT INDEX ${mariadbIdent(`ft_${column}`)} (${mariadbIdent(column)})`,
        );
      }
    }
    for (const { def } of tables) await connection.query(`ANALYZE TABLE ${mariadbIdent(def.name)}`);
    return summary;
  } finally {
    await connection.end();
  }
}
