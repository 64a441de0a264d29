/**
 * MEDIA_DIR over HTTP: its files are served at {BASE_PATH}/media/ (byte ranges too), relative
 * media paths of the API then point there (`video_url`), nothing outside the folder or hidden in
 * it is reachable, folders are not listed, and without MEDIA_DIR there is no such route. The
 * engine does not matter here: SQLite's test archive.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

describe('MEDIA_DIR served by the publication server', () => {
  const c = engineCases()[0]!;
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'media-dir-'));
    mkdirSync(join(dir, 'media', 'av'), { recursive: true });
    writeFileSync(join(dir, 'media', 'av', 'clip.mp4'), Buffer.alloc(1000, 7));
    writeFileSync(join(dir, 'media', '.secret'), 'hidden');
    writeFileSync(join(dir, 'outside.txt'), 'not media');
    s = await startTestServer(c, { MEDIA_DIR: join(dir, 'media') });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves its files, byte ranges included, and nothing else', async () => {
    const whole = await s.get('/media/av/clip.mp4');
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.body.length).toBe(1000);
    const part = await s.get('/media/av/clip.mp4', { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/1000');
    expect(part.body.length).toBe(100);
    expect((await s.get('/media/av/none.mp4')).status).toBe(404);
    expect((await s.get('/media/av/')).status).toBe(404);
    expect((await s.get('/media/.secret')).status).not.toBe(200);
    expect((await s.get('/media/..%2Foutside.txt')).status).not.toBe(200);
    expect((await s.get('/media/%2e%2e/outside.txt')).status).not.toBe(200);
  });

  it('points relative media paths of the API there', async () => {
    const av = await s.get(`/${c.db}/tables/audiovisual/records?limit=100&fields=section_id,video`);
    const relative = av.json.data.find((r: { video: string }) => r.video.startsWith('av/'));
    expect(relative).toBeDefined();
    // The browse record page's player loads it from MEDIA_DIR's route.
    const page = await s.get(`/browse/${c.db}/audiovisual/${relative.section_id}`);
    expect(page.text).toContain(
      `<video controls preload="metadata" src="/publication/server_api/v2/media/${relative.video}"`,
    );
  });

  it('has no media route without MEDIA_DIR', async () => {
    const plain = await startTestServer(c);
    try {
      expect((await plain.get('/media/av/clip.mp4')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
