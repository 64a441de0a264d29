/**
 * How the work API tells database faults apart (store/db-faults.ts) and how its PostgreSQL client
 * behaves behind the shared circuit breaker (store/guarded-sql-client.ts), over a fake client
 * whose outages the test switches on and off.
 */
import { describe, expect, it } from 'vitest';
import { BreakerOpen } from '../../src/common/circuit-breaker.js';
import { classifyDbFault } from '../../src/work/store/db-faults.js';
import { GuardedSqlClient } from '../../src/work/store/guarded-sql-client.js';
import type { SqlClient } from '../../src/work/store/sql-client.js';

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe('database fault classification', () => {
  it('tells an unreachable or silent server from one that is only too slow', () => {
    for (const err of [
      pgError('ECONNREFUSED'),
      pgError('ECONNRESET'),
      pgError('57P01'),
      pgError('08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('Query read timeout'),
      new BreakerOpen('work', 3),
    ]) {
      expect(classifyDbFault(err), err.message).toBe('unavailable');
    }
    for (const err of [
      pgError('57014'),
      pgError('55P03'),
      new Error('timeout exceeded when trying to connect'),
    ]) {
      expect(classifyDbFault(err), err.message).toBe('timeout');
    }
    for (const err of [pgError('23505'), pgError('40P01'), new Error('boom'), undefined, 'x']) {
      expect(classifyDbFault(err)).toBeUndefined();
    }
  });
});

function fakeClient() {
  const state = { mode: 'up' as 'up' | 'down' | 'slow', calls: 0 };
  const answer = async () => {
    state.calls += 1;
    if (state.mode === 'down') throw pgError('ECONNREFUSED');
    if (state.mode === 'slow') throw pgError('57014');
    return { rows: [], rowCount: 0 };
  };
  const client: SqlClient = {
    engine: 'postgres',
    query: answer as SqlClient['query'],
    transaction: async (fn) => {
      await answer();
      return fn({ query: answer as SqlClient['query'] });
    },
    close: async () => {},
  };
  return { state, client };
}

describe('the work database behind the circuit breaker', () => {
  it('opens on a connection failure, then refuses at once with Retry-After, without asking the server', async () => {
    const { state, client } = fakeClient();
    const guarded = new GuardedSqlClient(client, 60_000);
    state.mode = 'down';
    await expect(guarded.query('SELECT 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const calls = state.calls;
    const refused = await guarded.transaction(async () => 1).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BreakerOpen);
    expect((refused as BreakerOpen).retryAfterSeconds).toBeGreaterThan(0);
    expect(state.calls).toBe(calls);
  });

  it('a slow statement is not an outage', async () => {
    const { state, client } = fakeClient();
    const guarded = new GuardedSqlClient(client, 60_000);
    state.mode = 'slow';
    await expect(guarded.query('SELECT 1')).rejects.toMatchObject({ code: '57014' });
    state.mode = 'up';
    await expect(guarded.query('SELECT 1')).resolves.toEqual({ rows: [], rowCount: 0 });
  });

  it('after the retry delay one probe lets callers through again once the server answers', async () => {
    const { state, client } = fakeClient();
    const guarded = new GuardedSqlClient(client, 0, 50);
    state.mode = 'down';
    await expect(guarded.query('SELECT 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(guarded.query('SELECT 1')).rejects.toBeInstanceOf(BreakerOpen);
    state.mode = 'up';
    await expect(guarded.query('SELECT 1')).resolves.toEqual({ rows: [], rowCount: 0 });
    expect(guarded.breaker.isOpen('work')).toBe(false);
  });
});
