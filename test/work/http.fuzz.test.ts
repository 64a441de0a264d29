/**
 * 10,000 random HTTP requests against the work API (PGlite): random methods, paths, query
 * strings, headers and bodies, with RQO-shaped JSON for most POSTs to the endpoint, half of them
 * in a logged-in root session (cookie and CSRF token). None may get a 5xx, or no answer; every
 * answer of the RQO endpoint is an envelope whose status is its code's category's. The seed is
 * logged; FUZZ_SEED=<seed> replays a run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATEGORIES, ERROR_REGISTRY } from '../../src/work/dispatch/error-registry.js';
import { type FuzzRequest, fuzzSeed, requestArb, sendAll } from '../helpers/http-fuzz.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { rootBrowser, startTestWorkServer, type WorkServerHandle } from '../helpers/work-server.js';

const RUNS = 10_000;

const APIS = [
  'dd_core_api',
  'dd_core_api',
  'dd_core_api',
  'dd_utils_api',
  'dd_area_maintenance_api',
  'dd_diffusion_api',
  'dd_ontology_api',
  'dd_import_api',
  'dd_ts_api',
  'dd_component_text_area_api',
  'dd_nope',
  '',
];
const ACTIONS = [
  'start',
  'read',
  'read_raw',
  'count',
  'create',
  'save',
  'delete',
  'duplicate',
  'get_element_context',
  'get_section_elements_context',
  'list_uploaded_files',
  'get_widget_value',
  'update_lock_components_state',
  'import_ontology',
  'export_ontology',
  'get_diffusion_info',
  'import_records',
  'list_imports',
  'get_import',
  'undo_import',
  'get_children_data',
  'search_terms',
  'get_terms',
  'set_indexation',
  'get_indexations',
  'nope',
];
const tipo = fc.oneof(
  fc.constantFrom('oh1', 'oh14', 'oh16', 'rsc197', 'dd128', 'dd153', 'ts1', 'zz9', ''),
  fc.string({ maxLength: 8 }),
);
const anything = fc.anything({ maxDepth: 2, maxKeys: 3 });
const rqo = fc.record(
  {
    dd_api: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...APIS) }, anything),
    action: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ACTIONS) }, anything),
    source: fc.oneof(
      anything,
      fc.record(
        {
          section_tipo: tipo,
          tipo,
          section_id: fc.oneof(fc.integer({ min: -2, max: 5 }), anything),
          lang: fc.constantFrom('lg-eng', 'lg-nolan', 'x'),
          mode: fc.constantFrom('edit', 'list', 'x'),
          model: fc.constantFrom('section', 'component_input_text', 'x'),
        },
        { requiredKeys: [] },
      ),
    ),
    sqo: fc.oneof(anything, fc.record({ section_tipo: fc.array(tipo, { maxLength: 2 }), limit: anything })),
    data: anything,
    options: anything,
    idempotency_key: fc.oneof(fc.string({ maxLength: 10 }), anything),
  },
  { requiredKeys: ['action'] },
);

describe('HTTP fuzz of the work API (pglite)', () => {
  const engine = workEngineCases().find((e) => e.engine === 'pglite')!;
  let work: WorkServerHandle;
  beforeAll(async () => {
    work = await startTestWorkServer(engine);
  });
  afterAll(() => work?.stop());

  it(`answers ${RUNS} random requests without a 5xx`, async () => {
    const root = await rootBrowser(work);
    const cookie = [...root.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const api = new URL(work.server.url).pathname;
    const body = fc.option(
      fc.oneof(
        { weight: 6, arbitrary: rqo.map((r) => JSON.stringify(r)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
        { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
        {
          weight: 1,
          arbitrary: fc.constantFrom('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'),
        },
      ),
      { freq: 8, nil: undefined },
    );
    const prefixes = [api, api, api, api, '', `${api}/media`, `${api}/media/oh1/1/rsc35`, '/assets'];
    const known = ['oh1', '1', 'rsc35', 'x.jpg', 'index.html', 'json', 'v1'];
    const seed = fuzzSeed();
    const requests = fc
      .sample(fc.tuple(requestArb(prefixes, known, body), fc.boolean()), { numRuns: RUNS, seed })
      .map(([req, inSession]): FuzzRequest => {
        // RQOs go to the endpoint as POSTs most of the time, with JSON's content type.
        if (req.body?.startsWith('{') && inSession) {
          const query = req.path.includes('?') ? req.path.slice(req.path.indexOf('?')) : '';
          return {
            ...req,
            method: 'POST',
            path: `${api}${query}`,
            headers: {
              ...req.headers,
              'content-type': 'application/json',
              cookie,
              'x-dedalo-csrf-token': root.csrfToken!,
            },
          };
        }
        return req;
      });
    const statuses: Record<number, number> = {};
    const failures: string[] = [];
    const started = Date.now();
    await sendAll(work.server.url, requests, (req, answer) => {
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const what = `${req.method} ${req.path} ${JSON.stringify(req.headers)} ${req.body?.slice(0, 200) ?? ''} -> ${answer.status} ${answer.text.slice(0, 300)}`;
      if (answer.status === 0 || answer.status >= 500) {
        failures.push(what);
        return;
      }
      const endpoint = req.path.split('?')[0]!.replace(/\/$/, '') === api;
      if (endpoint && req.method === 'POST') {
        let envelope: { ok?: boolean; error?: { code?: string } } | undefined;
        try {
          envelope = JSON.parse(answer.text);
        } catch {
          failures.push(`not an envelope: ${what}`);
          return;
        }
        if (envelope?.ok === false) {
          const entry = ERROR_REGISTRY[envelope.error?.code as keyof typeof ERROR_REGISTRY];
          if (!entry || ERROR_CATEGORIES[entry.category] !== answer.status)
            failures.push(`bad refusal: ${what}`);
        } else if (envelope?.ok !== true || answer.status !== 200) failures.push(`bad answer: ${what}`);
      }
    });
    console.log(
      `[fuzz work] seed ${seed}: ${RUNS} requests in ${Date.now() - started} ms, statuses ${JSON.stringify(statuses)}`,
    );
    expect(failures.slice(0, 10)).toEqual([]);
  }, 240_000);
});
