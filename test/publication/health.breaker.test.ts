/**
 * The circuit breaker on its own, over a fake engine whose outages the test switches on and off:
 * what callers get while a database is known to be down, that the engine is not even asked
 * then, and how a probe or a health ping brings it back.
 */
import { describe, expect, it } from 'vitest';
import { CircuitBreakerDriver, DatabaseDown } from '../../src/publication/db/circuit-breaker.js';
import { DatabaseUnavailable, type Driver, QueryTimeout } from '../../src/publication/db/types.js';

/** An engine that is up or down (failing, or never answering), and counts what reached it. */
function fakeEngine() {
  const engine = {
    mode: 'up' as 'up' | 'down' | 'hung' | 'slow-query',
    calls: 0,
    pings: 0,
    answer<T>(db: string, value: T): Promise<T> {
      if (engine.mode === 'down')
        return Promise.reject(new DatabaseUnavailable(db, new Error('ECONNREFUSED')));
      if (engine.mode === 'hung') return new Promise<T>(() => {});
      if (engine.mode === 'slow-query') return Promise.reject(new QueryTimeout(db));
      return Promise.resolve(value);
    },
  };
  const driver: Driver = {
    engine: 'sqlite',
    introspect: (db) => {
      engine.calls += 1;
      return engine.answer(db, { tables: new Map() });
    },
    select: (db) => {
      engine.calls += 1;
      return engine.answer(db, [{ section_id: 1 }]);
    },
    count: (db) => {
      engine.calls += 1;
      return engine.answer(db, 1);
    },
    search: (db) => {
      engine.calls += 1;
      return engine.answer(db, []);
    },
    searchCount: (db) => {
      engine.calls += 1;
      return engine.answer(db, 0);
    },
    facet: (db) => {
      engine.calls += 1;
      return engine.answer(db, []);
    },
    ping: (db) => {
      engine.pings += 1;
      return engine.answer(db, undefined);
    },
    close: async () => {},
  };
  return { engine, driver };
}

const QUERY = { table: 't', columns: ['section_id'], where: [], orderBy: [] };

describe('circuit breaker', () => {
  it('opens on a connection failure and then refuses without asking the engine, with Retry-After', async () => {
    const { engine, driver } = fakeEngine();
    const breaker = new CircuitBreakerDriver(driver, 60_000);
    engine.mode = 'down';
    await expect(breaker.select('a', QUERY)).rejects.toBeInstanceOf(DatabaseUnavailable);
    expect(breaker.states(['a', 'b'])).toEqual({ a: 'open', b: 'closed' });
    const callsWhenOpened = engine.calls;
    const refused = await breaker.count('a', QUERY).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DatabaseDown);
    const down = refused as DatabaseDown;
    expect(down.status).toBe(503);
    expect(down.kind).toBe('database-unavailable');
    expect(Number(down.headers['Retry-After'])).toBeGreaterThan(0);
    expect(Number(down.headers['Retry-After'])).toBeLessThanOrEqual(60);
    await expect(breaker.search('a', { ...QUERY } as never)).rejects.toBeInstanceOf(DatabaseDown);
    expect(engine.calls).toBe(callsWhenOpened);
    // Other databases are not affected.
    engine.mode = 'up';
    await expect(breaker.select('b', QUERY)).resolves.toEqual([{ section_id: 1 }]);
  });

  it('opens when a health ping fails or never answers, and a successful ping closes it', async () => {
    const { engine, driver } = fakeEngine();
    const breaker = new CircuitBreakerDriver(driver, 60_000, 50);
    engine.mode = 'hung';
    await expect(breaker.ping('a', { timeoutMs: 50 })).rejects.toBeInstanceOf(DatabaseUnavailable);
    expect(breaker.states(['a'])).toEqual({ a: 'open' });
    await expect(breaker.select('a', QUERY)).rejects.toBeInstanceOf(DatabaseDown);
    engine.mode = 'up';
    // Health pings reach the engine even while the breaker is open: they are the probes.
    await breaker.ping('a');
    expect(breaker.states(['a'])).toEqual({ a: 'closed' });
    await expect(breaker.select('a', QUERY)).resolves.toEqual([{ section_id: 1 }]);
  });

  it('after the retry delay, one probe is shared by the callers waiting; success lets them through', async () => {
    const { engine, driver } = fakeEngine();
    const breaker = new CircuitBreakerDriver(driver, 0, 50);
    engine.mode = 'down';
    await expect(breaker.select('a', QUERY)).rejects.toBeInstanceOf(DatabaseUnavailable);
    engine.mode = 'up';
    const pingsBefore = engine.pings;
    const answers = await Promise.all([breaker.select('a', QUERY), breaker.count('a', QUERY)]);
    expect(answers).toEqual([[{ section_id: 1 }], 1]);
    expect(engine.pings - pingsBefore).toBe(1);
    expect(breaker.states(['a'])).toEqual({ a: 'closed' });
  });

  it('a failed probe keeps it open and refuses without running the statement', async () => {
    const { engine, driver } = fakeEngine();
    const breaker = new CircuitBreakerDriver(driver, 0, 50);
    engine.mode = 'down';
    await expect(breaker.select('a', QUERY)).rejects.toBeInstanceOf(DatabaseUnavailable);
    const calls = engine.calls;
    await expect(breaker.select('a', QUERY)).rejects.toBeInstanceOf(DatabaseDown);
    expect(engine.calls).toBe(calls);
    expect(breaker.states(['a'])).toEqual({ a: 'open' });
  });

  it('a slow query (time-out) is not an outage', async () => {
    const { engine, driver } = fakeEngine();
    const breaker = new CircuitBreakerDriver(driver, 60_000);
    engine.mode = 'slow-query';
    await expect(breaker.select('a', QUERY)).rejects.toBeInstanceOf(QueryTimeout);
    expect(breaker.states(['a'])).toEqual({ a: 'closed' });
  });
});
