import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryBucketStore } from '../../src/common/rate-limit/memory-store.js';
import {
  type BucketPolicy,
  type BucketState,
  reportOf,
  secondsUntilAvailable,
  takeTokens,
} from '../../src/common/rate-limit/token-bucket.js';

const policy: BucketPolicy = { capacity: 60, refillPerMinute: 60 }; // one token a second

describe('token bucket', () => {
  it('starts full and refuses a take it cannot pay in full, taking nothing', () => {
    let state: BucketState | undefined;
    for (let i = 0; i < 60; i++) {
      const r = takeTokens(state, 1, 0, policy);
      expect(r.take.allowed).toBe(true);
      state = r.state;
    }
    const refused = takeTokens(state, 1, 0, policy);
    expect(refused.take).toEqual({ allowed: false, tokens: 0 });
    const partial = takeTokens({ tokens: 2.5, updatedMs: 0 }, 3, 0, policy);
    expect(partial.take).toEqual({ allowed: false, tokens: 2.5 });
  });

  it('refills continuously by elapsed time, not by resetting a window', () => {
    const empty: BucketState = { tokens: 0, updatedMs: 10_000 };
    expect(takeTokens(empty, 1, 10_999, policy).take.allowed).toBe(false);
    const after = takeTokens(empty, 1, 11_000, policy);
    expect(after.take).toEqual({ allowed: true, tokens: 0 });
    // Half a minute refills half the bucket, whatever minute boundaries lie in between.
    expect(takeTokens(empty, 0, 40_000, policy).take.tokens).toBeCloseTo(30, 9);
    expect(takeTokens(empty, 0, 10_000 + 3_600_000, policy).take.tokens).toBe(60);
  });

  it('serves a client that waits exactly the advertised Retry-After despite rounding noise', () => {
    const odd: BucketPolicy = { capacity: 7, refillPerMinute: 7 };
    let state: BucketState = { tokens: 0, updatedMs: 0 };
    let now = 0;
    for (let i = 0; i < 50; i++) {
      const wait = secondsUntilAvailable(state.tokens, 1, odd);
      now += wait * 1000;
      const r = takeTokens(state, 1, now, odd);
      expect(r.take.allowed, `step ${i}`).toBe(true);
      state = r.state;
    }
  });

  it('gives tokens back with a negative cost, never above capacity', () => {
    expect(takeTokens({ tokens: 3, updatedMs: 0 }, -1, 0, policy).take).toEqual({ allowed: true, tokens: 4 });
    expect(takeTokens(undefined, -1, 0, policy).take.tokens).toBe(60);
  });

  it('reports whole tokens left, seconds to full and seconds to the next token', () => {
    expect(reportOf(59.5, policy)).toEqual({ limit: 60, remaining: 59, resetSeconds: 1 });
    expect(reportOf(60, policy)).toEqual({ limit: 60, remaining: 60, resetSeconds: 0 });
    expect(reportOf(0, { capacity: 100, refillPerMinute: 100 })).toEqual({
      limit: 100,
      remaining: 0,
      resetSeconds: 60,
    });
    expect(secondsUntilAvailable(0.25, 1, policy)).toBe(1);
    expect(secondsUntilAvailable(0, 5, policy)).toBe(5);
    expect(secondsUntilAvailable(0, 1, { capacity: 1, refillPerMinute: 1 })).toBe(60);
    // A cost above capacity can never be met: the time to a full bucket is the best answer.
    expect(secondsUntilAvailable(10, 100, policy)).toBe(50);
  });

  it('never lets more through than capacity plus what the elapsed time refilled', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.array(
          fc.record({ gapMs: fc.integer({ min: 0, max: 5_000 }), cost: fc.integer({ min: 1, max: 5 }) }),
          {
            maxLength: 200,
          },
        ),
        (rpm, steps) => {
          const p = { capacity: rpm, refillPerMinute: rpm };
          let state: BucketState | undefined;
          let now = 0;
          let paid = 0;
          for (const { gapMs, cost } of steps) {
            now += gapMs;
            const r = takeTokens(state, cost, now, p);
            expect(r.state.tokens).toBeGreaterThanOrEqual(0);
            expect(r.state.tokens).toBeLessThanOrEqual(rpm);
            if (r.take.allowed) paid += cost;
            state = r.state;
          }
          expect(paid).toBeLessThanOrEqual(rpm + (now * rpm) / 60_000 + 1e-6);
        },
      ),
    );
  });
});

describe('memory bucket store', () => {
  it('keeps one bucket per key and charges them independently', async () => {
    const store = new MemoryBucketStore({ capacity: 2, refillPerMinute: 2 }, { now: () => 0 });
    expect((await store.take('a', 2)).allowed).toBe(true);
    expect((await store.take('a', 1)).allowed).toBe(false);
    expect((await store.take('b', 1)).allowed).toBe(true);
  });

  it('stays bounded under a flood of distinct clients', () => {
    let now = 0;
    const store = new MemoryBucketStore(
      { capacity: 10, refillPerMinute: 10 },
      { maxBuckets: 100, now: () => now },
    );
    for (let i = 0; i < 10_000; i++) {
      now += i % 2;
      store.takeNow(`flood-${i}`, 1);
      expect(store.size).toBeLessThanOrEqual(100);
    }
  });

  it('drops buckets that have refilled before ones that still owe tokens', () => {
    let now = 0;
    const store = new MemoryBucketStore(
      { capacity: 10, refillPerMinute: 10 },
      { maxBuckets: 100, now: () => now },
    );
    store.takeNow('spender', 10);
    for (let i = 0; i < 99; i++) store.takeNow(`once-${i}`, 1);
    now = 6_000; // every one-request client is full again; the spender has one token of ten
    store.takeNow('newcomer', 1);
    expect(store.size).toBeLessThanOrEqual(100);
    expect(store.takeNow('spender', 2).allowed).toBe(false);
    expect(store.takeNow('spender', 1).allowed).toBe(true);
  });

  it('evicts the least recently used buckets when none is full yet', () => {
    const store = new MemoryBucketStore(
      { capacity: 5, refillPerMinute: 5 },
      { maxBuckets: 10, now: () => 0 },
    );
    for (let i = 0; i < 10; i++) store.takeNow(`k${i}`, 5);
    store.takeNow('k0', 0); // k0 is now the most recently used
    store.takeNow('new', 1);
    expect(store.size).toBeLessThanOrEqual(10);
    expect(store.takeNow('k0', 1).allowed).toBe(false); // kept: still empty
    expect(store.takeNow('k1', 1).allowed).toBe(true); // evicted: a fresh bucket
  });
});
