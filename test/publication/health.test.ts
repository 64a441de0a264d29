import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MARIADB } from '../helpers/mariadb-availability.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

describe.each(engineCases())('health on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c);
  });
  afterAll(async () => s.close());

  it('reports ok with every database connected, never cached', async () => {
    const res = await s.get('/health');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: 'ok',
      databases: { [c.db]: 'connected' },
      circuit: { [c.db]: 'closed' },
      version: '2.1.0',
    });
    expect(typeof res.json.uptime).toBe('number');
    expect(new Date(res.json.timestamp).toISOString()).toBe(res.json.timestamp);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
  });

  it('answers a database named health under /health/tables without shadowing /health', async () => {
    // The static route wins; the database route still reaches a database called "health".
    const res = await s.get('/health/tables');
    expect(res.status).toBe(404);
    expect(res.json.detail).toMatch(/database "health"/);
  });
});

describe('health during an outage (SQLite file missing)', () => {
  const c = engineCases().find((e) => e.engine === 'sqlite')!;
  it('reads error with 503 while the file is gone and connected again once it is back', async () => {
    // A private copy: the shared fixture must stay in place for the suites running alongside.
    const dir = mkdtempSync(join(tmpdir(), 'health-'));
    const file = join(dir, `${c.db}.sqlite`);
    copyFileSync(join(inject('sqliteDir'), `${c.db}.sqlite`), file);
    const s = await startTestServer(c, { DB_NAMES: c.db, DB_SQLITE_DIR: dir });
    try {
      expect((await s.get('/health')).status).toBe(200);
      renameSync(file, `${file}.away`);
      const down = await s.get('/health');
      expect(down.status).toBe(503);
      expect(down.json).toMatchObject({
        status: 'error',
        databases: { [c.db]: 'error' },
        circuit: { [c.db]: 'open' },
      });
      // Known down: data requests are refused at once with a 503 problem and Retry-After.
      const refused = await s.get(`/${c.db}/tables/interview/records/1`);
      expectFailFast(refused);
    } finally {
      renameSync(`${file}.away`, file);
    }
    const up = await s.get('/health');
    expect(up.status).toBe(200);
    expect(up.json.databases[c.db]).toBe('connected');
    expect(up.json.circuit[c.db]).toBe('closed');
    expect((await s.get(`/${c.db}/tables/interview/records/1`)).status).toBe(200);
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe.runIf(engineCases().some((e) => e.engine === 'mariadb'))('health during an outage (MariaDB)', () => {
  const c = engineCases().find((e) => e.engine === 'mariadb')!;
  const proxy = new TcpProxy(MARIADB.host, MARIADB.port);
  let s: TestServer;
  beforeAll(async () => {
    const port = await proxy.open();
    s = await startTestServer(c, { DB_PORT: String(port), DB_NAMES: `${c.db},no_such_database_here` });
  });
  afterAll(async () => {
    await s.close();
    await proxy.close();
  });

  it('marks a database the server does not have as error', async () => {
    const res = await s.get('/health');
    expect(res.status).toBe(503);
    expect(res.json.databases).toEqual({ [c.db]: 'connected', no_such_database_here: 'error' });
  });

  it('goes to error when the server is unreachable and back to connected without a restart', async () => {
    expect((await s.get('/health')).json.databases[c.db]).toBe('connected');
    await proxy.close();
    const down = await s.get('/health');
    expect(down.status).toBe(503);
    expect(down.json.databases[c.db]).toBe('error');
    expect(down.json.circuit[c.db]).toBe('open');
    const records = await s.get(`/${c.db}/tables/interview/records/1`);
    expectFailFast(records);
    await proxy.open(proxy.port);
    const up = await s.get('/health');
    expect(up.json.databases[c.db]).toBe('connected');
    expect(up.json.circuit[c.db]).toBe('closed');
    expect((await s.get(`/${c.db}/tables/interview/records/1`)).status).toBe(200);
  });

  it('opens the breaker on a failed data query too, and a probe closes it once the server is back', async () => {
    expect((await s.get(`/${c.db}/tables/interview/records/1`)).status).toBe(200);
    await proxy.close();
    // The first query meets the outage itself (a connection error), the next ones are refused.
    expect((await s.get(`/${c.db}/tables/interview/records?limit=1`)).status).toBe(503);
    const refused = await s.get(`/${c.db}/tables/interview/records?limit=2`);
    expectFailFast(refused);
    const retryAfter = Number(refused.headers['retry-after']);
    await proxy.open(proxy.port);
    // No /health call: after Retry-After, the next data request probes and goes through.
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await s.get(`/${c.db}/tables/interview/records?limit=3`)).status).toBe(200);
    expect((await s.get('/health')).json.circuit[c.db]).toBe('closed');
  });
});

function expectFailFast(res: {
  status: number;
  headers: Record<string, unknown>;
  json: { type: string };
}): void {
  expect(res.status).toBe(503);
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  expect(res.json.type).toMatch(/\/database-unavailable$/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}
