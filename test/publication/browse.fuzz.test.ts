/**
 * Fuzz of what the new doors parse: the browse table page's form fields, the export and facets
 * parameters and the Accept header. Whatever the client sends, the answer is a page, a file or a
 * 4xx, never a 500.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProblemError } from '../../src/publication/problems.js';
import { exportFormatFromAccept, takeExportRequest } from '../../src/publication/query/export-request.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

const COLUMNS = ['section_id', 'lang', 'title', 'date', 'duration', 'place', 'nope', ''];
const OPS = ['eq', 'ne', 'gt', 'like', 'in', 'is_null', 'zz', ''];
const valueArb = fc.oneof(
  fc.string(),
  fc.constantFrom('', '1', '-3', '1|2|abc', '%', "' OR 1=1 --", 'lg-eng', '2001-01-01', '<script>', '1e308'),
);
const browsePair = fc.oneof(
  fc.tuple(
    fc.constantFrom(...COLUMNS).map((c) => `op[${c}]`),
    fc.constantFrom(...OPS),
  ),
  fc.tuple(
    fc.constantFrom(...COLUMNS).map((c) => `v[${c}]`),
    valueArb,
  ),
  fc.tuple(
    fc.constantFrom('q', 'column', 'lang', 'sort', 'limit', 'offset', 'format', 'bom', 'columns'),
    valueArb,
  ),
  fc.tuple(fc.string(), fc.string()),
);
const queryOf = (pairs: [string, string][]) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

describe('export request parsing', () => {
  it('reads any Accept header without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (accept) => {
        const format = exportFormatFromAccept(accept);
        expect(format === undefined || format === 'csv' || format === 'ndjson').toBe(true);
      }),
    );
  });

  it('answers any format/bom pair with a request, nothing, or a 400 naming the parameter', () => {
    fc.assert(
      fc.property(fc.option(valueArb), fc.option(valueArb), fc.option(fc.string()), (format, bom, accept) => {
        const params = new Map<string, string[]>();
        if (format !== null) params.set('format', [format]);
        if (bom !== null) params.set('bom', [bom]);
        try {
          takeExportRequest(params, accept ?? undefined);
        } catch (err) {
          expect(err).toBeInstanceOf(ProblemError);
          expect((err as ProblemError).status).toBe(400);
          expect(['format', 'bom']).toContain((err as ProblemError).errors?.[0]?.name);
        }
        expect(params.has('format') || params.has('bom')).toBe(false);
      }),
    );
  });
});

describe.each(engineCases())('browse, export and facets doors never fail on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c);
  });
  afterAll(async () => s.close());

  it('answers random form fields with a page or a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          `/browse/${c.db}/interview`,
          `/${c.db}/tables/interview/records`,
          `/${c.db}/tables/interview/facets`,
          `/${c.db}/tables/interview/search`,
        ),
        fc.array(browsePair, { maxLength: 6 }),
        async (path, pairs) => {
          const res = await s.get(`${path}?${queryOf(pairs)}`);
          expect(res.status, `${path}?${queryOf(pairs)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
