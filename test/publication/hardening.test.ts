/**
 * What a hostile or careless client gets for requests that break the router's or the HTTP
 * parser's limits: an over-long path segment, an oversized header block, raw bytes in the request
 * line, garbage instead of HTTP, and random paths, headers and query strings of every length up
 * to several KiB. Every refusal is a 4xx problem+json, never a 5xx, never Fastify's own JSON.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  engineCases,
  type HttpResult,
  rawRequest,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import { oversizedHeaderRequest, rawBytesRequest, sendRaw } from '../helpers/raw-socket.js';

const PROBLEM_TYPE = /^application\/problem\+json/;

function expectProblem(
  res: { status: number; headers: Record<string, unknown>; json: unknown },
  status: number,
) {
  expect(res.status).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(PROBLEM_TYPE);
  const body = res.json as { type: string; status: number; title: string; detail: string; errors: unknown[] };
  expect(body.status).toBe(status);
  expect(body.type).toMatch(/^https:\/\/dedalo\.dev\/problems\/publication\//);
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(Array.isArray(body.errors) && body.errors.length > 0).toBe(true);
  return body;
}

describe.each(engineCases())('hardening on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c);
  });
  afterAll(async () => s.close());

  it('answers 414 for a path segment over the router limit, as a database or a table name', async () => {
    for (const path of [`/${'a'.repeat(600)}`, `/${c.db}/tables/${'a'.repeat(600)}`]) {
      const body = expectProblem(await s.get(path), 414);
      expect(body.type).toMatch(/\/uri-too-long$/);
      // The answer names the limit instead of echoing the 600 characters back.
      expect(body.detail).not.toContain('a'.repeat(600));
      expect(body.detail).toContain('500');
    }
  });

  it('answers the same 414 for such a path inside a batch', async () => {
    const res = await s.request(
      'POST',
      `${new URL(s.base).pathname.replace(/\/$/, '')}/batch`,
      { 'content-type': 'application/json' },
      JSON.stringify({ queries: [{ id: 'long', path: `/${c.db}/tables/${'a'.repeat(600)}/records` }] }),
    );
    expect(res.status).toBe(200);
    expect(res.json.results[0].status).toBe(414);
    expect(res.json.results[0].problem.type).toMatch(/\/uri-too-long$/);
  });

  it('answers an oversized header block with a 431 problem', async () => {
    const body = expectProblem(await sendRaw(s.base, oversizedHeaderRequest('/health')), 431);
    expect(body.type).toMatch(/\/headers-too-large$/);
    expect(body.errors).toEqual([expect.objectContaining({ name: 'headers', in: 'header' })]);
  });

  it('answers raw bytes 0x80-0xff in the request line with a 400 problem', async () => {
    const body = expectProblem(await sendRaw(s.base, rawBytesRequest('/health/')), 400);
    expect(body.type).toMatch(/\/bad-request$/);
  });

  it('answers a malformed request line with a 400 problem', async () => {
    for (const line of ['HELLO\r\n\r\n', 'GET\r\n\r\n', 'GET / HTTP/9.Z\r\n\r\n']) {
      expectProblem(await sendRaw(s.base, line), 400);
    }
  });

  it('answers an HTTP/1.1 request without Host with a 400 problem naming the header', async () => {
    for (const path of ['/health', `/${c.db}/tables`, '/nowhere']) {
      const prefix = new URL(s.base).pathname.replace(/\/$/, '');
      const res = await sendRaw(s.base, `GET ${prefix}${path} HTTP/1.1\r\n\r\n`);
      const body = expectProblem(res, 400);
      expect(body.type).toMatch(/\/bad-request$/);
      expect(body.errors).toEqual([
        { name: 'Host', in: 'header', detail: expect.stringMatching(/Host header/) },
      ]);
      expect(res.headers.connection).toBe('close');
    }
  });

  it('keeps serving after those refusals', async () => {
    await sendRaw(s.base, oversizedHeaderRequest('/'));
    expect((await s.get('/health')).status).toBe(200);
  });
});

// Lengths spread from empty to several KiB, so the router's 500-character limit and Node's
// 16 KiB header limit are both crossed.
const lengthArb = fc.oneof(
  fc.integer({ min: 0, max: 40 }),
  fc.integer({ min: 400, max: 600 }),
  fc.integer({ min: 0, max: 20_000 }),
);
const textArb = lengthArb.chain((n) =>
  fc.oneof(
    fc.string({ minLength: n, maxLength: n }),
    fc.string({
      unit: fc.constantFrom('a', '%', 'é', '/', '[', ']', '=', '&', '.', '0'),
      minLength: n,
      maxLength: n,
    }),
  ),
);
const headerValueArb = lengthArb.chain((n) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((i) => String.fromCharCode(i)),
    minLength: n,
    maxLength: n,
  }),
);
const HEADERS = [
  'accept',
  'accept-encoding',
  'origin',
  'x-api-key',
  'x-request-id',
  'if-none-match',
  'x-fuzz',
  'range',
  'cookie',
];

function checkAnswer(res: HttpResult, what: string): void {
  expect(res.status, `${what.slice(0, 200)} -> ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(String(res.headers['content-type']), what.slice(0, 200)).toMatch(PROBLEM_TYPE);
    expect(res.json?.status).toBe(res.status);
  }
}

/** Like rawRequest, but a server that refuses before routing closes the socket; that is fine. */
async function fuzzGet(url: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  return rawRequest(url, 'GET', headers);
}

describe.each(engineCases())('fuzzed requests on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c);
  });
  afterAll(async () => s.close());

  it('path segments of every length never get a 5xx, and every 4xx is a problem', async () => {
    const templates = [
      (x: string) => `/${x}`,
      (x: string) => `/${c.db}/${x}`,
      (x: string) => `/${c.db}/tables/${x}`,
      (x: string) => `/${c.db}/tables/interview/records/${x}`,
      (x: string) => `/${c.db}/tables/interview/${x}`,
    ];
    await fc.assert(
      fc.asyncProperty(textArb, fc.constantFrom(...templates), fc.boolean(), async (text, at, encode) => {
        // Unencoded, only what an HTTP client can put on the wire: '%' sequences that may be broken.
        const segment = encode ? encodeURIComponent(text) : text.replace(/[^A-Za-z0-9%._~-]/g, '-');
        const path = at(segment);
        checkAnswer(await fuzzGet(`${s.base}${path}`), path);
      }),
      { numRuns: 150 },
    );
  });

  it('query strings of every length never get a 5xx, and every 4xx is a problem', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('filter[title][eq]', 'filter[section_id][in]', 'sort', 'fields', 'limit', 'q', 'x'),
        textArb,
        fc.constantFrom('records', 'records/1', ''),
        async (key, value, route) => {
          const path = `/${c.db}/tables/interview/${route}?${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
          checkAnswer(await fuzzGet(`${s.base}${path}`), path);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('headers of every length never get a 5xx, and every 4xx is a problem', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HEADERS), headerValueArb, async (name, value) => {
        checkAnswer(
          await fuzzGet(`${s.base}/${c.db}/tables/interview/records/1`, { [name]: value }),
          `${name}: ${value}`,
        );
      }),
      { numRuns: 150 },
    );
  });
});
