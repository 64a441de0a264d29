/**
 * A small circuit breaker per database, wrapped around the engine. Once a database is known to
 * be down (a health ping failed or timed out, or a statement failed with a connection error),
 * data statements fail at once with a 503 problem and Retry-After instead of each waiting up to
 * REQUEST_TIMEOUT_MS on a dead server. Recovery needs no restart: every health ping goes through
 * to the engine and closes the breaker when it answers, and once the retry delay has passed the
 * next statement first sends one short probe (shared by every caller arriving meanwhile) and
 * proceeds if it succeeds.
 */
import { ProblemError } from '../problems.js';
import {
  type CountQuery,
  type DatabaseSchema,
  DatabaseUnavailable,
  type Driver,
  type FacetCount,
  type FacetQuery,
  type FulltextQuery,
  type Row,
  type SelectQuery,
  type StatementOptions,
} from './types.js';

/** How long an open breaker refuses before it lets a probe try again. */
export const BREAKER_RETRY_MS = 5_000;
/** A probe (or a health ping without its own limit) gives up after this long. */
export const PROBE_TIMEOUT_MS = 2_000;

export type BreakerState = 'closed' | 'open';

interface OpenBreaker {
  /** When the database was first seen down in this outage (ISO 8601). */
  since: string;
  retryAt: number;
  probe?: Promise<boolean>;
}

/** The database is known to be down; raised without touching the engine. */
export class DatabaseDown extends ProblemError {
  constructor(db: string, retryAfterSeconds: number) {
    super(
      'database-unavailable',
      `database "${db}" is unavailable right now; try again in ${retryAfterSeconds} s`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    );
    this.name = 'DatabaseDown';
  }
}

/** Rejects with DatabaseUnavailable when `work` has not settled within `ms`. */
function within<T>(db: string, work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseUnavailable(db, new Error(`no answer within ${ms} ms`))), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export class CircuitBreakerDriver implements Driver {
  private readonly open = new Map<string, OpenBreaker>();

  readonly selectJson?: Driver['selectJson'];

  constructor(
    private readonly inner: Driver,
    private readonly retryMs = BREAKER_RETRY_MS,
    private readonly probeTimeoutMs = PROBE_TIMEOUT_MS,
  ) {
    const selectJson = inner.selectJson?.bind(inner);
    if (selectJson) {
      this.selectJson = (db, query, shape, options) =>
        this.guarded(db, () => selectJson(db, query, shape, options));
    }
  }

  get engine() {
    return this.inner.engine;
  }

  /** Every database's breaker, for /health. */
  states(dbs: readonly string[]): Record<string, BreakerState> {
    return Object.fromEntries(dbs.map((db) => [db, this.open.has(db) ? 'open' : 'closed']));
  }

  private trip(db: string): void {
    const current = this.open.get(db);
    if (current) current.retryAt = Date.now() + this.retryMs;
    else this.open.set(db, { since: new Date().toISOString(), retryAt: Date.now() + this.retryMs });
  }

  /** Resolves when `db` may take a statement; throws DatabaseDown while its breaker stays open. */
  private async admit(db: string): Promise<void> {
    const state = this.open.get(db);
    if (!state) return;
    const wait = state.retryAt - Date.now();
    if (wait > 0) throw new DatabaseDown(db, Math.ceil(wait / 1000));
    state.probe ??= this.ping(db).then(
      () => true,
      () => false,
    );
    if (!(await state.probe)) {
      state.probe = undefined;
      throw new DatabaseDown(db, Math.ceil(this.retryMs / 1000));
    }
  }

  /** Runs one statement behind the breaker; a connection failure opens it. */
  private async guarded<T>(db: string, run: () => Promise<T>): Promise<T> {
    await this.admit(db);
    try {
      return await run();
    } catch (err) {
      if (err instanceof DatabaseUnavailable) this.trip(db);
      throw err;
    }
  }

  introspect(db: string, options?: StatementOptions): Promise<DatabaseSchema> {
    return this.guarded(db, () => this.inner.introspect(db, options));
  }

  facet(db: string, query: FacetQuery, options?: StatementOptions): Promise<FacetCount[]> {
    return this.guarded(db, () => this.inner.facet(db, query, options));
  }

  select(db: string, query: SelectQuery, options?: StatementOptions): Promise<Row[]> {
    return this.guarded(db, () => this.inner.select(db, query, options));
  }

  count(db: string, query: CountQuery, options?: StatementOptions): Promise<number> {
    return this.guarded(db, () => this.inner.count(db, query, options));
  }

  search(db: string, query: FulltextQuery, options?: StatementOptions): Promise<Row[]> {
    return this.guarded(db, () => this.inner.search(db, query, options));
  }

  searchCount(
    db: string,
    query: Omit<FulltextQuery, 'limit' | 'offset' | 'columns' | 'orderBy'>,
    options?: StatementOptions,
  ): Promise<number> {
    return this.guarded(db, () => this.inner.searchCount(db, query, options));
  }

  /**
   * Always reaches the engine, whatever the breaker says: health pings are the probes. Any
   * failure, a time-out included (a hung server), opens the breaker; an answer closes it.
   */
  async ping(db: string, options?: StatementOptions): Promise<void> {
    const limit = options?.timeoutMs ?? this.probeTimeoutMs;
    try {
      await within(db, this.inner.ping(db, { ...options, timeoutMs: limit }), limit);
      this.open.delete(db);
    } catch (err) {
      this.trip(db);
      throw err;
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
