/**
 * Slow clients on both servers (issue 21 §4): headers that never finish, a body that never
 * completes, a stalled upload. With small configured time-outs, each is cut within its limit:
 * a 408 in the API's own error format while an answer is still possible (problem+json on the
 * publication API, the v2 envelope on the work API), else the connection is closed. Before,
 * such a request held its connection for minutes (the body: indefinitely).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { startTestWorkServer, TEST_ROOT_PASSWORD, type WorkServerHandle } from '../helpers/work-server.js';

const HEADERS_MS = 1_000;
const BODY_MS = 1_500;
const IDLE_MS = 2_500;
/** Node checks its limits on a timer (a quarter of the shorter one here); the machine is loaded. */
const MARGIN_MS = 2_000;

interface Exchange {
  ms: number;
  /** What came back before the server closed the connection ('' for nothing). */
  text: string;
  status?: number;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  json?: any;
  headers: Record<string, string>;
}

/**
 * Opens a connection to `url`'s host, writes `parts` (strings, or pauses in ms between them)
 * and never finishes the request: resolves when the server closes the connection.
 */
function stall(url: string, parts: (string | number)[], giveUpMs = 20_000): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let closed = false;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server still held the connection after ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      clearTimeout(giveUp);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const headers: Record<string, string> = {};
      let status: number | undefined;
      let json: unknown;
      if (split >= 0) {
        const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
        status = Number(statusLine.split(' ')[1]);
        for (const line of lines) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        try {
          json = JSON.parse(text.slice(split + 4));
        } catch {
          json = undefined;
        }
      }
      resolve({ ms: Date.now() - started, text, status, json, headers });
    });
    socket.on('connect', async () => {
      for (const part of parts) {
        if (closed) return;
        if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
        else socket.write(part);
      }
    });
  });
}

/** One header byte every 200 ms: never idle, never done. */
function tricklingHeaders(path: string): (string | number)[] {
  const text = `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(100)}`;
  return [...text].flatMap((ch) => [ch, 200]);
}

describe('slow clients on the publication API', () => {
  const c = engineCases().find((e) => e.engine === 'sqlite')!;
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c, {
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      HTTP_BODY_TIMEOUT_MS: String(BODY_MS),
      HTTP_IDLE_TIMEOUT_MS: String(IDLE_MS),
    });
  });
  afterAll(() => s.close());

  it('answers headers that never finish with a 408 problem within HTTP_HEADERS_TIMEOUT_MS', async () => {
    const path = new URL(`${s.base}/health`).pathname;
    const answer = await stall(s.base, [`GET ${path} HTTP/1.1\r\nHost: localhost\r\n`]);
    expect(answer.status, answer.text).toBe(408);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.json.status).toBe(408);
    expect(answer.ms).toBeGreaterThanOrEqual(HEADERS_MS - 50);
    expect(answer.ms).toBeLessThan(HEADERS_MS + MARGIN_MS);
  });

  it('cuts headers that trickle in (never idle) at HTTP_HEADERS_TIMEOUT_MS too', async () => {
    const answer = await stall(s.base, tricklingHeaders(new URL(`${s.base}/health`).pathname));
    expect(answer.status, answer.text).toBe(408);
    expect(answer.ms).toBeLessThan(HEADERS_MS + MARGIN_MS);
  });

  it('answers a body that never completes with a 408 problem within HTTP_BODY_TIMEOUT_MS', async () => {
    const path = new URL(`${s.base}/batch`).pathname;
    const answer = await stall(s.base, [
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"queries":`,
    ]);
    expect(answer.status, answer.text).toBe(408);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.ms).toBeLessThan(BODY_MS + MARGIN_MS);
  });
});

describe('slow clients on the work API', () => {
  const engine = workEngineCases().find((e) => e.engine === 'pglite')!;
  let w: WorkServerHandle;
  let path: string;
  beforeAll(async () => {
    w = await startTestWorkServer(engine, {
      WORK_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      WORK_HTTP_BODY_TIMEOUT_MS: String(BODY_MS),
      WORK_HTTP_UPLOAD_TIMEOUT_MS: '60000',
      WORK_HTTP_IDLE_TIMEOUT_MS: String(IDLE_MS),
    });
    path = new URL(w.server.url).pathname;
  });
  afterAll(() => w.stop());

  it('answers headers that never finish with a 408 envelope within WORK_HTTP_HEADERS_TIMEOUT_MS', async () => {
    const answer = await stall(w.server.url, [`POST ${path} HTTP/1.1\r\nHost: localhost\r\n`]);
    expect(answer.status, answer.text).toBe(408);
    expect(answer.json).toMatchObject({
      ok: false,
      error: { code: 'http.request_timeout', retryable: true },
    });
    expect(answer.ms).toBeLessThan(HEADERS_MS + MARGIN_MS);
  });

  it('cuts headers that trickle in at WORK_HTTP_HEADERS_TIMEOUT_MS too', async () => {
    const answer = await stall(w.server.url, tricklingHeaders(path));
    expect(answer.status, answer.text).toBe(408);
    expect(answer.ms).toBeLessThan(HEADERS_MS + MARGIN_MS);
  });

  it('answers an RQO body that never completes with a 408 envelope within WORK_HTTP_BODY_TIMEOUT_MS', async () => {
    const answer = await stall(w.server.url, [
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"action":`,
    ]);
    expect(answer.status, answer.text).toBe(408);
    expect(answer.headers.connection).toBe('close');
    expect(answer.json).toMatchObject({ ok: false, error: { code: 'http.request_timeout' } });
    expect(answer.ms).toBeGreaterThanOrEqual(BODY_MS - 50);
    expect(answer.ms).toBeLessThan(BODY_MS + MARGIN_MS);
  });

  it('closes a stalled upload within WORK_HTTP_IDLE_TIMEOUT_MS, and uploads that flow still work', async () => {
    const browser = w.browser();
    expect((await browser.login('root', TEST_ROOT_PASSWORD)).status).toBe(200);
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const boundary = 'slowboundary';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="key_dir"\r\n\r\ndocument\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file_to_upload"; filename="slow.txt"\r\n` +
      'Content-Type: text/plain\r\n\r\nthe first bytes of a file that never ends';
    const answer = await stall(w.server.url, [
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nX-Dedalo-Csrf-Token: ${browser.csrfToken}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 1000000\r\n\r\n${head}`,
    ]);
    console.log(`[slow-clients] stalled upload closed after ${answer.ms} ms (idle limit ${IDLE_MS} ms)`);
    expect(answer.ms).toBeLessThan(IDLE_MS + MARGIN_MS);

    // A small upload that arrives at once is still taken.
    const form = new FormData();
    form.append('key_dir', 'document');
    form.append('file_to_upload', new Blob(['hello']), 'quick.txt');
    const res = await fetch(w.server.url, {
      method: 'POST',
      headers: { cookie, 'x-dedalo-csrf-token': browser.csrfToken! },
      body: form,
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
  });
});
