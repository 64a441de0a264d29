import { describe, expect, it } from 'vitest';
import type { ConfigError } from '../../src/common/config-error.js';
import { loadPublicationConfig } from '../../src/publication/config.js';
import {
  engineCases,
  type HttpResult,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';

// CORS never touches the database, so one engine is enough.
const c = engineCases().find((e) => e.engine === 'sqlite')!;
const SITE = 'https://archive.example.org';
const OTHER = 'https://evil.example.net';

async function withServer(env: Record<string, string>, fn: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startTestServer(c, env);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

const preflight = (s: TestServer, origin: string, path = '/databases') =>
  s.request('OPTIONS', `${new URL(s.base).pathname}${path}`, {
    Origin: origin,
    'Access-Control-Request-Method': 'GET',
    'Access-Control-Request-Headers': 'x-api-key',
  });
const varyOf = (res: HttpResult) =>
  String(res.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '');
const corsHeaders = (res: HttpResult) =>
  Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));

describe('CORS_ORIGIN configuration', () => {
  const problems = (value: string) => {
    try {
      loadPublicationConfig({ CORS_ORIGIN: value });
      return '';
    } catch (err) {
      return (err as ConfigError).problems.join('\n');
    }
  };

  it('accepts *, one origin or a list, normalised the way browsers send Origin', () => {
    expect(loadPublicationConfig({}).corsOrigin).toBeUndefined();
    expect(loadPublicationConfig({ CORS_ORIGIN: '*' }).corsOrigin).toBe('*');
    expect(loadPublicationConfig({ CORS_ORIGIN: 'https://Archive.Example.org/' }).corsOrigin).toEqual([SITE]);
    expect(
      loadPublicationConfig({ CORS_ORIGIN: ' https://a.example:443 , http://localhost:5173 ' }).corsOrigin,
    ).toEqual(['https://a.example', 'http://localhost:5173']);
  });

  it('refuses anything that is not an origin', () => {
    for (const bad of [
      'archive.example.org',
      'https://a.example/path',
      'ftp://a.example',
      '*, https://a.example',
      'https://a.example,,https://b.example',
    ]) {
      expect(problems(bad), bad).toMatch(/CORS_ORIGIN must be \*, or origins/);
    }
  });
});

describe('CORS', () => {
  it('sends no CORS headers when CORS_ORIGIN is unset', async () => {
    await withServer({}, async (s) => {
      const res = await s.get('/databases', { Origin: SITE });
      expect(res.status).toBe(200);
      expect(corsHeaders(res)).toEqual([]);
      const pre = await preflight(s, SITE);
      expect(pre.status).toBe(204); // the ordinary OPTIONS answer, which the browser will refuse
      expect(corsHeaders(pre)).toEqual([]);
    });
  });

  it('answers an allowed origin, exposing the headers a page needs, and varies on Origin', async () => {
    await withServer({ CORS_ORIGIN: `${SITE}, http://localhost:5173` }, async (s) => {
      const res = await s.get(`/${c.db}/tables/interview/records?limit=1`, { Origin: SITE });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(SITE);
      const exposed = String(res.headers['access-control-expose-headers']).split(/,\s*/);
      expect(exposed).toEqual(
        expect.arrayContaining([
          'Link',
          'ETag',
          'X-Response-Time',
          'X-Request-Id',
          'Content-Language',
          'Retry-After',
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
        ]),
      );
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(varyOf(res)).toContain('origin');
      const local = await s.get('/databases', { Origin: 'http://localhost:5173' });
      expect(local.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    });
  });

  it('gives a disallowed origin no CORS headers, and still varies on Origin', async () => {
    await withServer({ CORS_ORIGIN: SITE }, async (s) => {
      for (const res of [await s.get('/databases', { Origin: OTHER }), await preflight(s, OTHER)]) {
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        expect(res.headers['access-control-allow-methods']).toBeUndefined();
        expect(varyOf(res)).toContain('origin');
      }
      // An answer without Origin may be cached and replayed to a browser: it varies too.
      expect(varyOf(await s.get('/databases'))).toContain('origin');
    });
  });

  it('answers a preflight with 204 and the allowed methods, headers and max age, without a key', async () => {
    await withServer({ CORS_ORIGIN: SITE, API_KEYS: 'k1' }, async (s) => {
      for (const path of ['/databases', '/batch', `/${c.db}/tables/interview/records/1`]) {
        const res = await preflight(s, SITE, path);
        expect(res.status, path).toBe(204);
        expect(res.body.length).toBe(0);
        expect(res.headers['access-control-allow-origin']).toBe(SITE);
        expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, OPTIONS');
        expect(res.headers['access-control-allow-headers']).toBe(
          'Content-Type, X-API-Key, If-None-Match, X-Request-Id',
        );
        expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
        expect(varyOf(res)).toContain('origin');
      }
    });
  });

  it('with *, answers every origin alike, so nothing varies on Origin', async () => {
    await withServer({ CORS_ORIGIN: '*' }, async (s) => {
      const res = await s.get('/databases', { Origin: OTHER });
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(varyOf(res)).not.toContain('origin');
      const pre = await preflight(s, 'null');
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('*');
    });
  });

  it('lets a page read refusals: 401 and 429 carry CORS headers and Retry-After is exposed', async () => {
    await withServer({ CORS_ORIGIN: SITE, API_KEYS: 'k1', RATE_LIMIT_RPM: '1' }, async (s) => {
      const unauthorized = await s.get('/databases', { Origin: SITE });
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers['access-control-allow-origin']).toBe(SITE);
      const limited = await s.get('/databases', { Origin: SITE, 'X-API-Key': 'k1' });
      expect(limited.status).toBe(429);
      expect(limited.headers['access-control-allow-origin']).toBe(SITE);
      expect(limited.headers['access-control-expose-headers']).toMatch(/Retry-After/);
      expect(limited.headers['retry-after']).toBeDefined();
    });
  });

  it('keeps the other Vary entries (API key, compression) next to Origin', async () => {
    await withServer({ CORS_ORIGIN: SITE, API_KEYS: 'k1' }, async (s) => {
      const res = await s.get(`/${c.db}/tables/interview/records?limit=50`, {
        Origin: SITE,
        'X-API-Key': 'k1',
        'Accept-Encoding': 'gzip',
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(varyOf(res)).toEqual(expect.arrayContaining(['x-api-key', 'origin', 'accept-encoding']));
    });
  });
});
