/**
 * An HTTP-level fuzz shared by both APIs' fuzz suites: random methods, paths (built from the
 * API's own path pieces mixed with junk), query strings, headers and bodies, sent over a few
 * keep-alive connections. The samples come from fast-check with a logged seed (FUZZ_SEED
 * repeats a run), so a failure names the exact request and can be replayed.
 */
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const METHODS = [
  'GET',
  'GET',
  'GET',
  'POST',
  'POST',
  'HEAD',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'PROPFIND',
];

/** Text that is safe in a header value (no CR, LF or other control characters). */
const headerText = fc
  .string({ maxLength: 40 })
  .map((s) => s.replace(/[^\x20-\x7e]/g, ''))
  .filter((s) => s === s.trim());

const headerName = fc.oneof(
  fc.constantFrom(
    'accept',
    'accept-encoding',
    'accept-language',
    'content-type',
    'origin',
    'x-api-key',
    'x-request-id',
    'x-forwarded-for',
    'x-forwarded-proto',
    'if-none-match',
    'range',
    'cookie',
    'x-dedalo-csrf-token',
    'authorization',
  ),
  fc.stringMatching(/^x-[a-z0-9-]{1,20}$/),
);

const headerValue = fc.oneof(
  headerText,
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'multipart/form-data; boundary=x',
    'multipart/form-data',
    'application/x-www-form-urlencoded',
    '*/*',
    'gzip, br, deflate',
    'br;q=0',
    'bytes=0-10',
    'https://example.org',
    'null',
    '1.2.3.4, 10.0.0.1',
    'dedalo_session=abc',
  ),
);

export const headersArb = fc.dictionary(headerName, headerValue, { maxKeys: 5 });

/** One path segment: a known piece, an encoded random string, or a classic troublemaker. */
export function segmentArb(known: string[]) {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...known) },
    { weight: 2, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '..',
        '.',
        '%',
        '%zz',
        '%00',
        '%2F',
        '%C0%AF',
        'a'.repeat(300),
        '1e3',
        '-1',
        '0',
      ),
    },
  );
}

export const queryArb = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'limit',
          'offset',
          'sort',
          'fields',
          'lang',
          'q',
          'filter[section_id][eq]',
          'format',
          'code',
        ),
        fc.string({ maxLength: 10 }),
      ),
      fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.constantFrom('', '1', '-1', '99999999999', 'a|b', 'true', '%'),
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.length === 0
      ? ''
      : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`,
  );

/**
 * Any request on one of `prefixes` (real routes, each without a trailing slash), as it is or
 * with more path pieces from `known` and junk.
 */
export function requestArb(prefixes: string[], known: string[], body: fc.Arbitrary<string | undefined>) {
  return fc
    .record({
      method: fc.constantFrom(...METHODS),
      prefix: fc.constantFrom(...prefixes),
      // Half the paths are a prefix as it is (a real route, with random query and headers).
      segments: fc.oneof(fc.constant<string[]>([]), fc.array(segmentArb(known), { maxLength: 5 })),
      trailingSlash: fc.boolean(),
      query: queryArb,
      headers: headersArb,
      body,
    })
    .map(({ method, prefix, segments, trailingSlash, query, headers, body: b }): FuzzRequest => {
      const path = `${prefix}${segments.map((s) => `/${s}`).join('')}${trailingSlash ? '/' : ''}` || '/';
      const withBody = method !== 'GET' && method !== 'HEAD' && b !== undefined;
      return { method, path: `${path}${query}`, headers, body: withBody ? b : undefined };
    });
}

/** Sends `requests` over `concurrency` keep-alive connections; calls `check` on each answer. */
export async function sendAll(
  origin: string,
  requests: FuzzRequest[],
  check: (req: FuzzRequest, answer: FuzzAnswer) => void,
  concurrency = 4,
): Promise<void> {
  const { hostname, port } = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const req = requests[next++]!;
      const answer = await new Promise<FuzzAnswer>((resolve, reject) => {
        // Node's client sends a DELETE or OPTIONS body without Content-Length (no framing at
        // all): the server would read it as the next request. Frame every body explicitly.
        const headers =
          req.body === undefined
            ? req.headers
            : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) };
        const r = httpRequest(
          { host: hostname, port, method: req.method, path: req.path, headers, agent },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                text: Buffer.concat(chunks).toString('utf8'),
              }),
            );
            res.on('error', reject);
          },
        );
        r.on('error', reject);
        r.setTimeout(30_000, () => r.destroy(new Error('no answer within 30 s')));
        r.end(req.body);
      }).catch((err: Error) => ({ status: 0, headers: {}, text: `transport error: ${err.message}` }));
      check(req, answer);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
}

/** The run's seed: FUZZ_SEED when given (to replay a failure), else a fresh one. */
export function fuzzSeed(): number {
  return process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
}
