/**
 * Decides whether the Redis-backed rate-limit suites run, like mariadb-availability.ts: skipped
 * with a message when Redis is not reachable, a failure under CI=true. Each run works under a
 * key prefix of its own and deletes its keys afterwards, so runs never see each other's buckets.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function redisReachable(): Promise<boolean> {
  const client = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export async function requireRedisOrSkip(): Promise<boolean> {
  if (await redisReachable()) return true;
  if (process.env.CI === 'true') {
    throw new Error(`CI=true but Redis is not reachable at ${TEST_REDIS_URL}: the Redis suites cannot run`);
  }
  console.warn(
    `\n[skip] Redis is not reachable at ${TEST_REDIS_URL}: Redis rate-limit suites are skipped.\n`,
  );
  return false;
}

/** A key prefix unique to this run, and a way to find and delete everything under it. */
export function redisTestNamespace() {
  const prefix = `pubtest:${process.pid}:${randomUUID()}:`;
  const admin = new Redis(TEST_REDIS_URL, { lazyConnect: true });
  admin.on('error', () => {});
  const keys = async () => {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      found.push(...batch);
    } while (cursor !== '0');
    return found;
  };
  return {
    prefix,
    /** The store's URL with this namespace as ioredis's key prefix. */
    url: `${TEST_REDIS_URL}${TEST_REDIS_URL.includes('?') ? '&' : '?'}keyPrefix=${encodeURIComponent(prefix)}`,
    admin,
    keys,
    async cleanUp() {
      const found = await keys();
      if (found.length > 0) await admin.del(...found);
      admin.disconnect();
    },
  };
}
