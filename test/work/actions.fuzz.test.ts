/**
 * No client input gives a 5xx: random RQOs for every record action (plausible shapes mixed with
 * junk: unknown tipos, odd section ids, broken change lists, arbitrary JSON), sent by a logged-in
 * root over HTTP, on PGlite and PostgreSQL. Every answer is an envelope; every refusal uses a
 * registered code with its category's status.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATEGORIES, ERROR_REGISTRY } from '../../src/work/dispatch/error-registry.js';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ACTIONS = [
  'read',
  'read_raw',
  'count',
  'create',
  'duplicate',
  'delete',
  'get_deleted_records',
  'restore_record',
  'save',
  'get_element_context',
  'get_section_elements_context',
];

const tipo = fc.oneof(
  fc.constantFrom(
    'oh1',
    'oh14',
    'oh16',
    'oh24',
    'oh29',
    'rsc197',
    'rsc85',
    'dd128',
    'dd133',
    'dd234',
    'dd774',
    'dd542',
    'ts1',
    'hierarchy36',
    'dd1',
    'zz9',
    'self',
    'all',
  ),
  fc.string({ maxLength: 12 }),
);
const sectionId = fc.oneof(
  fc.integer({ min: -3, max: 20 }),
  fc.constantFrom('1', '007', 'x', '', '1e3', null, 1.5, -0, 2 ** 40),
  fc.anything({ maxDepth: 1 }),
);
const lang = fc.constantFrom('lg-eng', 'lg-spa', 'lg-nolan', 'lg-xxx', 'all', '', undefined);
const json = fc.anything({ maxDepth: 3, maxKeys: 4 });

const leaf = fc.record(
  {
    q: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('*', '!*', '==a', '1...3', '>2'), json),
    q_operator: fc.oneof(
      fc.constantFrom('*', '!*', '=', '<', '>=', '...', null),
      fc.string({ maxLength: 3 }),
    ),
    path: fc.array(fc.record({ section_tipo: tipo, component_tipo: tipo }, { requiredKeys: [] }), {
      maxLength: 3,
    }),
    lang,
  },
  { requiredKeys: [] },
);
const sqo = fc.oneof(
  json,
  fc.record(
    {
      section_tipo: fc.oneof(tipo, fc.array(tipo, { maxLength: 3 })),
      mode: fc.constantFrom('list', 'edit', 'tm', 'related', 'search', 'x'),
      limit: fc.oneof(fc.integer({ min: -2, max: 1200 }), json),
      offset: fc.oneof(fc.integer({ min: -2, max: 50 }), json),
      filter: fc.oneof(
        fc.record({ $and: fc.array(leaf, { maxLength: 3 }) }),
        fc.record({ $or: fc.array(leaf, { maxLength: 3 }) }),
        json,
      ),
      filter_by_locators: fc.oneof(
        fc.array(fc.record({ section_tipo: tipo, section_id: sectionId }), { maxLength: 3 }),
        json,
      ),
      order: fc.oneof(
        fc.array(
          fc.record({
            direction: fc.constantFrom('ASC', 'DESC', 'up'),
            path: fc.array(fc.record({ component_tipo: tipo }), { maxLength: 2 }),
          }),
          { maxLength: 2 },
        ),
        json,
      ),
      full_count: fc.oneof(fc.boolean(), json),
    },
    { requiredKeys: [] },
  ),
);
const change = fc.record(
  {
    action: fc.oneof(
      fc.constantFrom(
        'insert',
        'update',
        'remove',
        'set_data',
        'sort_data',
        'sort_by_column',
        'add_new_element',
        'clear',
      ),
      fc.string({ maxLength: 6 }),
    ),
    id: fc.oneof(fc.integer({ min: -1, max: 5 }), json),
    key: fc.oneof(fc.integer({ min: -1, max: 5 }), json),
    value: fc.oneof(
      fc.record({ id: fc.constant(null), lang, value: fc.oneof(fc.string({ maxLength: 10 }), json) }),
      fc.record({ section_tipo: tipo, section_id: sectionId, type: fc.constantFrom('dd151', 'dd675') }),
      fc.record({
        start: fc.record({
          year: fc.integer({ min: -5, max: 3000 }),
          month: fc.integer({ min: 0, max: 13 }),
          day: fc.integer({ min: 0, max: 32 }),
        }),
      }),
      fc.array(json, { maxLength: 3 }),
      tipo,
      json,
    ),
  },
  { requiredKeys: [] },
);
const rqo = fc.record(
  {
    action: fc.constantFrom(...ACTIONS),
    source: fc.oneof(
      json,
      fc.record(
        {
          section_tipo: tipo,
          tipo,
          section_id: sectionId,
          model: fc.constantFrom('section', 'component_input_text', 'component_portal', 'tool_x', 'x'),
          mode: fc.constantFrom('list', 'edit', 'tm', 'search', 'x'),
          action: fc.constantFrom('search', 'get_data', 'resolve_data', 'get_relation_list', 'x'),
          lang,
          delete_mode: fc.constantFrom('delete_data', 'delete_record', 'x'),
          value: json,
        },
        { requiredKeys: [] },
      ),
    ),
    sqo,
    show: fc.oneof(
      json,
      fc.record({
        ddo_map: fc.oneof(
          json,
          fc.array(fc.record({ tipo, section_tipo: tipo, parent: tipo }, { requiredKeys: [] }), {
            maxLength: 3,
          }),
        ),
      }),
    ),
    data: fc.oneof(
      json,
      fc.record(
        { changed_data: fc.oneof(json, fc.array(change, { maxLength: 3 })), pagination: json },
        { requiredKeys: [] },
      ),
    ),
    options: fc.oneof(
      json,
      fc.record(
        {
          section_tipo: tipo,
          tipo,
          type: fc.constantFrom('section', 'component', 'target_section', 'x'),
          ar_section_tipo: fc.oneof(fc.array(tipo, { maxLength: 2 }), json),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: ['action'] },
);

describe.each(workEngineCases())('record actions never answer a 5xx ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    root = await rootBrowser(work);
    // A few records so reads and writes meet real rows.
    for (const section of ['oh1', 'oh1', 'rsc197']) {
      await root.post({ action: 'create', source: { section_tipo: section } });
    }
  });
  afterAll(async () => {
    await work?.stop();
  });

  it('answers every random RQO with an envelope and a status below 500', async () => {
    await fc.assert(
      fc.asyncProperty(rqo, async (body) => {
        const answer = await root.post(body);
        expect(answer.status, JSON.stringify({ body, answer: answer.body })).toBeLessThan(500);
        if (answer.body.ok === false) {
          const entry = ERROR_REGISTRY[answer.body.error.code as keyof typeof ERROR_REGISTRY];
          expect(entry, answer.body.error.code).toBeDefined();
          expect(answer.status).toBe(ERROR_CATEGORIES[entry.category]);
        } else {
          expect(answer.status).toBe(200);
          expect(answer.body).not.toHaveProperty('result');
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('answers every random lock RQO with an envelope and a status below 500', async () => {
    const lockRqo = fc.oneof(
      fc.record({
        dd_api: fc.constant('dd_utils_api'),
        action: fc.constant('update_lock_components_state'),
        options: fc.oneof(
          json,
          fc.record(
            {
              section_tipo: fc.oneof(tipo, json),
              section_id: sectionId,
              component_tipo: fc.oneof(tipo, fc.constant(null), json),
              action: fc.oneof(fc.constantFrom('focus', 'blur', 'delete_user_section_locks', 'x', ''), json),
            },
            { requiredKeys: [] },
          ),
        ),
      }),
      fc.record({
        dd_api: fc.constant('dd_area_maintenance_api'),
        action: fc.constant('lock_components_actions'),
        options: fc.oneof(
          json,
          fc.record(
            {
              fn_action: fc.oneof(
                fc.constantFrom('get_active_users', 'force_unlock_all_components', 'x', '__proto__'),
                json,
              ),
              user_id: fc.oneof(fc.integer({ min: -3, max: 5 }), fc.constantFrom(2 ** 40, 1.5, '1'), json),
            },
            { requiredKeys: [] },
          ),
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(lockRqo, async (body) => {
        const answer = await root.post(body);
        expect(answer.status, JSON.stringify({ body, answer: answer.body })).toBeLessThan(500);
        if (answer.body.ok === false) {
          const entry = ERROR_REGISTRY[answer.body.error.code as keyof typeof ERROR_REGISTRY];
          expect(entry, answer.body.error.code).toBeDefined();
          expect(answer.status).toBe(ERROR_CATEGORIES[entry.category]);
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
