/**
 * The shared circuit breaker (common/circuit-breaker.ts), one per database, wrapped around the engine. Once a database is known to
 * be down (a health ping failed or timed out, or a statement failed with a connection error),
 * data statements fail at once with a 503 problem and Retry-After instead of each waiting up to
 * REQUEST_TIMEOUT_MS on a dead server. Recovery needs no restart: every health ping goes through
 * to the engine and closes the breaker when it answers, and once the retry delay has passed the
 * next statement first sends one short probe (shared by every caller arriving meanwhile) and
 * proceeds if it succeeds.
 */
import {
  BREAKER_RETRY_MS,
  BreakerOpen,
  type BreakerState,
  CircuitBreaker,
  PROBE_TIMEOUT_MS,
  within,
} from '../../common/circuit-breaker.js';
import type { PoolStats } from '../../common/metrics.js';
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

export { BREAKER_RETRY_MS, type BreakerState, PROBE_TIMEOUT_MS } from '../../common/circuit-breaker.js';

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

export class CircuitBreakerDriver implements Driver {
  private readonly breaker: CircuitBreaker;

  readonly selectJson?: Driver['selectJson'];

  constructor(
    private readonly inner: Driver,
    retryMs = BREAKER_RETRY_MS,
    private readonly probeTimeoutMs = PROBE_TIMEOUT_MS,
  ) {
    this.breaker = new CircuitBreaker((db) => this.ping(db), retryMs);
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
    return this.breaker.states(dbs);
  }

  /** Seconds a client should wait before retrying `db` (Retry-After of a 503). */
  retryAfterSeconds(db: string): number {
    return this.breaker.retryAfterSeconds(db);
  }

  /** Throws DatabaseDown at once while `db`'s breaker is open (no probe is started). */
  refuseIfOpen(db: string): void {
    if (this.breaker.isOpen(db)) throw new DatabaseDown(db, this.breaker.retryAfterSeconds(db));
  }

  /** Runs one statement behind the breaker; a connection failure opens it. */
  private async guarded<T>(db: string, run: () => Promise<T>): Promise<T> {
    try {
      await this.breaker.admit(db);
    } catch (err) {
      if (err instanceof BreakerOpen) throw new DatabaseDown(db, err.retryAfterSeconds);
      throw err;
    }
    try {
      return await run();
    } catch (err) {
      if (err instanceof DatabaseUnavailable) this.breaker.trip(db);
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
      await within(
        this.inner.ping(db, { ...options, timeoutMs: limit }),
        limit,
        () => new DatabaseUnavailable(db, new Error(`no answer within ${limit} ms`)),
      );
      this.breaker.reset(db);
    } catch (err) {
      this.breaker.trip(db);
      throw err;
    }
  }

  poolStats(): PoolStats[] {
    return this.inner.poolStats?.() ?? [];
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
