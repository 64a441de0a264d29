import { describe, expect, it } from 'vitest';
import type { ConfigError } from '../../src/common/config-error.js';
import { loadPublicationConfig } from '../../src/publication/config.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

// Client addresses never touch the database, so one engine is enough.
const c = engineCases().find((e) => e.engine === 'sqlite')!;

async function withServer(env: Record<string, string>, fn: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startTestServer(c, { RATE_LIMIT_RPM: '100', ...env });
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

/** Remaining tokens of the bucket this request was charged to. */
const left = async (s: TestServer, forwardedFor?: string) =>
  Number(
    (await s.get('/databases', forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor }))
      .headers['ratelimit-remaining'],
  );

describe('TRUST_PROXY configuration', () => {
  it('defaults to the local host in the proxy modes and to nothing standalone', () => {
    expect(loadPublicationConfig({}).trustProxy).toEqual([]);
    expect(loadPublicationConfig({ DEPLOYMENT_MODE: 'nginx' }).trustProxy).toEqual(['127.0.0.1', '::1']);
    expect(loadPublicationConfig({ DEPLOYMENT_MODE: 'apache' }).trustProxy).toEqual(['127.0.0.1', '::1']);
    expect(
      loadPublicationConfig({ DEPLOYMENT_MODE: 'nginx', TRUST_PROXY: '10.0.0.0/8, fd00::/8' }).trustProxy,
    ).toEqual(['10.0.0.0/8', 'fd00::/8']);
  });

  it('names every invalid entry', () => {
    let problems: string[] = [];
    try {
      loadPublicationConfig({ TRUST_PROXY: '10.0.0.0/8, proxy.local, 10.0.0.1/40' });
    } catch (err) {
      problems = (err as ConfigError).problems;
    }
    expect(problems.join('\n')).toMatch(/TRUST_PROXY item "proxy.local" is not an IP address/);
    expect(problems.join('\n')).toMatch(/TRUST_PROXY item "10.0.0.1\/40" has a prefix length/);
  });
});

describe('client address over HTTP', () => {
  it('standalone: the socket peer, whatever X-Forwarded-For claims', async () => {
    await withServer({}, async (s) => {
      expect(await left(s, '203.0.113.1')).toBe(99);
      expect(await left(s, '203.0.113.2')).toBe(98);
      expect(await left(s)).toBe(97);
    });
  });

  it('behind nginx: each forwarded client has its own bucket, and forged hops change nothing', async () => {
    await withServer({ DEPLOYMENT_MODE: 'nginx' }, async (s) => {
      expect(await left(s, '203.0.113.1')).toBe(99);
      expect(await left(s, '203.0.113.2')).toBe(99);
      expect(await left(s, '203.0.113.1')).toBe(98);
      // A client that prepends addresses still lands in the bucket of the address nginx appended.
      expect(await left(s, '198.51.100.7, 10.9.9.9, 203.0.113.1')).toBe(97);
      // A proxy chain (a CDN's node, then our local proxy) is walked past trusted hops only.
      expect(await left(s, '203.0.113.1, 127.0.0.1')).toBe(96);
      // Without the header, the request is the proxy's own.
      expect(await left(s)).toBe(99);
    });
  });

  it('believes X-Forwarded-For only from the proxies listed in TRUST_PROXY', async () => {
    await withServer({ DEPLOYMENT_MODE: 'apache', TRUST_PROXY: '10.0.0.0/8' }, async (s) => {
      // The test client connects from 127.0.0.1, which is not listed: its header is ignored.
      expect(await left(s, '203.0.113.1')).toBe(99);
      expect(await left(s, '203.0.113.2')).toBe(98);
    });
    await withServer({ TRUST_PROXY: '127.0.0.0/8' }, async (s) => {
      // TRUST_PROXY alone (a proxy that is neither apache nor nginx) enables forwarding too.
      expect(await left(s, '203.0.113.1')).toBe(99);
      expect(await left(s, '203.0.113.2')).toBe(99);
    });
  });

  it('charges IPv6 clients per /64', async () => {
    await withServer({ DEPLOYMENT_MODE: 'nginx' }, async (s) => {
      expect(await left(s, '2001:db8:1:2::1')).toBe(99);
      expect(await left(s, '2001:db8:1:2:ffff::9')).toBe(98);
      expect(await left(s, '2001:db8:1:3::1')).toBe(99);
    });
  });
});
