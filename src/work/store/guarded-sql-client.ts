/**
 * The work API's PostgreSQL client behind the shared circuit breaker (common/circuit-breaker.ts).
 * A statement that finds the server gone (db-faults.ts: `unavailable`) opens it; while it is
 * open every statement is refused at once with BreakerOpen (a 503 db.unavailable with
 * Retry-After) instead of each request waiting for its connection and statement time-outs. After
 * the retry delay the next statement first sends one short probe (SELECT 1) and goes through if
 * it answers: service comes back by itself when the database does, without a restart.
 */
import { BREAKER_RETRY_MS, CircuitBreaker, PROBE_TIMEOUT_MS, within } from '../../common/circuit-breaker.js';
import type { PoolStats } from '../../common/metrics.js';
import { classifyDbFault } from './db-faults.js';
import type { SqlClient, SqlQueryable, SqlResult, TransactionOptions } from './sql-client.js';

/** The breaker's key: the work API has one database. */
export const WORK_DB = 'work';

export class GuardedSqlClient implements SqlClient {
  readonly breaker: CircuitBreaker;

  constructor(
    private readonly inner: SqlClient,
    retryMs = BREAKER_RETRY_MS,
    probeTimeoutMs = PROBE_TIMEOUT_MS,
  ) {
    this.breaker = new CircuitBreaker(
      () => within(inner.query('SELECT 1'), probeTimeoutMs, () => new Error('the probe got no answer')),
      retryMs,
    );
  }

  get engine() {
    return this.inner.engine;
  }

  private async guarded<T>(run: () => Promise<T>): Promise<T> {
    await this.breaker.admit(WORK_DB);
    try {
      return await run();
    } catch (err) {
      if (classifyDbFault(err) === 'unavailable') this.breaker.trip(WORK_DB);
      throw err;
    }
  }

  query<T extends object>(sql: string, params?: readonly unknown[]): Promise<SqlResult<T>> {
    return this.guarded(() => this.inner.query<T>(sql, params));
  }

  transaction<R>(fn: (tx: SqlQueryable) => Promise<R>, options?: TransactionOptions): Promise<R> {
    return this.guarded(() => this.inner.transaction(fn, options));
  }

  /** The inner client's pool, for the metrics endpoint. */
  poolStats(): PoolStats[] {
    return this.inner.poolStats?.() ?? [];
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
