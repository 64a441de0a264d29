import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

const COLUMNS = ['section_id', 'lang', 'title', 'date', 'duration', 'informant', 'nope', 'order'];
const OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'in', 'not_in', 'is_null', 'is_not_null', 'zz'];
const pairArb = fc.oneof(
  fc.tuple(
    fc.tuple(fc.constantFrom(...COLUMNS), fc.constantFrom(...OPS)).map(([c, o]) => `filter[${c}][${o}]`),
    fc.oneof(
      fc.string(),
      fc.constantFrom('', '1', '-3', '1|2|abc', '%', "' OR 1=1 --", 'lg-eng', '2001-01-01', '1e308'),
    ),
  ),
  fc.tuple(fc.constantFrom('sort', 'fields', 'limit', 'offset', 'lang', 'count'), fc.string()),
  fc.tuple(fc.string(), fc.string()),
);
const queryArb = fc
  .array(pairArb, { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

describe.each(engineCases())('random record queries on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c);
  });
  afterAll(async () => s.close());

  it('never answer with a server error', async () => {
    await fc.assert(
      fc.asyncProperty(
        queryArb,
        fc.constantFrom('records', 'records/1', 'records/007'),
        async (query, route) => {
          const res = await s.get(`/${c.db}/tables/interview/${route}?${query}`);
          expect(res.status, `${route}?${query} -> ${res.text.slice(0, 300)}`).toBeLessThan(500);
          expect([200, 400, 404]).toContain(res.status);
          if (res.status === 400) expect(res.json.errors.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
