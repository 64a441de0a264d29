import { afterAll, describe, expect, it } from 'vitest';
import { MemoryBucketStore } from '../../src/common/rate-limit/memory-store.js';
import { type RateLimitLog, RedisBucketStore } from '../../src/common/rate-limit/redis-store.js';
import type { BucketPolicy } from '../../src/common/rate-limit/token-bucket.js';
import { redisTestNamespace, requireRedisOrSkip, TEST_REDIS_URL } from '../helpers/redis-availability.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

const redisUp = await requireRedisOrSkip();

function recordingLog() {
  const lines: { level: string; message: string }[] = [];
  const log: RateLimitLog = {
    warn: (_fields, message) => lines.push({ level: 'warn', message }),
    info: (_fields, message) => lines.push({ level: 'info', message }),
  };
  return { log, lines };
}

describe.runIf(redisUp)('Redis bucket store', () => {
  const ns = redisTestNamespace();
  const stores: RedisBucketStore[] = [];
  const open = async (policy: BucketPolicy, url = ns.url, log = recordingLog().log) => {
    const store = new RedisBucketStore(url, policy, { log, fallback: new MemoryBucketStore(policy) });
    stores.push(store);
    await store.connect();
    return store;
  };
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await ns.cleanUp();
  });

  it('follows the same token-bucket rule as the memory store', async () => {
    const policy = { capacity: 3, refillPerMinute: 3 };
    const store = await open(policy);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await store.take('rule', 1));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[2]!.tokens).toBeLessThan(0.01);
    expect((await store.take('rule', -1)).tokens).toBeGreaterThanOrEqual(1);
    expect((await store.take('other', 3)).allowed).toBe(true);
  });

  it('shares one bucket between instances and takes atomically under concurrency', async () => {
    const policy = { capacity: 10, refillPerMinute: 10 };
    const [a, b] = [await open(policy), await open(policy)];
    const takes = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take('shared', 1)));
    expect(takes.filter((t) => t.allowed)).toHaveLength(10);
  });

  it('refills continuously on Redis time', async () => {
    const policy = { capacity: 600, refillPerMinute: 600 }; // ten tokens a second
    const store = await open(policy);
    expect((await store.take('refill', 600)).allowed).toBe(true);
    expect((await store.take('refill', 1)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 350));
    const later = await store.take('refill', 0);
    expect(later.tokens).toBeGreaterThan(2.5);
    expect(later.tokens).toBeLessThan(10);
  });

  it('gives every bucket a TTL of about the time it takes to refill', async () => {
    const policy = { capacity: 60, refillPerMinute: 60 };
    const store = await open(policy);
    await store.take('ttl', 30); // 30 s to full again
    const keys = await ns.keys();
    const key = keys.find((k) => k.endsWith(':ttl'));
    expect(key).toBeDefined();
    const ttl = await ns.admin.pttl(key!);
    expect(ttl).toBeGreaterThan(29_000);
    expect(ttl).toBeLessThanOrEqual(31_000);
  });

  it('falls back to per-instance memory buckets while Redis is unreachable, and comes back', async () => {
    const proxy = new TcpProxy('127.0.0.1', Number(new URL(TEST_REDIS_URL).port || 6379));
    const port = await proxy.open();
    const viaProxy = ns.url.replace(/:\d+(?=[/?]|$)/, `:${port}`);
    const { log, lines } = recordingLog();
    const policy = { capacity: 2, refillPerMinute: 2 };
    const store = await open(policy, viaProxy, log);
    const direct = await open(policy);
    try {
      expect((await store.take('outage', 1)).allowed).toBe(true); // in Redis
      await proxy.close();
      // Never an exception; still limited, by the memory bucket of this instance.
      const during = [];
      for (let i = 0; i < 3; i++) during.push((await store.take('outage', 1)).allowed);
      expect(during).toEqual([true, true, false]);
      expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
      expect(lines[0]!.message).toMatch(/Redis is unreachable/);

      await proxy.open(port);
      let back = false;
      for (let i = 0; i < 50 && !back; i++) {
        await new Promise((r) => setTimeout(r, 100));
        await store.take('probe', 0);
        back = lines.some((l) => l.level === 'info');
      }
      expect(back).toBe(true);
      // Shared again: the bucket in Redis still holds the one token left before the outage.
      expect((await direct.take('outage', 1)).allowed).toBe(true);
      expect((await store.take('outage', 1)).allowed).toBe(false);
    } finally {
      await proxy.close();
    }
  });
});
