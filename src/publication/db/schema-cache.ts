/**
 * Caches each database's introspected schema for a short time (default 30 s) with single-flight:
 * concurrent requests after expiry share one catalogue query instead of stampeding the server.
 */
import type { DatabaseSchema, Driver } from './types.js';

interface Entry {
  schema?: DatabaseSchema;
  loadedAt: number;
  inflight?: Promise<DatabaseSchema>;
}

export class SchemaCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly driver: Driver,
    private readonly ttlMs = 30_000,
    private readonly now: () => number = Date.now,
    /**
     * Throws when `db` is known to be down (its circuit breaker is open): a caller then gets the
     * 503 at once instead of joining a catalogue read that may hang until its own time-out.
     */
    private readonly refuse: (db: string) => void = () => {},
  ) {}

  /**
   * Forgets every cached schema: the next request introspects again. Called after a publish run
   * (a new table or column is then visible at once) through an internal signal, never a route.
   */
  clear(): void {
    this.entries.clear();
  }

  get(db: string): Promise<DatabaseSchema> {
    const entry = this.entries.get(db) ?? { loadedAt: 0 };
    this.entries.set(db, entry);
    if (entry.schema && this.now() - entry.loadedAt < this.ttlMs) return Promise.resolve(entry.schema);
    if (entry.inflight) this.refuse(db);
    else {
      entry.inflight = this.driver
        .introspect(db)
        .then((schema) => {
          entry.schema = schema;
          entry.loadedAt = this.now();
          return schema;
        })
        .finally(() => {
          entry.inflight = undefined;
        });
    }
    return entry.inflight;
  }
}
