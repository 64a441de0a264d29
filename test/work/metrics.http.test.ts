/**
 * The Prometheus endpoint of the work API (common/metrics.ts, work/metrics.ts), over HTTP on each
 * engine: after a login, a read, a held component lock, a publish run and a 404, the counters and
 * histograms moved for those routes and statuses, the sessions and locks gauges count the live
 * session and the held lock, the pool gauges are there (and the breaker's on PostgreSQL); the
 * token guard refuses in the envelope, and an empty WORK_METRICS_PATH turns it off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkConfig } from '../../src/work/config.js';
import { sampleValue } from '../helpers/prometheus-text.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertInterview } from '../helpers/work-permissions.js';
import { startTestWorkServer, TEST_ROOT_PASSWORD, type WorkServerHandle } from '../helpers/work-server.js';

const TOKEN = 'a-work-metrics-token-of-some-length';
const API = '/dedalo/core/api/v1/json';

const listRead = {
  action: 'read',
  source: {
    typo: 'source',
    type: 'section',
    action: 'search',
    model: 'section',
    tipo: 'oh1',
    section_tipo: 'oh1',
    section_id: null,
    mode: 'list',
    lang: 'lg-eng',
  },
  sqo: { section_tipo: ['oh1'], limit: 10, offset: 0 },
};

const focus = (sectionId: number) => ({
  dd_api: 'dd_utils_api',
  action: 'update_lock_components_state',
  prevent_lock: true,
  options: { section_tipo: 'oh1', section_id: sectionId, component_tipo: 'oh16', action: 'focus' },
});

describe.each(workEngineCases())('work metrics endpoint ($engine)', (engine) => {
  let work: WorkServerHandle;
  let origin: string;
  const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => {
    const res = await fetch(`${origin}/metrics`, { headers });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const count = (text: string, method: string, route: string, status: string) =>
    sampleValue(text, 'dedalo_http_requests_total', { method, route, status }) ?? 0;

  beforeAll(async () => {
    work = await startTestWorkServer(engine, { WORK_METRICS_TOKEN: TOKEN });
    origin = work.server.url.slice(0, -API.length);
  });
  afterAll(() => work?.stop());

  it('counts a login, a read, a lock, a publish run and a 404; gauges the session and the lock', async () => {
    // No scrape before: the session and lock counts are cached for a few seconds (work/metrics.ts),
    // and this server has answered nothing yet, so every count starts at zero.
    const root = work.browser();
    expect((await root.login('root', TEST_ROOT_PASSWORD)).status).toBe(200);
    expect((await root.post(listRead)).status).toBe(200);
    await insertInterview(work.server.db, 1, [1]);
    const locked = await root.post(focus(1));
    expect(locked.status, JSON.stringify(locked.body)).toBe(200);
    const published = await root.post({
      dd_api: 'dd_diffusion_api',
      action: 'diffuse',
      options: { section_tipo: 'oh1' },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect((await fetch(`${origin}/no/such/path`)).status).toBe(404);

    const after = await scrape();
    expect(after.status).toBe(200);
    expect(after.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = after.text;
    // login, read, focus and diffuse: four answers of the one RQO route.
    expect(count(text, 'POST', API, '200')).toBe(4);
    const rqo = { method: 'POST', route: API, status: '200' };
    expect(sampleValue(text, 'dedalo_http_request_duration_seconds_count', rqo)).toBe(4);
    expect(sampleValue(text, 'dedalo_http_request_duration_seconds_bucket', { ...rqo, le: '+Inf' })).toBe(4);
    expect(count(text, 'GET', 'unmatched', '404')).toBe(1);
    expect(text).not.toContain('no/such/path');
    expect(sampleValue(text, 'dedalo_work_sessions_active')).toBe(1);
    expect(sampleValue(text, 'dedalo_work_component_locks_active')).toBe(1);
    expect(sampleValue(text, 'dedalo_publish_runs_total', { target: 'test', outcome: 'success' })).toBe(1);
    expect(
      sampleValue(text, 'dedalo_publish_run_duration_seconds_count', { target: 'test', outcome: 'success' }),
    ).toBe(1);
    const pgEngine = engine.engine === 'postgres' ? 'postgres' : 'pglite';
    const size = sampleValue(text, 'dedalo_db_pool_connections', { engine: pgEngine, pool: 'work' });
    expect(size).toBeGreaterThan(0);
    expect(sampleValue(text, 'dedalo_db_pool_idle', { engine: pgEngine })).toBeLessThanOrEqual(
      size as number,
    );
    expect(sampleValue(text, 'dedalo_db_pool_waiting', { engine: pgEngine })).toBe(0);
    if (engine.engine === 'postgres')
      expect(sampleValue(text, 'dedalo_circuit_breaker_open', { breaker: 'work' })).toBe(0);
    expect(sampleValue(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('refuses a scrape without the token or with a wrong one, in the envelope', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer not-the-token-at-all-really' },
    ]) {
      const refused = await fetch(`${origin}/metrics`, { headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      const body = await refused.json();
      expect(body.ok).toBe(false);
      expect(body.error.code).toBe('http.unauthorized');
      expect(body.request_id).toBe(refused.headers.get('x-request-id'));
    }
  });
});

describe('work metrics configuration', () => {
  const [pglite] = workEngineCases();

  it('is off with an empty WORK_METRICS_PATH: the path answers http.not_found', async () => {
    if (!pglite) throw new Error('no pglite case');
    const work = await startTestWorkServer(pglite, { WORK_METRICS_PATH: '' });
    try {
      const origin = work.server.url.slice(0, -API.length);
      const answer = await fetch(`${origin}/metrics`);
      expect(answer.status).toBe(404);
      expect((await answer.json()).error.code).toBe('http.not_found');
    } finally {
      await work.stop();
    }
  });

  it('refuses a path inside WORK_BASE_PATH and a short token', () => {
    expect(() => loadWorkConfig({ WORK_METRICS_PATH: `${API}/metrics` })).toThrow(
      /must be outside WORK_BASE_PATH/,
    );
    expect(() => loadWorkConfig({ WORK_METRICS_TOKEN: 'short' })).toThrow(
      /WORK_METRICS_TOKEN must have at least 16/,
    );
    expect(loadWorkConfig({}).metrics).toEqual({ path: '/metrics' });
    expect(loadWorkConfig({ WORK_METRICS_PATH: '' }).metrics).toEqual({});
  });
});
