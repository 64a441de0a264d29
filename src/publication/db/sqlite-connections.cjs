/**
 * The read-only SQLite connections of one thread, one per database file, each with a small cache
 * of prepared statements. Shared by the worker threads (sqlite-worker.cjs) and the main thread's
 * key lookups (sqlite-key-lookup.ts), so both open, re-open and prepare the same way. Plain
 * CommonJS so a worker loads it from src/ under the test runner and from dist/ in production.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const MAX_STATEMENTS = 500;

/**
 * @param {{ dir: string, modulePath: string, cacheMb?: number, alive: () => number }} options
 *   `alive` is the `pub_alive()` every statement the driver writes calls per scanned row.
 */
function createConnections({ dir, modulePath, cacheMb, alive }) {
  const Database = require(modulePath);
  const connections = new Map();
  const fileOf = (db) => path.join(dir, `${db}.sqlite`);

  function open(db) {
    let entry = connections.get(db);
    if (!entry) {
      const file = fileOf(db);
      const conn = new Database(file, { readonly: true, fileMustExist: true });
      conn.function('pub_alive', { deterministic: false }, alive);
      // The page cache is per connection, so per thread and database (config.ts DB_SQLITE_CACHE_MB).
      if (cacheMb) conn.pragma(`cache_size = -${cacheMb * 1024}`);
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

  function closeAll() {
    for (const entry of connections.values()) entry.conn.close();
    connections.clear();
  }

  return { open, reopenIfChanged, statement, closeAll };
}

module.exports = { createConnections };
