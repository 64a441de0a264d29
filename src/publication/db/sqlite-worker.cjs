/**
 * Runs SQLite reads off the main thread: better-sqlite3 is synchronous, so a slow query on the
 * event loop would stall every other request. Each worker opens the database files read-only on
 * first use and keeps a small cache of prepared statements. Plain CommonJS so the same file runs
 * from src/ under the test runner and from dist/ in production.
 */
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const path = require('node:path');
const Database = require(workerData.modulePath);

const connections = new Map();
const MAX_STATEMENTS = 500;

function open(db) {
  let entry = connections.get(db);
  if (!entry) {
    const conn = new Database(path.join(workerData.dir, `${db}.sqlite`), {
      readonly: true,
      fileMustExist: true,
    });
    entry = { conn, statements: new Map() };
    connections.set(db, entry);
  }
  return entry;
}

function statement(entry, sql) {
  let stmt = entry.statements.get(sql);
  if (!stmt) {
    if (entry.statements.size >= MAX_STATEMENTS) entry.statements.clear();
    stmt = entry.conn.prepare(sql);
    entry.statements.set(sql, stmt);
  }
  return stmt;
}

function fts5Columns(sql) {
  const m = /USING\s+fts5\s*\(([\s\S]*)\)\s*;?\s*$/i.exec(sql);
  if (!m) return null;
  const args = m[1].split(',').map((a) => a.trim());
  const content = args.map((a) => /^content\s*=\s*['"]?([A-Za-z0-9_]+)['"]?$/i.exec(a)).find(Boolean);
  if (!content) return null;
  const columns = args
    .filter((a) => !a.includes('='))
    .map((a) => a.replace(/^["'`[]|["'`\]]$/g, '').split(/\s+/)[0]);
  return { table: content[1], columns };
}

function introspect(db) {
  const { conn } = open(db);
  const objects = conn
    .prepare(
      "SELECT name, type, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite!_%' ESCAPE '!'",
    )
    .all();
  const virtual = objects.filter((o) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(o.sql || ''));
  const shadowPrefixes = virtual.map((v) => `${v.name}_`);
  const tables = objects.filter(
    (o) => !virtual.includes(o) && !shadowPrefixes.some((p) => o.name.startsWith(p)),
  );
  const columns = [];
  for (const t of tables) {
    for (const c of conn.prepare('SELECT name, type FROM pragma_table_info(?) ORDER BY cid').all(t.name)) {
      columns.push({ table: t.name, name: c.name, type: c.type });
    }
  }
  const estimates = {};
  const hasStats = conn.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get();
  if (hasStats) {
    for (const r of conn.prepare('SELECT tbl, stat FROM sqlite_stat1').all()) {
      const n = Number.parseInt(String(r.stat), 10);
      if (Number.isFinite(n)) estimates[r.tbl] = Math.max(estimates[r.tbl] || 0, n);
    }
  }
  for (const t of tables) {
    if (t.type !== 'table' || t.name in estimates) continue;
    try {
      // max(rowid) is a b-tree lookup, not a scan: a fair estimate without ANALYZE.
      estimates[t.name] =
        conn.prepare(`SELECT max(rowid) AS n FROM "${t.name.replaceAll('"', '""')}"`).get().n || 0;
    } catch {
      estimates[t.name] = 0; // WITHOUT ROWID table
    }
  }
  const fulltext = {};
  for (const v of virtual) {
    const fts = fts5Columns(v.sql);
    if (fts) fulltext[fts.table] = [...(fulltext[fts.table] || []), ...fts.columns];
  }
  return { columns, estimates, fulltext };
}

parentPort.on('message', (msg) => {
  try {
    let result;
    if (msg.op === 'all') result = statement(open(msg.db), msg.sql).all(msg.params);
    else if (msg.op === 'introspect') result = introspect(msg.db);
    else if (msg.op === 'ping') result = open(msg.db).conn.prepare('SELECT 1 AS ok').get();
    else throw new Error(`unknown op ${msg.op}`);
    parentPort.postMessage({ id: msg.id, result });
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: { message: err.message, code: err.code } });
  }
});
