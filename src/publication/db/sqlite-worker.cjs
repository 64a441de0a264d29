/**
 * Runs SQLite reads off the main thread: better-sqlite3 is synchronous, so a slow query on the
 * event loop would stall every other request. Each worker opens the database files read-only on
 * first use and keeps a small cache of prepared statements. Plain CommonJS so the same file runs
 * from src/ under the test runner and from dist/ in production.
 */
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const Database = require(workerData.modulePath);
const { rowsJson } = require('./row-json.cjs');

const connections = new Map();
const MAX_STATEMENTS = 500;
// Shared with the main thread: [0] the id of a message to cancel, which pub_alive() (called for
// every scanned row by the SQL the driver writes) throws on while that message runs; [1] the id
// of the running message, so the main thread can tell a running statement from a queued one.
const shared = new Int32Array(workerData.sharedBuffer);
const CANCEL = 0;
const RUNNING = 1;
let running = 0;

function alive() {
  if (Atomics.load(shared, CANCEL) === running) {
    const err = new Error('statement interrupted: request time-out');
    err.code = 'INTERRUPTED';
    throw err;
  }
  return 1;
}

function fileOf(db) {
  return path.join(workerData.dir, `${db}.sqlite`);
}

function open(db) {
  let entry = connections.get(db);
  if (!entry) {
    const file = fileOf(db);
    const conn = new Database(file, { readonly: true, fileMustExist: true });
    conn.function('pub_alive', { deterministic: false }, alive);
    // The page cache is per connection, so per worker and database (config.ts DB_SQLITE_CACHE_MB).
    if (workerData.cacheMb) conn.pragma(`cache_size = -${workerData.cacheMb * 1024}`);
    entry = { conn, statements: new Map(), ino: fs.statSync(file).ino };
    connections.set(db, entry);
  }
  return entry;
}

/**
 * An open connection keeps reading a file that was deleted or replaced (a new publication is
 * usually renamed over the old file). Every message checks the path first (one stat, a couple
 * of microseconds): a missing file is reported, a replaced one is reopened.
 */
function reopenIfChanged(db) {
  const entry = connections.get(db);
  let stat;
  try {
    stat = fs.statSync(fileOf(db));
  } catch {
    stat = undefined;
  }
  if (entry && (!stat || stat.ino !== entry.ino)) {
    entry.conn.close();
    connections.delete(db);
  }
  if (!stat) {
    const err = new Error(`unable to open database file ${fileOf(db)}: it does not exist`);
    err.code = 'SQLITE_CANTOPEN';
    throw err;
  }
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

/**
 * SHOW COLUMNS' Key for the columns of ordinary indexes: UNI for the column of a one-column
 * unique index, MUL for the first column of any other index (MariaDB's rule).
 */
function columnKeys(conn, table) {
  const keys = new Map();
  for (const ix of conn.prepare('SELECT name, "unique" AS u, origin FROM pragma_index_list(?)').all(table)) {
    if (ix.origin === 'pk') continue;
    const cols = conn.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(ix.name);
    const first = cols[0]?.name;
    if (!first) continue;
    const key = ix.u && cols.length === 1 ? 'UNI' : 'MUL';
    if (keys.get(first) !== 'UNI') keys.set(first, key);
  }
  return keys;
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
    const keys = columnKeys(conn, t.name);
    const pkCount = conn.prepare('SELECT count(*) AS n FROM pragma_table_info(?) WHERE pk > 0').get(t.name).n;
    for (const c of conn
      .prepare(
        'SELECT name, type, "notnull" AS nn, dflt_value AS d, pk FROM pragma_table_info(?) ORDER BY cid',
      )
      .all(t.name)) {
      // An INTEGER PRIMARY KEY alone is the rowid: never NULL, filled in automatically.
      const rowid = c.pk > 0 && pkCount === 1 && /^integer$/i.test(c.type);
      columns.push({
        table: t.name,
        name: c.name,
        type: c.type,
        catalog: {
          nullable: !(c.nn || rowid),
          key: c.pk > 0 ? 'PRI' : keys.get(c.name) || '',
          default: c.d,
          extra: rowid ? 'auto_increment' : '',
        },
      });
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
  // Columns of the primary key or of any ordinary index: what a facet may group by.
  const indexed = {};
  for (const t of tables) {
    const set = new Set();
    for (const c of conn.prepare('SELECT name FROM pragma_table_info(?) WHERE pk > 0').all(t.name))
      set.add(c.name);
    for (const ix of conn.prepare('SELECT name FROM pragma_index_list(?)').all(t.name)) {
      for (const c of conn.prepare('SELECT name FROM pragma_index_info(?)').all(ix.name))
        if (c.name) set.add(c.name);
    }
    indexed[t.name] = [...set];
  }
  return { columns, estimates, fulltext, indexed };
}

parentPort.on('message', (msg) => {
  running = msg.id;
  // Published before the deadline check: a message the main thread found not running when its
  // time ran out (and answered already) is seen here as late, and skipped.
  Atomics.store(shared, RUNNING, msg.id);
  try {
    if (msg.deadline !== undefined && Date.now() >= msg.deadline) {
      const err = new Error('statement interrupted: request time-out (it waited too long to start)');
      err.code = 'INTERRUPTED';
      throw err;
    }
    reopenIfChanged(msg.db);
    let result;
    let transfer;
    if (msg.op === 'all') result = statement(open(msg.db), msg.sql).all(msg.params);
    else if (msg.op === 'json') {
      // The rows as the JSON the API sends: the bytes move to the main thread without a copy.
      result = rowsJson(statement(open(msg.db), msg.sql).all(msg.params), msg.shape);
      transfer = [result.bytes.buffer];
    } else if (msg.op === 'introspect') result = introspect(msg.db);
    else if (msg.op === 'ping') result = open(msg.db).conn.prepare('SELECT 1 AS ok').get();
    else throw new Error(`unknown op ${msg.op}`);
    parentPort.postMessage({ id: msg.id, result }, transfer);
  } catch (err) {
    const interrupted = Atomics.load(shared, CANCEL) === msg.id;
    parentPort.postMessage({
      id: msg.id,
      error: { message: err.message, code: interrupted ? 'INTERRUPTED' : err.code },
    });
  } finally {
    running = 0;
    Atomics.store(shared, RUNNING, 0);
  }
});
