import { afterAll, describe, expect, it } from 'vitest';
import type { ConfigError } from '../../src/common/config-error.js';
import { loadPublicationConfig } from '../../src/publication/config.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';
import { redisTestNamespace, requireRedisOrSkip } from '../helpers/redis-availability.js';

// The limiter never touches the database, so one engine is enough.
const c = engineCases().find((e) => e.engine === 'sqlite')!;
const redisUp = await requireRedisOrSkip();

describe('RATE_LIMIT_REDIS_URL', () => {
  it('must be a redis:// or rediss:// URL', () => {
    const problems = (value: string) => {
      try {
        loadPublicationConfig({ RATE_LIMIT_REDIS_URL: value });
        return '';
      } catch (err) {
        return (err as ConfigError).problems.join('\n');
      }
    };
    expect(problems('localhost:6379')).toMatch(/RATE_LIMIT_REDIS_URL must be a URL like redis:\/\//);
    expect(problems('http://127.0.0.1:6379')).toMatch(/RATE_LIMIT_REDIS_URL/);
    expect(problems('redis://')).toMatch(/RATE_LIMIT_REDIS_URL/);
    expect(problems('redis://127.0.0.1:6379/2')).toBe('');
    expect(problems('rediss://user:secret@cache.internal:6380')).toBe('');
    expect(loadPublicationConfig({}).rateLimitRedisUrl).toBeUndefined();
  });
});

describe.runIf(redisUp)('rate limiting shared through Redis', () => {
  const ns = redisTestNamespace();
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string>) => {
    const s = await startTestServer(c, env);
    servers.push(s);
    return s;
  };
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await ns.cleanUp();
  });

  it('gives two instances one bucket per client', async () => {
    const env = { RATE_LIMIT_RPM: '4', RATE_LIMIT_REDIS_URL: ns.url };
    const [a, b] = [await start(env), await start(env)];
    const seen: [number, string | undefined][] = [];
    for (const s of [a, b, a, b]) {
      const res = await s.get('/databases');
      seen.push([res.status, res.headers['ratelimit-remaining'] as string | undefined]);
    }
    expect(seen).toEqual([
      [200, '3'],
      [200, '2'],
      [200, '1'],
      [200, '0'],
    ]);
    const refusedA = await a.get('/databases');
    const refusedB = await b.get('/databases');
    expect([refusedA.status, refusedB.status]).toEqual([429, 429]);
    expect(refusedB.json.type).toMatch(/\/rate-limited$/);
    expect(Number(refusedB.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // The bucket lives in Redis under this run's prefix, with a TTL so idle clients vanish.
    const keys = await ns.keys();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/publication:ratelimit:127\.0\.0\.1$/);
    const ttl = await ns.admin.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(61_000);
  });

  it('charges a batch on one instance against the bucket the other sees', async () => {
    const env = { RATE_LIMIT_RPM: '5', RATE_LIMIT_REDIS_URL: ns.url, DEPLOYMENT_MODE: 'nginx' };
    const [a, b] = [await start(env), await start(env)];
    const client = { 'X-Forwarded-For': '198.51.100.23' };
    const res = await a.request(
      'POST',
      `${new URL(a.base).pathname}/batch`,
      { ...client, 'Content-Type': 'application/json' },
      JSON.stringify({ queries: [1, 2, 3, 4].map((i) => ({ id: `q${i}`, path: `/${c.db}/tables` })) }),
    );
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('1');
    expect((await b.get('/databases', client)).headers['ratelimit-remaining']).toBe('0');
    expect((await b.get('/databases', client)).status).toBe(429);
  });

  it('keeps answering, and limiting per instance, when Redis is unreachable', async () => {
    // Port 9 (discard): nothing listens, so every connection attempt is refused at once.
    const s = await start({ RATE_LIMIT_RPM: '2', RATE_LIMIT_REDIS_URL: 'redis://127.0.0.1:9' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await s.get('/databases')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
