/**
 * The work server serves the built web client at WORK_UI_PATH: index.html with the API path
 * written in and no-cache, hashed assets with a long immutable cache, an unknown file as the
 * API's 404 envelope, and the API path unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureClientBuilt } from '../helpers/client-browser.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { startTestWorkServer, type WorkServerHandle } from '../helpers/work-server.js';

describe('web client files', () => {
  let work: WorkServerHandle;
  let origin: string;

  beforeAll(async () => {
    ensureClientBuilt();
    work = await startTestWorkServer(workEngineCases()[0]!, {
      WORK_UI_PATH: '/ui/',
      WORK_BASE_PATH: '/api/json',
    });
    origin = new URL(work.server.url).origin;
  }, 120_000);

  afterAll(async () => {
    await work?.stop();
  });

  it('serves index.html at WORK_UI_PATH (with or without the slash), with the API path and no-cache', async () => {
    const bare = await fetch(`${origin}/ui`);
    expect(bare.status).toBe(200);
    const index = await fetch(`${origin}/ui/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await index.text();
    expect(html).toContain('<meta name="dedalo-api-url" content="/api/json" />');
    expect(html).not.toContain('%DEDALO_API_URL%');

    const asset = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(html)![1];
    const js = await fetch(`${origin}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-type')).toMatch(/javascript/);
  });

  it('answers an unknown file with the 404 envelope, and the API still at its path', async () => {
    const missing = await fetch(`${origin}/ui/assets/nope.js`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('http.not_found');
    const rootPage = await fetch(`${origin}/`);
    expect(rootPage.status).toBe(404);
    const start = await work.post({ action: 'start' });
    expect(start.body.ok).toBe(true);
  });
  it('answers any method but POST and OPTIONS on the RQO endpoint with 405, Allow: POST and how to call it', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      for (const path of ['/api/json', '/api/json/']) {
        const res = await fetch(`${origin}${path}`, { method });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const body = await res.json();
        expect(body).toMatchObject({
          ok: false,
          request_id: res.headers.get('x-request-id'),
          error: { code: 'http.method_not_allowed', category: 'method_not_allowed', retryable: false },
        });
        expect(body.error.message).toMatch(/POST a JSON RQO/);
      }
    }
    const head = await fetch(`${origin}/api/json`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST');
    // Nothing else changes: OPTIONS, the media route below the endpoint, the client's pages.
    expect((await fetch(`${origin}/api/json`, { method: 'OPTIONS' })).status).not.toBe(405);
    const media = await fetch(`${origin}/api/json/media/rsc170/1/rsc29/a.jpg`);
    expect(media.status).toBe(401);
    expect((await media.json()).error.code).toBe('auth.not_logged');
    expect((await fetch(`${origin}/api/json/other`)).status).toBe(404);
    expect((await fetch(`${origin}/ui/`)).status).toBe(200);
    expect((await work.post({ action: 'start' })).body.ok).toBe(true);
  });
});
