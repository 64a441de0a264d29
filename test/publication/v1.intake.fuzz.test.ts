/**
 * Fuzz of the v1 doors: any action name, parameters, options field or body answers HTTP 200
 * with a whole JSON body (or null), never a 500, whichever intake mode it comes by.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOptions } from '../../src/publication/v1/intake.js';
import { engineCases, rawRequest, startTestServer, type TestServer } from '../helpers/publication-server.js';

const CODE = 'v1-fuzz';
const ACTIONS = [
  'records',
  'combi',
  'thesaurus_term',
  'thesaurus_children',
  'thesaurus_root_list',
  'free_search',
  'fragment_from_index_locator',
  'reel_terms',
  'text_fragment',
  'global_search',
  'menu_tree_plain',
  'full_reel',
  'thesaurus_video_view_data',
  'nope',
];
const KEYS = [
  'table',
  'ar_fields',
  'sql_filter',
  'order',
  'group',
  'limit',
  'offset',
  'count',
  'lang',
  'section_id',
  'resolve_portals_custom',
  'process_result',
  'ar_calls',
  'ar_term_id',
  'term_id',
  'q',
  'index_locator',
  'av_section_id',
  'map',
  'options',
];
const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    'true',
    'false',
    '1',
    '-1',
    '[]',
    '{}',
    'null',
    'interview',
    'ts1_1',
    '[{"id":1}]',
    "a' OR 1=1",
  ),
  fc.json({ maxDepth: 2 }),
);

describe('v1 intake', () => {
  it('turns only the exact flat strings "true" and "false" into booleans, and the path action wins', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...KEYS.filter((k) => k !== 'options')), fc.string()),
        (fields) => {
          const { options } = buildOptions({ ...fields, dedalo_get: 'x' }, undefined, 'records');
          expect(options.dedalo_get).toBe('records');
          for (const [k, v] of Object.entries(fields)) {
            expect(options[k]).toBe(v === 'true' ? true : v === 'false' ? false : v);
          }
        },
      ),
    );
  });
});

describe.each(engineCases())('v1 fuzz on $engine', (c) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c, { V1_API_CODE: CODE, LOG_LEVEL: 'silent' });
  });
  afterAll(async () => s.close());

  it('answers 200 with a JSON body to any request', async () => {
    const origin = new URL(s.base).origin;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ACTIONS),
        fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 5 }),
        fc.constantFrom('query', 'form', 'json', 'options'),
        async (action, params, mode) => {
          const text = Object.fromEntries(
            Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
          );
          const path = `${origin}/publication/server_api/v1/json/${action}`;
          let res: Awaited<ReturnType<typeof rawRequest>>;
          if (mode === 'query')
            res = await rawRequest(`${path}?${new URLSearchParams({ code: CODE, ...text })}`);
          else if (mode === 'form') {
            res = await rawRequest(
              path,
              'POST',
              { 'Content-Type': 'application/x-www-form-urlencoded' },
              new URLSearchParams({ code: CODE, ...text }).toString(),
            );
          } else if (mode === 'json') {
            res = await rawRequest(
              path,
              'POST',
              { 'Content-Type': 'application/json' },
              JSON.stringify({ code: CODE, ...params }),
            );
          } else {
            res = await rawRequest(
              `${path}?${new URLSearchParams({ code: CODE, options: JSON.stringify(params) })}`,
            );
          }
          expect(res.status).toBe(200);
          expect(() => JSON.parse(res.text)).not.toThrow();
          if (res.json && typeof res.json === 'object' && res.json.result === false) {
            expect(res.json.msg).not.toMatch(/Check server log/);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
