import { describe, expect, it } from 'vitest';
import { SchemaCache } from '../../src/publication/db/schema-cache.js';
import type { DatabaseSchema, Driver } from '../../src/publication/db/types.js';

/** An engine whose catalogue read is counted and released by the test. */
function countingEngine() {
  const state = { calls: 0, release: () => {} };
  const driver = {
    introspect: () => {
      state.calls += 1;
      return new Promise<DatabaseSchema>((resolve) => {
        state.release = () => resolve({ tables: new Map() });
      });
    },
  } as unknown as Driver;
  return { driver, state };
}

describe('schema cache', () => {
  it('shares one catalogue read between concurrent requests (single-flight)', async () => {
    const { driver, state } = countingEngine();
    const cache = new SchemaCache(driver, 30_000);
    const pending = [cache.get('db'), cache.get('db'), cache.get('db')];
    state.release();
    const [a, b, c] = await Promise.all(pending);
    expect(state.calls).toBe(1);
    expect(a).toBe(b);
    expect(b).toBe(c);
  });

  it('serves the cached schema until it expires, then reads the catalogue again', async () => {
    const { driver, state } = countingEngine();
    let now = 0;
    const cache = new SchemaCache(driver, 30_000, () => now);
    const first = cache.get('db');
    state.release();
    await first;
    now = 29_999;
    await cache.get('db');
    expect(state.calls).toBe(1);
    now = 30_000;
    const refreshed = cache.get('db');
    state.release();
    await refreshed;
    expect(state.calls).toBe(2);
  });

  it('keeps databases apart', async () => {
    const { driver, state } = countingEngine();
    const cache = new SchemaCache(driver);
    const a = cache.get('a');
    state.release();
    await a;
    const b = cache.get('b');
    state.release();
    await b;
    expect(state.calls).toBe(2);
  });
});
