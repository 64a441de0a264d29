import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCases, rawRequest, startTestServer, type TestServer } from '../helpers/publication-server.js';

describe.each(engineCases())('cross-cutting HTTP behaviour on $engine', (c) => {
  let s: TestServer;
  const page = () => `/${c.db}/tables/interview/records?limit=50`;

  beforeAll(async () => {
    s = await startTestServer(c, { CACHE_MAX_AGE: '120', BASE_PATH: '/archive/api/v2' });
  });
  afterAll(async () => s.close());

  it('serves every route under BASE_PATH and 404s outside it', async () => {
    expect(new URL(s.base).pathname).toBe('/archive/api/v2');
    expect((await s.get('/databases')).status).toBe(200);
    const outside = await s.request('GET', '/publication/server_api/v2/databases');
    expect(outside.status).toBe(404);
    expect(outside.json.type).toMatch(/\/not-found$/);
  });

  it('puts a weak ETag on cacheable responses and answers a matching If-None-Match with 304', async () => {
    const first = await s.get(page());
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=120');
    // The timing field changes between calls, the ETag must not.
    const second = await s.get(page());
    expect(second.headers.etag).toBe(etag);
    const notModified = await s.get(page(), { 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    const listed = await s.get(page(), { 'If-None-Match': `W/"other", ${etag}` });
    expect(listed.status).toBe(304);
    const other = await s.get(`/${c.db}/tables/interview/records?limit=51`, { 'If-None-Match': etag });
    expect(other.status).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
  });

  it('reports the processing time in X-Response-Time and meta.response_time_ms', async () => {
    const res = await s.get(page());
    expect(res.headers['x-response-time']).toMatch(/^\d+(\.\d+)?ms$/);
    expect(res.json.meta.response_time_ms).toBeGreaterThanOrEqual(0);
  });

  it('echoes a sane incoming X-Request-Id and mints one otherwise', async () => {
    const echoed = await s.get('/databases', { 'X-Request-Id': 'trace-abc.123' });
    expect(echoed.headers['x-request-id']).toBe('trace-abc.123');
    const minted = await s.get('/databases');
    const again = await s.get('/databases');
    // Minted ids are tokens a log search can use, and no two requests share one.
    expect(minted.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{11,}$/);
    expect(again.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{11,}$/);
    expect(again.headers['x-request-id']).not.toBe(minted.headers['x-request-id']);
    const hostile = await s.get('/databases', { 'X-Request-Id': 'a b<script>' });
    expect(hostile.headers['x-request-id']).not.toBe('a b<script>');
  });

  it('compresses with gzip or brotli as the client negotiates', async () => {
    const plain = await s.get(page());
    const gz = await s.get(page(), { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const br = await s.get(page(), { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    const strip = (b: Buffer) => JSON.parse(b.toString()).data;
    expect(strip(gunzipSync(gz.body))).toEqual(plain.json.data);
    expect(strip(brotliDecompressSync(br.body))).toEqual(plain.json.data);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('compresses only bodies worth it, and tells caches which answers vary on the encoding', async () => {
    // A body of a few dozen bytes is sent as it is even to a client that asks for compression.
    const small = await s.get('/health', { 'Accept-Encoding': 'gzip, br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json.status).toBeDefined();
    // A large body varies on Accept-Encoding even for a client that did not ask.
    const plain = await s.get(page(), { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/Accept-Encoding/i);
    // Weights are honoured: gzip preferred over brotli here, nothing acceptable means identity.
    const weighted = await s.get(page(), { 'Accept-Encoding': 'br;q=0.5, gzip' });
    expect(weighted.headers['content-encoding']).toBe('gzip');
    const refused = await s.get(page(), { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.json.data).toEqual(plain.json.data);
  });

  it('answers HEAD wherever GET works, with headers and no body', async () => {
    const res = await s.request('HEAD', `${new URL(s.base).pathname}${page()}`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(res.headers.etag).toMatch(/^W\//);
  });

  it('answers a wrong method with 405 and Allow, and an unknown route with 404', async () => {
    const bp = new URL(s.base).pathname;
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await s.request(method, `${bp}${page()}`);
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.json.type).toMatch(/\/method-not-allowed$/);
    }
    // The root with a trailing slash is the same route (Fastify adds it for GET silently).
    for (const method of ['OPTIONS', 'DELETE']) {
      const res = await s.request(method, `${bp}/`);
      expect(res.headers.allow, method).toBe('GET, HEAD');
    }
    const unknown = await s.get('/no/such/route/here');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({
      status: 404,
      title: 'Not Found',
      instance: `${bp}/no/such/route/here`,
    });
    // RFC 9457 problems, each with its `errors` list (empty when no parameter is at fault).
    expect(unknown.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(unknown.json.errors).toEqual([]);
    const wrong = await s.request('DELETE', `${bp}${page()}`);
    expect(wrong.json.errors).toEqual([]);
  });

  it('serves the JSON index with the same ETag every time and 304 on a match', async () => {
    const first = await s.get('/');
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['cache-control']).toBe('public, max-age=120');
    expect(first.json.links.databases).toBe(`${new URL(s.base).pathname}/databases`);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await s.get('/');
    expect(again.headers.etag).toBe(etag);
    expect(again.body).toEqual(first.body);
    const notModified = await s.get('/', { 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
  });

  it('serves the favicon as 204 with no body', async () => {
    const res = await s.get('/favicon.ico');
    expect(res.status).toBe(204);
    expect(res.body.length).toBe(0);
    const root = await s.request('GET', '/favicon.ico');
    expect(root.status).toBe(204);
  });

  it('answers malformed percent-encoding with a 400 problem, not a 500', async () => {
    const query = await s.get(`/${c.db}/tables/interview/records?filter%5Btitle%5D=%E0%A4%A`);
    expect(query.status).toBe(400);
    expect(query.json.errors.length).toBeGreaterThan(0);
    const path = await s.get(`/${c.db}/tables/inter%ZZview/records`);
    expect(path.status).toBe(400);
    expect(path.headers['content-type']).toMatch(/problem\+json/);
    const url = `${new URL(s.base).pathname}/${c.db}/tables/inter%ZZview/records`;
    expect(path.json.detail).toBe(`'${url}' is not a valid url component`);
    expect(path.json.errors).toEqual([{ name: 'url', in: 'path', detail: path.json.detail }]);
  });

  it('says how large a body may be when it refuses one', async () => {
    const res = await s.request(
      'POST',
      `${new URL(s.base).pathname}/batch`,
      { 'content-type': 'application/json' },
      `{"queries":[],"pad":"${'x'.repeat(1_100_000)}"}`,
    );
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(res.json.detail).toBe(
      'Request body is too large: at most 1048576 bytes (1024 KiB) are accepted here',
    );
  });

  it('never caches problems', async () => {
    const res = await s.get('/nodb/tables');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
  });
});

describe('when the database is unreachable', () => {
  it('answers 503 with a problem instead of a 500', async () => {
    const { loadPublicationConfig } = await import('../../src/publication/config.js');
    const { startPublicationServer } = await import('../../src/publication/server.js');
    const server = await startPublicationServer(
      loadPublicationConfig({
        PORT: '0',
        LOG_LEVEL: 'silent',
        DB_DRIVER: 'mariadb',
        DB_HOST: '127.0.0.1',
        DB_PORT: '9', // discard port: nothing listens, the connection is refused at once
        DB_NAMES: 'gone',
      }),
    );
    try {
      const res = await rawRequest(`${server.url}/gone/tables`);
      expect(res.status).toBe(503);
      expect(res.json.type).toMatch(/\/database-unavailable$/);
    } finally {
      await server.close();
    }
  });
});
