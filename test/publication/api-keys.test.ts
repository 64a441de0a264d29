import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesAnySecret } from '../../src/common/constant-time.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

describe('constant-time key matching', () => {
  it('matches only exact keys, whatever their length', () => {
    expect(matchesAnySecret('k2', ['k1', 'k2'])).toBe(true);
    expect(matchesAnySecret('k', ['k1', 'k2'])).toBe(false);
    expect(matchesAnySecret('k22', ['k1', 'k2'])).toBe(false);
    expect(matchesAnySecret('', ['k1'])).toBe(false);
  });
});

describe.each(engineCases())('API keys on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c, { API_KEYS: ' alpha-key , beta-key ' });
  });
  afterAll(async () => s.close());

  it('refuses a missing or wrong key with a 401 problem', async () => {
    const missing = await s.get('/databases');
    expect(missing.status).toBe(401);
    expect(missing.json.type).toMatch(/\/unauthorized$/);
    expect(missing.headers['www-authenticate']).toMatch(/X-API-Key/);
    const wrong = await s.get('/databases', { 'X-API-Key': 'alpha-ke' });
    expect(wrong.status).toBe(401);
  });

  it('accepts every listed key, trimmed, and makes cacheable answers private', async () => {
    for (const key of ['alpha-key', 'beta-key']) {
      const res = await s.get(`/${c.db}/tables/interview/records?limit=1`, { 'X-API-Key': key });
      expect(res.status, key).toBe(200);
      expect(res.headers['cache-control']).toMatch(/^private, max-age=/);
      expect(res.headers.vary).toMatch(/X-API-Key/);
    }
  });

  it('leaves the favicon open', async () => {
    expect((await s.get('/favicon.ico')).status).toBe(204);
  });
});
