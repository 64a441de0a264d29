/**
 * The rows of one record read by its key on the main thread, without the round trip to a SQLite
 * worker. Profiled under the bench's 50 connections, that round trip was the single record's
 * largest cost of our own: waking a sleeping worker with postMessage took ~45 us of the main
 * thread's CPU per message (16% of its busy time), and the answer wakes the main thread again;
 * the lookup itself, a few rows by an index, costs ~100 us.
 *
 * Why a statement on the main thread is bounded (it cannot be interrupted there, and it blocks
 * every other request while it runs): only statements whose plan, asked of SQLite once per
 * database file and statement text, is an equality search on an index for every table it reads
 * (`SEARCH t USING INDEX i (section_id=?)`, no scan, no temporary sort) run here, and they carry
 * a LIMIT (1000 rows: a record's language variants). Any other plan (a publication whose table
 * has no index on the key) goes to the workers, where the request's time limit interrupts it.
 * The file is read-only and local: a page that is not cached is one read from disk.
 */
import { createRequire } from 'node:module';
import { type RowsJsonShape, type RowsJsonWritten, rowsJson } from './row-json.cjs';
import { createConnections } from './sqlite-connections.cjs';

type Connections = ReturnType<typeof createConnections>;
type Entry = ReturnType<Connections['open']>;

/** One plan line of a key lookup: an index searched with `=` on every constrained column. */
const EQUALITY_SEARCH =
  /^SEARCH \S+ USING (?:(?:COVERING )?INDEX \S+|INTEGER PRIMARY KEY|PRIMARY KEY) \([^()<>]+=\?(?: AND [^()<>]+=\?)*\)$/;

/** Statement texts whose plan is remembered per connection (as many as the statements it prepares). */
const MAX_PLANS = 500;

/** Whether every line of a statement's plan is an equality search on an index. */
export function isKeyLookupPlan(details: readonly string[]): boolean {
  return details.length > 0 && details.every((d) => EQUALITY_SEARCH.test(d));
}

export class SqliteKeyLookup {
  private connections?: Connections;
  /** Per open connection (a replaced file gets a new one): statement text -> plan is a key lookup. */
  private readonly plans = new WeakMap<Entry, Map<string, boolean>>();

  constructor(
    private readonly dir: string,
    private readonly cacheMb?: number,
  ) {}

  /**
   * The rows as JSON, or undefined when the statement's plan is not a key lookup (the caller
   * sends it to a worker). SQLite's errors are thrown as they are (`code` SQLITE_*).
   */
  tryJson(db: string, sql: string, params: unknown[], shape: RowsJsonShape): RowsJsonWritten | undefined {
    // better-sqlite3 loads on the first lookup: a server that never reads a record does not hold it.
    this.connections ??= createConnections({
      dir: this.dir,
      modulePath: createRequire(import.meta.url).resolve('better-sqlite3'),
      cacheMb: this.cacheMb,
      alive: () => 1,
    });
    const connections = this.connections;
    connections.reopenIfChanged(db);
    const entry = connections.open(db);
    let plans = this.plans.get(entry);
    if (!plans) {
      plans = new Map();
      this.plans.set(entry, plans);
    }
    let lookup = plans.get(sql);
    if (lookup === undefined) {
      const lines = entry.conn.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[];
      lookup = isKeyLookupPlan(lines.map((l) => l.detail));
      if (plans.size >= MAX_PLANS) plans.clear();
      plans.set(sql, lookup);
    }
    if (!lookup) return undefined;
    return rowsJson(connections.statement(entry, sql).all(params), shape);
  }

  close(): void {
    this.connections?.closeAll();
  }
}
