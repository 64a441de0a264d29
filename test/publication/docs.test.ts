import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

/** The `src` of every external script of an HTML page. */
const scriptSources = (html: string) => [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);

describe('docs paths as the spec lists them, with and without a trailing slash', () => {
  const bp = '/behind/proxy/v2';
  let s: TestServer;
  let origin: string;
  beforeAll(async () => {
    s = await startTestServer(engineCases()[0]!, { BASE_PATH: bp });
    origin = s.base.slice(0, -bp.length);
  });
  afterAll(async () => {
    await s.close();
  });

  it('answers GET /docs/ with the landing page, as GET /docs', async () => {
    const plain = await s.get('/docs');
    const slash = await s.get('/docs/');
    expect(slash.status).toBe(200);
    expect(slash.headers['content-type']).toMatch(/^text\/html/);
    expect(slash.text).toBe(plain.text);
    expect(slash.text).toContain(`href="${bp}/docs/swagger"`);
  });

  it('answers GET /docs/swagger/ with the Swagger UI page, as GET /docs/swagger', async () => {
    const plain = await s.get('/docs/swagger');
    const slash = await s.get('/docs/swagger/');
    expect(slash.status).toBe(200);
    expect(slash.text).toBe(plain.text);
    expect(slash.text).toContain(`src="${bp}/docs/swagger/swagger-ui-bundle.js"`);
  });

  it('answers GET /docs/scalar with the Scalar page itself (200, no redirect), and /docs/scalar/ the same', async () => {
    const page = await s.get('/docs/scalar');
    expect(page.status).toBe(200);
    expect(page.headers.location).toBeUndefined();
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Scalar.createApiReference');
    expect(page.text).toContain(`"url":"${bp}/openapi.json"`);
    const slash = await s.get('/docs/scalar/');
    expect(slash.status).toBe(200);
    expect(slash.text).toBe(page.text);
  });

  it('points the Scalar page at scripts that load from either form of the URL', async () => {
    const page = await s.get('/docs/scalar');
    const sources = scriptSources(page.text);
    expect(sources.length).toBeGreaterThan(0);
    for (const from of [`${s.base}/docs/scalar`, `${s.base}/docs/scalar/`]) {
      for (const src of sources) {
        // Resolved as a browser would against the page's own URL.
        const url = new URL(src, from);
        expect(url.origin).toBe(origin);
        const res = await s.request('GET', url.pathname);
        expect(res.status, `${src} from ${from}`).toBe(200);
        expect(res.headers['content-type']).toMatch(/javascript/);
      }
    }
  });
});
