/**
 * Refusals the work API gives before any RQO is read: an oversized header block, raw bytes
 * 0x80-0xff or garbage in the request line, a malformed percent-encoding in the path. Each is the
 * v2 envelope with a registered code and its X-Request-Id, never Fastify's or Node's own answer.
 * The database plays no part, so one engine is enough.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_REGISTRY } from '../../src/work/dispatch/error-registry.js';
import { oversizedHeaderRequest, type RawAnswer, rawBytesRequest, sendRaw } from '../helpers/raw-socket.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { startTestWorkServer, type WorkServerHandle } from '../helpers/work-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectEnvelope(res: RawAnswer, code: keyof typeof ERROR_REGISTRY, status: number): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json).toMatchObject({
    ok: false,
    error: { code, category: ERROR_REGISTRY[code].category, label_key: ERROR_REGISTRY[code].label_key },
  });
  expect(res.json.request_id).toMatch(UUID);
  expect(res.headers['x-request-id']).toBe(res.json.request_id);
}

describe('work API transport refusals', () => {
  const engine = workEngineCases()[0]!;
  let work: WorkServerHandle;
  let basePath: string;
  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    basePath = new URL(work.server.url).pathname;
  });
  afterAll(async () => work.stop());

  it('answers an oversized header block with http.headers_too_large', async () => {
    expectEnvelope(
      await sendRaw(work.server.url, oversizedHeaderRequest(basePath)),
      'http.headers_too_large',
      400,
    );
  });

  it('answers raw bytes 0x80-0xff in the request line with http.malformed_request', async () => {
    expectEnvelope(await sendRaw(work.server.url, rawBytesRequest(basePath)), 'http.malformed_request', 400);
  });

  it('answers a request line that is not HTTP with http.malformed_request', async () => {
    for (const line of ['HELLO\r\n\r\n', 'POST / HTTP/9.Z\r\n\r\n']) {
      expectEnvelope(await sendRaw(work.server.url, line), 'http.malformed_request', 400);
    }
  });

  it('answers a malformed percent-encoding in the path with http.malformed_request', async () => {
    const res = await sendRaw(
      work.server.url,
      `POST ${basePath}/%zz%C0 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    expectEnvelope(res, 'http.malformed_request', 400);
  });

  it('answers an HTTP/1.1 request without Host with http.missing_host, not an empty 400', async () => {
    const body = '{"action":"start"}';
    for (const request of [
      `POST ${basePath} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      'GET /nowhere HTTP/1.1\r\n\r\n',
    ]) {
      const res = await sendRaw(work.server.url, request);
      expectEnvelope(res, 'http.missing_host', 400);
      expect(res.json.error.message).toMatch(/Host header/);
      expect(res.headers.connection).toBe('close');
    }
    // HTTP/1.0 needs no Host: the RQO is answered.
    const old = await sendRaw(
      work.server.url,
      `POST ${basePath} HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(old.status).toBe(200);
    expect(old.json.ok).toBe(true);
  });

  it('keeps serving RQOs after those refusals', async () => {
    await sendRaw(work.server.url, oversizedHeaderRequest(basePath));
    const res = await work.post({ action: 'start' });
    expect(res.body.ok).toBe(true);
  });
});
