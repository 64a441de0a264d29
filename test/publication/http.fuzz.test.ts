/**
 * 10,000 random HTTP requests against the publication API (v2 and v1, SQLite): random methods,
 * paths built from the API's own pieces and junk, query strings, headers and bodies. None may
 * get a 5xx, or no answer; every error answer is problem+json with a status that matches it.
 * The seed is logged; FUZZ_SEED=<seed> replays a run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FuzzRequest, fuzzSeed, requestArb, sendAll } from '../helpers/http-fuzz.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

const RUNS = 10_000;

describe('HTTP fuzz of the publication API (sqlite)', () => {
  const c = engineCases().find((e) => e.engine === 'sqlite')!;
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c, { V1_API_CODE: 'fuzz-code' });
  });
  afterAll(() => s.close());

  it(`answers ${RUNS} random requests without a 5xx`, async () => {
    const base = new URL(s.base).pathname;
    const v1 = base.replace(/v2$/, 'v1');
    const known = [
      c.db,
      'tables',
      'interview',
      'informant',
      'records',
      '1',
      '2',
      '999999',
      'search',
      'facets',
      'fragments',
      'av-fragments',
      'av-indexation-fragment',
      'databases',
      'health',
      'batch',
      'mcp',
      'openapi.json',
      'docs',
      'json',
      'records',
      'reel_terms',
    ];
    const body = fc.option(
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.json({ maxDepth: 3 }),
        fc.constantFrom(
          '{"queries":[{"path":"/x"}]}',
          `{"queries":[{"id":"a","path":"/${c.db}/tables/interview/records?limit=2"}]}`,
          '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
          'code=fuzz-code&action=records&table=interview',
        ),
      ),
      { nil: undefined },
    );
    const seed = fuzzSeed();
    const table = `${base}/${c.db}/tables/interview`;
    const prefixes = [
      '',
      base,
      v1,
      `${base}/databases`,
      `${base}/health`,
      `${base}/batch`,
      `${base}/mcp`,
      `${base}/openapi.json`,
      `${base}/${c.db}`,
      `${base}/${c.db}/tables`,
      table,
      `${table}/records`,
      `${table}/records/1`,
      `${table}/records/1/fragments`,
      `${table}/search`,
      `${table}/facets`,
      `${base}/${c.db}/av-indexation-fragment`,
      `${v1}/json`,
      `${v1}/records`,
    ];
    const requests = fc.sample(requestArb(prefixes, known, body), {
      numRuns: RUNS,
      seed,
    });
    const statuses: Record<number, number> = {};
    const failures: string[] = [];
    const started = Date.now();
    await sendAll(s.base, requests, (req: FuzzRequest, answer) => {
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const what = `${req.method} ${req.path} ${JSON.stringify(req.headers)} ${req.body?.slice(0, 100) ?? ''} -> ${answer.status} ${answer.text.slice(0, 200)}`;
      if (answer.status === 0 || answer.status >= 500) failures.push(what);
      else if (answer.status >= 400 && req.method !== 'HEAD') {
        const type = String(answer.headers['content-type'] ?? '');
        // v1 answers its own JSON; every v2 refusal is a problem.
        if (!type.startsWith('application/problem+json') && !type.startsWith('application/json'))
          failures.push(`not a problem: ${what}`);
      }
    });
    console.log(
      `[fuzz publication] seed ${seed}: ${RUNS} requests in ${Date.now() - started} ms, statuses ${JSON.stringify(statuses)}`,
    );
    expect(failures.slice(0, 10)).toEqual([]);
  }, 180_000);
});
