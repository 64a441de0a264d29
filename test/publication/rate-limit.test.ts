import { describe, expect, it } from 'vitest';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

// The limiter never touches the database, so one engine is enough.
const c = engineCases().find((e) => e.engine === 'sqlite')!;

async function withServer(env: Record<string, string>, fn: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startTestServer(c, env);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

const batchOf = (s: TestServer, n: number) =>
  s.request(
    'POST',
    `${new URL(s.base).pathname}/batch`,
    { 'Content-Type': 'application/json' },
    JSON.stringify({
      queries: Array.from({ length: n }, (_, i) => ({ id: `q${i}`, path: `/${c.db}/tables` })),
    }),
  );
const remaining = (res: { headers: Record<string, unknown> }) => Number(res.headers['ratelimit-remaining']);

describe('rate limiting (memory store)', () => {
  it('reports the bucket on every charged answer, errors included', async () => {
    await withServer({ RATE_LIMIT_RPM: '5' }, async (s) => {
      const ok = await s.get('/databases');
      expect(ok.status).toBe(200);
      expect(ok.headers['ratelimit-limit']).toBe('5');
      expect(ok.headers['ratelimit-remaining']).toBe('4');
      // One token missing at 5 a minute: full again in 12 s.
      expect(ok.headers['ratelimit-reset']).toBe('12');
      const missing = await s.get('/no-such-db/tables');
      expect(missing.status).toBe(404);
      expect(missing.headers['ratelimit-remaining']).toBe('3');
      expect(Number(missing.headers['ratelimit-reset'])).toBe(24);
    });
  });

  it('answers a 429 problem with Retry-After once the bucket is empty', async () => {
    await withServer({ RATE_LIMIT_RPM: '3' }, async (s) => {
      for (let i = 0; i < 3; i++) expect((await s.get('/databases')).status).toBe(200);
      const res = await s.get('/databases');
      expect(res.status).toBe(429);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json).toMatchObject({ status: 429, title: 'Too Many Requests' });
      expect(res.json.type).toMatch(/\/rate-limited$/);
      expect(res.json.instance).toMatch(/\/databases$/);
      // One token every 20 s: the next one is at most 20 s away.
      const retry = Number(res.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(19);
      expect(retry).toBeLessThanOrEqual(20);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe('0');
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(59);
      expect(res.headers['x-request-id']).toBeDefined();
    });
  });

  it('refills continuously: one token interval after running dry, exactly one request passes', async () => {
    // 20 a minute is one token every 3 s; a batch of 20 empties the bucket in one step, so the
    // test does not depend on how fast a burst of single requests happens to run.
    await withServer({ RATE_LIMIT_RPM: '20' }, async (s) => {
      expect((await batchOf(s, 20)).status).toBe(200);
      const dry = await s.get('/databases');
      expect(dry.status).toBe(429);
      expect(dry.headers['retry-after']).toBe('3');
      // A fixed window would stay closed for the rest of the minute, or reopen in full.
      await new Promise((r) => setTimeout(r, 3000));
      const one = await s.get('/databases');
      expect(one.status).toBe(200);
      expect(one.headers['ratelimit-remaining']).toBe('0');
      expect(one.headers['ratelimit-reset']).toBe('60');
      const two = await s.get('/databases');
      expect(two.status).toBe(429);
      expect(two.headers['retry-after']).toBe('3');
    });
  });

  it('leaves the favicon and CORS preflights free', async () => {
    await withServer({ RATE_LIMIT_RPM: '2' }, async (s) => {
      const bp = new URL(s.base).pathname;
      for (let i = 0; i < 4; i++) {
        const icon = await s.request('GET', i % 2 ? '/favicon.ico' : `${bp}/favicon.ico`);
        expect(icon.status).toBe(204);
        expect(icon.headers['ratelimit-remaining']).toBeUndefined();
        const preflight = await s.request('OPTIONS', `${bp}/databases`, {
          Origin: 'https://site.example',
          'Access-Control-Request-Method': 'GET',
        });
        expect(preflight.status).toBe(204);
      }
      expect(remaining(await s.get('/databases'))).toBe(1);
      // A plain OPTIONS is a request like any other.
      const plain = await s.request('OPTIONS', `${bp}/databases`);
      expect(plain.status).toBe(204);
      expect(remaining(plain)).toBe(0);
    });
  });

  it('charges a batch one token per query up front; a refused batch costs nothing', async () => {
    await withServer({ RATE_LIMIT_RPM: '5' }, async (s) => {
      const first = await batchOf(s, 3);
      expect(first.status).toBe(200);
      expect(first.json.results.map((r: { status: number }) => r.status)).toEqual([200, 200, 200]);
      expect(remaining(first)).toBe(2);
      const refused = await batchOf(s, 3);
      expect(refused.status).toBe(429);
      expect(refused.json.type).toMatch(/\/rate-limited$/);
      expect(refused.json.detail).toMatch(/batch costs 3 tokens/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(remaining(refused)).toBe(2);
      const fits = await batchOf(s, 2);
      expect(fits.status).toBe(200);
      expect(remaining(fits)).toBe(0);
      expect((await s.get('/databases')).status).toBe(429);
    });
  });

  it('charges a malformed batch one token, and names a batch larger than the whole limit', async () => {
    await withServer({ RATE_LIMIT_RPM: '5' }, async (s) => {
      const bad = await s.request(
        'POST',
        `${new URL(s.base).pathname}/batch`,
        { 'Content-Type': 'text/plain' },
        '{}',
      );
      expect(bad.status).toBe(400);
      expect(remaining(bad)).toBe(4);
      const huge = await batchOf(s, 6);
      expect(huge.status).toBe(429);
      expect(huge.json.detail).toMatch(/split it/);
      expect(remaining(huge)).toBe(4);
    });
  });

  it('limits API-key guessing: the limit applies before the key check', async () => {
    await withServer({ RATE_LIMIT_RPM: '3', API_KEYS: 'secret-key' }, async (s) => {
      for (let i = 0; i < 3; i++)
        expect((await s.get('/databases', { 'X-API-Key': `guess-${i}` })).status).toBe(401);
      expect((await s.get('/databases', { 'X-API-Key': 'secret-key' })).status).toBe(429);
    });
  });

  it('cannot be skipped by forging the header of in-process batch queries', async () => {
    await withServer({ RATE_LIMIT_RPM: '2' }, async (s) => {
      const forged = { 'X-Publication-Internal': 'guess' };
      expect((await s.get('/databases', forged)).status).toBe(200);
      expect((await s.get('/databases', forged)).status).toBe(200);
      expect((await s.get('/databases', forged)).status).toBe(429);
    });
  });

  it('keeps separate buckets per server instance without Redis', async () => {
    await withServer({ RATE_LIMIT_RPM: '1' }, async (a) => {
      await withServer({ RATE_LIMIT_RPM: '1' }, async (b) => {
        expect((await a.get('/databases')).status).toBe(200);
        expect((await b.get('/databases')).status).toBe(200);
        expect((await a.get('/databases')).status).toBe(429);
      });
    });
  });
});
