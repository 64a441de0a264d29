/**
 * Publishing benchmark (issue 11): records published per second by a full rebuild and by an
 * incremental run, into SQLite and MariaDB, beside baselines measured in the same run: the same
 * rows bulk-inserted with the bare driver (one prepared INSERT in one transaction for SQLite,
 * multi-row INSERTs of 500 rows committed every 10 000 for MariaDB) into empty tables of the
 * writer's DDL, then the same full-text indexes built as the writer builds them (the baseline of
 * the target: a rebuild at >= 50% of its rows/s); and, as before, the rows only.
 *
 *   npm run bench -- --api publish [--interviews 100000] [--targets sqlite,mariadb]
 *
 * The work database is PostgreSQL when WORK_DB_URL is set, else a PGlite in data/bench; it is
 * seeded with the demo archive by the store's bulk insert (multi-row batches; not counted).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import type { Row, TableDef } from '../src/demo/dataset.js';
import { mariadbCreateTable, mariadbIdent } from '../src/demo/mariadb-sink.js';
import { sqliteCreateTable, sqliteIdent } from '../src/demo/sqlite-sink.js';
import { seedWorkDemo } from '../src/demo/work-seed.js';
import { loadPublicationMap } from '../src/publish/load-publication-map.js';
import { addFullTextSql } from '../src/publish/mariadb-writer.js';
import type { PublishTarget } from '../src/publish/publish-targets.js';
import { writerFor } from '../src/publish/publish-targets.js';
import { runPublish } from '../src/publish/run-publish.js';
import { createFts } from '../src/publish/sqlite-writer.js';
import { loadOntology } from '../src/work/ontology/load-ontology.js';
import { migrateSchema } from '../src/work/store/migrate-schema.js';
import { openSqlClient } from '../src/work/store/open-sql-client.js';

export interface PublishBenchOptions {
  interviews: number;
  targets: string[];
}

const DIR = resolve('data/bench-publish');
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const DB = 'bench_publish';

async function readAllRows(target: PublishTarget, defs: readonly TableDef[]): Promise<Map<TableDef, Row[]>> {
  const out = new Map<TableDef, Row[]>();
  if (target.dialect === 'sqlite') {
    const db = new Database(target.file, { readonly: true });
    for (const def of defs) {
      const cols = def.columns.map((c) => sqliteIdent(c.name)).join(', ');
      out.set(
        def,
        db
          .prepare(`SELECT ${cols} FROM ${sqliteIdent(def.name)}`)
          .raw()
          .all() as Row[],
      );
    }
    db.close();
    return out;
  }
  const conn = await mysql.createConnection({ ...MARIADB, database: DB, dateStrings: true });
  for (const def of defs) {
    const cols = def.columns.map((c) => mariadbIdent(c.name)).join(', ');
    const [rows] = await conn.query({
      sql: `SELECT ${cols} FROM ${mariadbIdent(def.name)}`,
      rowsAsArray: true,
    });
    out.set(def, rows as Row[]);
  }
  await conn.end();
  return out;
}

/**
 * Seconds to bulk-insert `rows` with the bare driver into fresh tables of the writer's DDL
 * (sqliteCreateTable / mariadbCreateTable). `fullText`: then build the same full-text indexes the
 * writer's rebuild builds, the same way (SQLite: external-content FTS5 tables filled by
 * 'rebuild' after the load; MariaDB: ALTER TABLE ... ADD FULLTEXT INDEX per column once the
 * table is loaded). Without it, the rows only (the baseline of the runs before 2026-11-25 05:00).
 */
async function baseline(
  dialect: 'sqlite' | 'mariadb',
  rows: Map<TableDef, Row[]>,
  fullText: boolean,
): Promise<number> {
  const started = performance.now();
  if (dialect === 'sqlite') {
    const file = join(DIR, 'baseline.sqlite');
    rmSync(file, { force: true });
    const db = new Database(file);
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    // The writer's cache size; the rows-only baseline keeps the old default, to stay comparable.
    if (fullText) db.pragma('cache_size = -65536');
    db.transaction(() => {
      for (const [def, list] of rows) {
        db.exec(sqliteCreateTable(def));
        const insert = db.prepare(
          `INSERT INTO ${sqliteIdent(def.name)} VALUES (${def.columns.map(() => '?').join(', ')})`,
        );
        for (const row of list) insert.run(row);
      }
      if (fullText)
        for (const def of rows.keys()) for (const column of def.fullText) createFts(db, def, column);
    })();
    db.close();
  } else {
    const conn = await mysql.createConnection(MARIADB);
    const base = `${DB}_baseline`;
    await conn.query(`DROP DATABASE IF EXISTS ${base}`);
    await conn.query(`CREATE DATABASE ${base} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await conn.query(`USE ${base}`);
    for (const [def, list] of rows) {
      await conn.query(mariadbCreateTable(def));
      await conn.query('START TRANSACTION');
      for (let i = 0; i < list.length; i += 500) {
        await conn.query(`INSERT INTO ${mariadbIdent(def.name)} VALUES ?`, [list.slice(i, i + 500)]);
        if (i % 10_000 === 0 && i > 0) {
          await conn.query('COMMIT');
          await conn.query('START TRANSACTION');
        }
      }
      await conn.query('COMMIT');
      if (fullText) for (const column of def.fullText) await conn.query(addFullTextSql(base, def, column));
    }
    await conn.query(`DROP DATABASE ${base}`);
    await conn.end();
  }
  return (performance.now() - started) / 1000;
}

export async function runPublishBench(opts: PublishBenchOptions): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  const ontology = loadOntology();
  const map = loadPublicationMap(ontology);
  const url = process.env.WORK_DB_URL;
  const pgliteDir = join(DIR, 'work');
  if (!url) rmSync(pgliteDir, { recursive: true, force: true });
  const db = await openSqlClient(
    url ? { engine: 'postgres', url, poolMax: 4 } : { engine: 'pglite', dataDir: pgliteDir },
  );
  const lines: string[] = [];
  try {
    await migrateSchema(db);
    await db.query('DELETE FROM publish_watermarks');
    let t = performance.now();
    // BENCH_PUBLISH_REUSE=1 keeps an archive seeded by an earlier run of the same size.
    const { rows: existing } = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM matrix WHERE section_tipo = 'oh1'",
    );
    let records: number;
    if (process.env.BENCH_PUBLISH_REUSE === '1' && Number(existing[0]?.n) === opts.interviews) {
      const { rows } = await db.query<{ n: string }>(
        "SELECT (SELECT count(*) FROM matrix WHERE section_tipo IN ('oh1','rsc197','rsc167','rsc170')) + (SELECT count(*) FROM matrix_hierarchy WHERE section_tipo = 'ts1') AS n",
      );
      records = Number(rows[0]?.n);
    } else {
      await db.query("DELETE FROM matrix WHERE section_tipo IN ('oh1','rsc197','rsc167','rsc170')");
      await db.query("DELETE FROM matrix_hierarchy WHERE section_tipo = 'ts1'");
      records = await seedWorkDemo(db, ontology, { interviews: opts.interviews, seed: 1 });
      // Fresh statistics for the planner (the incremental scans and the relation lookups).
      for (const table of ['matrix', 'matrix_hierarchy', 'matrix_time_machine'])
        await db.query(`ANALYZE ${table}`);
      // A run's watermark is its start minus a slack (run-publish.ts): wait it out, so that the
      // incremental run below does not count the last seeded records as changed.
      await new Promise((r) => setTimeout(r, 6_000));
    }
    console.log(
      `seeded ${records} work records (${opts.interviews} interviews) in ${((performance.now() - t) / 1000).toFixed(1)} s on ${db.engine}`,
    );
    lines.push(
      `Publishing, ${opts.interviews} interviews (${records} work records) from ${db.engine}; ${new Date().toISOString()}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
      '',
      '| target | run | records | rows | seconds | records/s | rows/s | baseline rows/s (bare driver, same DDL + full-text) | ratio | rows-only baseline rows/s | ratio to rows-only |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const name of opts.targets) {
      const target: PublishTarget =
        name === 'sqlite'
          ? { name: 'bench-sqlite', dialect: 'sqlite', file: join(DIR, `${DB}.sqlite`) }
          : { name: 'bench-mariadb', dialect: 'mariadb', url: `mysql://root@127.0.0.1:3306/${DB}` };
      t = performance.now();
      const rebuild = await runPublish(
        { db, ontology, map, targetName: target.name, writer: writerFor(target) },
        { rebuild: true },
      );
      const rebuildSeconds = (performance.now() - t) / 1000;
      const rows = await readAllRows(target, map.tableDefs);
      const total = [...rows.values()].reduce((n, r) => n + r.length, 0);
      const baseRate = total / (await baseline(target.dialect, rows, true));
      const rowsOnlyRate = total / (await baseline(target.dialect, rows, false));
      const rebuildRate = rebuild.rows / rebuildSeconds;
      lines.push(
        `| ${name} | rebuild | ${rebuild.records} | ${rebuild.rows} | ${rebuildSeconds.toFixed(1)} | ${(rebuild.records / rebuildSeconds).toFixed(0)} | ${rebuildRate.toFixed(0)} | ${baseRate.toFixed(0)} | ${(rebuildRate / baseRate).toFixed(2)} | ${rowsOnlyRate.toFixed(0)} | ${(rebuildRate / rowsOnlyRate).toFixed(2)} |`,
      );
      // Incremental: 1% of the interviews saved since the rebuild.
      const touched = Math.max(1, Math.floor(opts.interviews / 100));
      await db.query(
        "UPDATE matrix SET modified_at = now() + interval '1 minute' WHERE section_tipo = 'oh1' AND section_id <= $1",
        [touched],
      );
      t = performance.now();
      const inc = await runPublish(
        { db, ontology, map, targetName: target.name, writer: writerFor(target) },
        { since: 'last' },
      );
      const incSeconds = (performance.now() - t) / 1000;
      lines.push(
        `| ${name} | incremental (${touched} interviews saved) | ${inc.records} | ${inc.rows} | ${incSeconds.toFixed(1)} | ${(inc.records / incSeconds).toFixed(0)} | ${(inc.rows / incSeconds).toFixed(0)} | | | | |`,
      );
      // One record, as `diffuse` publishes it from the web client (its links' dd_relations too).
      t = performance.now();
      const one = await runPublish(
        { db, ontology, map, targetName: target.name, writer: writerFor(target) },
        { sectionTipo: 'oh1', sectionId: 1 },
      );
      const oneSeconds = (performance.now() - t) / 1000;
      lines.push(
        `| ${name} | one record (oh1 1, ${one.refreshed} linked records refreshed) | ${one.records + one.refreshed} | ${one.rows} | ${oneSeconds.toFixed(2)} | | | | | | |`,
      );
      console.log(lines.slice(-3).join('\n'));
    }
  } finally {
    await db.close();
  }
  console.log(`\n${lines.join('\n')}`);
}
