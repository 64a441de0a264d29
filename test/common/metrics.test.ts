/**
 * The shared metrics (common/metrics.ts) on their own: the request counter and histogram, kept as
 * plain numbers and exposed at scrape time, read back as Prometheus text: cumulative buckets,
 * +Inf equal to the count, the sum, one series per method, route and status; gauges from
 * pools and breakers; publish runs. prom-client loads with the first scrape, not before (a
 * process that imports the metrics and counts answers has not loaded it).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { ServerMetrics, UNMATCHED_ROUTE } from '../../src/common/metrics.js';
import { compiledEntry } from '../helpers/compiled-sources.js';
import { parseSamples, sampleValue } from '../helpers/prometheus-text.js';

describe('ServerMetrics', () => {
  it('exposes answers as a counter and a cumulative histogram per method, route and status', async () => {
    const m = new ServerMetrics();
    const route = '/api/:db/records/:id';
    for (const seconds of [0.0005, 0.003, 0.003, 0.2, 40]) m.observeRequest('GET', route, 200, seconds);
    m.observeRequest('GET', undefined, 404, 0.001);
    m.observeRequest('POST', route, 200, 0.002);
    const text = (await m.render()).body;
    const get = { method: 'GET', route, status: '200' };
    expect(sampleValue(text, 'dedalo_http_requests_total', get)).toBe(5);
    expect(sampleValue(text, 'dedalo_http_requests_total', { method: 'POST', route, status: '200' })).toBe(1);
    expect(sampleValue(text, 'dedalo_http_requests_total', { route: UNMATCHED_ROUTE, status: '404' })).toBe(
      1,
    );
    expect(sampleValue(text, 'dedalo_http_request_duration_seconds_count', get)).toBe(5);
    expect(sampleValue(text, 'dedalo_http_request_duration_seconds_sum', get)).toBeCloseTo(40.2065, 6);
    const bucket = (le: string) =>
      sampleValue(text, 'dedalo_http_request_duration_seconds_bucket', { ...get, le });
    expect(bucket('0.001')).toBe(1);
    expect(bucket('0.005')).toBe(3);
    expect(bucket('0.25')).toBe(4);
    expect(bucket('30')).toBe(4);
    expect(bucket('+Inf')).toBe(5);
    const buckets = parseSamples(text)
      .filter((s) => s.name === 'dedalo_http_request_duration_seconds_bucket' && s.labels.method === 'GET')
      .filter((s) => s.labels.route === route)
      .map((s) => s.value);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(text).toContain('# TYPE dedalo_http_requests_total counter');
    expect(text).toContain('# TYPE dedalo_http_request_duration_seconds histogram');
  });

  it('reads pools and breakers at scrape time, and counts publish runs', async () => {
    const m = new ServerMetrics();
    let open = false;
    m.addBreakers(() => ({ a: open ? 'open' : 'closed' }));
    m.addPools(() => [{ engine: 'sqlite', pool: 'workers', size: 2, idle: 1, waiting: 3, max: 2 }]);
    m.observePublishRun('t', 'success', 1.5);
    m.observePublishRun('t', 'refused', 0.1);
    let text = (await m.render()).body;
    expect(sampleValue(text, 'dedalo_circuit_breaker_open', { breaker: 'a' })).toBe(0);
    expect(sampleValue(text, 'dedalo_db_pool_waiting', { engine: 'sqlite', pool: 'workers' })).toBe(3);
    expect(sampleValue(text, 'dedalo_publish_runs_total', { target: 't', outcome: 'success' })).toBe(1);
    expect(
      sampleValue(text, 'dedalo_publish_run_duration_seconds_sum', { target: 't', outcome: 'success' }),
    ).toBe(1.5);
    open = true;
    text = (await m.render()).body;
    expect(sampleValue(text, 'dedalo_circuit_breaker_open', { breaker: 'a' })).toBe(1);
  });

  it('loads prom-client with the first scrape, not when the server counts answers', async () => {
    const module = await compiledEntry(inject('testRunId'), 'src/common/metrics.js');
    // A fresh process: this one has loaded prom-client long ago.
    const script = `
      import { createRequire } from 'node:module';
      const { ServerMetrics } = await import(${JSON.stringify(module)});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/prom-client/'));
      const m = new ServerMetrics();
      m.addPools(() => [{ engine: 'sqlite', pool: 'workers', size: 1, idle: 1, waiting: 0, max: 2 }]);
      m.observeRequest('GET', '/x', 200, 0.002);
      const before = loaded();
      const { body } = await m.render();
      console.log(JSON.stringify({ before, after: loaded(), body }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    const { before, after, body } = JSON.parse(stdout) as { before: boolean; after: boolean; body: string };
    expect(before).toBe(false);
    expect(after).toBe(true);
    expect(
      sampleValue(body, 'dedalo_http_requests_total', { method: 'GET', route: '/x', status: '200' }),
    ).toBe(1);
    expect(sampleValue(body, 'dedalo_db_pool_max', { engine: 'sqlite', pool: 'workers' })).toBe(2);
    expect(sampleValue(body, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});
