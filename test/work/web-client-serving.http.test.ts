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
});
