/**
 * The Prometheus endpoint of the publication API (common/metrics.ts), over HTTP on each engine:
 * after a record read and a 404, the request counter and latency histogram moved for exactly
 * those route patterns and statuses; the breaker gauge and the pool gauges are there; the
 * endpoint sits outside BASE_PATH, refuses scrapes without or with a wrong token (problem+json),
 * needs no API key, and is gone when METRICS_PATH is empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPublicationConfig } from '../../src/publication/config.js';
import { sampleValue } from '../helpers/prometheus-text.js';
import { engineCases, rawRequest, startTestServer, type TestServer } from '../helpers/publication-server.js';

const TOKEN = 'a-metrics-token-of-some-length';
const BASE = '/publication/server_api/v2';
const RECORD_ROUTE = `${BASE}/:db/tables/:table/records/:id`;

describe.each(engineCases())('metrics endpoint ($engine)', (c) => {
  let s: TestServer;
  let origin: string;
  const scrape = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
    rawRequest(`${origin}/metrics`, 'GET', headers);

  beforeAll(async () => {
    s = await startTestServer(c, { METRICS_TOKEN: TOKEN, API_KEYS: 'the-api-key' });
    origin = s.base.slice(0, -BASE.length);
  });
  afterAll(() => s?.close());

  it('counts real requests by route pattern and status, with their latency', async () => {
    const key = { 'x-api-key': 'the-api-key' };
    const before = (await scrape()).text;
    const count = (text: string, route: string, status: string) =>
      sampleValue(text, 'dedalo_http_requests_total', { method: 'GET', route, status }) ?? 0;
    const hist = (text: string, route: string, status: string) =>
      sampleValue(text, 'dedalo_http_request_duration_seconds_count', { method: 'GET', route, status }) ?? 0;

    expect((await s.get(`/${c.db}/tables/interview/records/1`, key)).status).toBe(200);
    expect((await s.get(`/${c.db}/tables/interview/records/2`, key)).status).toBe(200);
    expect((await s.get(`/${c.db}/tables/interview/records/999999999`, key)).status).toBe(404);
    expect((await s.get('/no/such/route/at/all', key)).status).toBe(404);

    const after = await scrape();
    expect(after.status).toBe(200);
    expect(after.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(after.headers['cache-control']).toBe('no-store');
    const text = after.text;
    expect(count(text, RECORD_ROUTE, '200') - count(before, RECORD_ROUTE, '200')).toBe(2);
    expect(hist(text, RECORD_ROUTE, '200') - hist(before, RECORD_ROUTE, '200')).toBe(2);
    expect(count(text, RECORD_ROUTE, '404') - count(before, RECORD_ROUTE, '404')).toBe(1);
    // An unknown path is one series, whatever the URL was: never the raw URL.
    expect(count(text, 'unmatched', '404') - count(before, 'unmatched', '404')).toBe(1);
    expect(text).not.toContain('/records/1"');
    expect(text).not.toContain('no/such/route');
    const sum = sampleValue(text, 'dedalo_http_request_duration_seconds_sum', {
      method: 'GET',
      route: RECORD_ROUTE,
      status: '200',
    });
    expect(sum).toBeGreaterThan(0);
    expect(
      sampleValue(text, 'dedalo_http_request_duration_seconds_bucket', {
        method: 'GET',
        route: RECORD_ROUTE,
        status: '200',
        le: '+Inf',
      }),
    ).toBe(hist(text, RECORD_ROUTE, '200'));
  });

  it('reports the circuit breaker, the pool and the process', async () => {
    const text = (await scrape()).text;
    expect(sampleValue(text, 'dedalo_circuit_breaker_open', { breaker: c.db })).toBe(0);
    const engine = c.engine === 'sqlite' ? 'sqlite' : 'mariadb';
    const size = sampleValue(text, 'dedalo_db_pool_connections', { engine });
    expect(size).toBeGreaterThan(0);
    expect(sampleValue(text, 'dedalo_db_pool_idle', { engine })).toBeLessThanOrEqual(size as number);
    expect(sampleValue(text, 'dedalo_db_pool_waiting', { engine })).toBe(0);
    expect(sampleValue(text, 'dedalo_db_pool_max', { engine })).toBeGreaterThanOrEqual(size as number);
    expect(sampleValue(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sampleValue(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('refuses a scrape without the token or with a wrong one, as a problem', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer wrong-token-of-some-length' },
      { authorization: TOKEN },
    ]) {
      const refused = await scrape(headers);
      expect(refused.status).toBe(401);
      expect(refused.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(refused.json.status).toBe(401);
      expect(refused.text).not.toContain('dedalo_http');
    }
  });

  it('is outside BASE_PATH, answers only GET (and HEAD), and needs no API key', async () => {
    expect((await s.get('/metrics', { 'x-api-key': 'the-api-key' })).status).toBe(404);
    // Another method is no scrape: the API's own rules (the key first, then 405).
    const post = await rawRequest(`${origin}/metrics`, 'POST', { 'x-api-key': 'the-api-key' });
    expect(post.status).toBe(405);
    expect(post.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect((await rawRequest(`${origin}/metrics`, 'HEAD', { authorization: `Bearer ${TOKEN}` })).status).toBe(
      200,
    );
  });
});

describe('metrics configuration', () => {
  const [sqlite] = engineCases();

  it('is off with an empty METRICS_PATH: the path is an ordinary 404', async () => {
    if (!sqlite) throw new Error('no sqlite case');
    const s = await startTestServer(sqlite, { METRICS_PATH: '' });
    try {
      const origin = s.base.slice(0, -BASE.length);
      const answer = await rawRequest(`${origin}/metrics`);
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    } finally {
      await s.close();
    }
  });

  it('serves another path, without a token when none is set', async () => {
    if (!sqlite) throw new Error('no sqlite case');
    const s = await startTestServer(sqlite, { METRICS_PATH: '/internal/prometheus' });
    try {
      const origin = s.base.slice(0, -BASE.length);
      const answer = await rawRequest(`${origin}/internal/prometheus`);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('# TYPE dedalo_http_requests_total counter');
    } finally {
      await s.close();
    }
  });

  it('refuses a path inside BASE_PATH, a malformed path and a short token', () => {
    const env = { DB_DRIVER: 'sqlite' };
    expect(() => loadPublicationConfig({ ...env, METRICS_PATH: `${BASE}/metrics` })).toThrow(
      /METRICS_PATH "\/publication\/server_api\/v2\/metrics" must be outside BASE_PATH/,
    );
    expect(() => loadPublicationConfig({ ...env, METRICS_PATH: 'metrics' })).toThrow(
      /METRICS_PATH must be a path/,
    );
    expect(() => loadPublicationConfig({ ...env, METRICS_PATH: '/metrics/' })).toThrow(
      /METRICS_PATH must be a path/,
    );
    expect(() => loadPublicationConfig({ ...env, METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN must have at least 16/,
    );
    expect(loadPublicationConfig(env).metrics).toEqual({ path: '/metrics' });
    expect(loadPublicationConfig({ ...env, METRICS_PATH: ' ' }).metrics).toEqual({});
  });
});
