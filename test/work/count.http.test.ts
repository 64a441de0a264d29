/**
 * dd_core_api.count over HTTP on both engines: the answer shape, refusals, the permission table
 * (levels 0..3, global admin, project scope), tm and related modes, and a property: any JSON as
 * sqo never gives a 5xx.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessItem, AccessLevel } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile, insertProject } from '../helpers/work-permissions.js';
import { date, insertRecordValues, locator, text } from '../helpers/work-records.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();

const count = (sqo: unknown) => ({ action: 'count', sqo });
const titleLeaf = (q: string) => ({ $and: [{ q, path: [{ section_tipo: 'oh1', component_tipo: 'oh14' }] }] });

/** Profiles 10..13: level 0..3 on oh1 and rsc197 (section items only). */
const PROFILE_OF_LEVEL = (level: AccessLevel) => 10 + level;
const accessAt = (level: AccessLevel): AccessItem[] => [
  { tipo: 'oh1', section_tipo: 'oh1', value: level },
  { tipo: 'rsc197', section_tipo: 'rsc197', value: level },
];

describe.each(workEngineCases())('count ($engine)', (engine) => {
  let work: WorkServerHandle;
  const browsers = new Map<string, WorkBrowser>();

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    await insertProject(db, 2);
    for (const level of [0, 1, 2, 3] as const)
      await insertProfile(db, PROFILE_OF_LEVEL(level), accessAt(level));
    await insertProfile(db, 20, []);
    const users: [number, string, Parameters<typeof insertLoginUser>[2]][] = [
      [11, 'level0', { username: 'level0', password: 'pw level0', profile: 10, projects: [1, 2] }],
      [12, 'level1', { username: 'level1', password: 'pw level1', profile: 11, projects: [1, 2] }],
      [13, 'level2', { username: 'level2', password: 'pw level2', profile: 12, projects: [1, 2] }],
      [14, 'level3', { username: 'level3', password: 'pw level3', profile: 13, projects: [1, 2] }],
      [15, 'admin', { username: 'admin', password: 'pw admin', profile: 20, globalAdmin: true }],
      [16, 'project1', { username: 'project1', password: 'pw project1', profile: 11, projects: [1] }],
      [17, 'noproject', { username: 'noproject', password: 'pw noproject', profile: 11, projects: [] }],
    ];
    for (const [id, , user] of users) await insertLoginUser(db, id, user);

    const interview = (
      id: number,
      code: string,
      projects: number[],
      values: Record<string, unknown[]> = {},
    ) => insertRecordValues(db, ontology, 'oh1', id, { oh14: [text(code)], ...values }, projects);
    await interview(1, 'OH-001', [1], { oh24: [locator('oh24', 'rsc197', 1)], oh29: [date(1990)] });
    await interview(2, 'OH-002', [2], { oh24: [locator('oh24', 'rsc197', '1')] });
    await interview(3, 'OH-003', [1, 2]);
    await interview(4, 'XX-004', []);
    await insertRecordValues(db, ontology, 'rsc197', 1, { rsc85: [text('Álvaro')] });
    await insertRecordValues(db, ontology, 'rsc197', 2, { rsc85: [text('Joan')] });
    await db.query(
      `INSERT INTO matrix_time_machine (kind, section_tipo, section_id, tipo, lang, data, user_id)
       VALUES ('component', 'oh1', 1, 'oh14', 'lg-nolan', '[]', -1),
              ('component', 'oh1', 1, 'oh16', 'lg-eng', '[]', -1),
              ('component', 'oh1', 2, 'oh14', 'lg-nolan', '[]', -1)`,
    );

    const logins: [string, string][] = [
      ['root', TEST_ROOT_PASSWORD],
      ...users.map(([, name, u]) => [name, u.password] as [string, string]),
    ];
    for (const [name, password] of logins) {
      const browser = work.browser();
      const answer = await browser.login(name, password);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      browsers.set(name, browser);
    }
  });
  afterAll(async () => {
    await work?.stop();
  });

  const as = (name: string) => browsers.get(name)!;
  const total = async (name: string, sqo: unknown) => {
    const answer = await as(name).post(count(sqo));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data.total as number;
  };

  it('answers data: {total}', async () => {
    const answer = await as('root').post(count({ section_tipo: ['oh1'] }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, data: { total: 4 } });
    expect(await total('root', { section_tipo: 'oh1', filter: titleLeaf('oh-00') })).toBe(3);
    // limit and offset do not change a count.
    expect(await total('root', { section_tipo: 'oh1', limit: 1, offset: 3 })).toBe(4);
    expect(
      await total('root', {
        section_tipo: ['oh1'],
        filter: { $and: [{ q: 'alvaro', path: [{ component_tipo: 'oh24' }, { component_tipo: 'rsc85' }] }] },
      }),
    ).toBe(2);
    expect(await total('root', { section_tipo: ['oh1', 'rsc197'] })).toBe(6);
  });

  it('refuses a missing or malformed sqo with a 400 naming the field', async () => {
    const cases: [unknown, string, string][] = [
      [undefined, 'rqo.invalid_field', 'sqo is required'],
      [null, 'rqo.invalid_field', 'sqo is required'],
      ['oh1', 'search.invalid_sqo', 'sqo must be an object'],
      [{}, 'search.invalid_sqo', 'sqo.section_tipo is required'],
      [{ section_tipo: 'nope1' }, 'search.invalid_sqo', 'sqo.section_tipo nope1 is not a known section'],
      [{ section_tipo: 'oh14' }, 'search.invalid_sqo', 'is not a known section'],
      [{ section_tipo: 'oh1', limit: 1001 }, 'search.invalid_sqo', 'sqo.limit'],
      [{ section_tipo: 'oh1', limit: -1 }, 'search.invalid_sqo', 'sqo.limit'],
      [{ section_tipo: 'oh1', limit: 2.5 }, 'search.invalid_sqo', 'sqo.limit'],
      [{ section_tipo: 'oh1', offset: -1 }, 'search.invalid_sqo', 'sqo.offset'],
      [{ section_tipo: 'oh1', mode: 'nope' }, 'search.invalid_sqo', 'sqo.mode'],
      [
        { section_tipo: 'oh1', filter: { $and: [{ q: 'x', path: [{ component_tipo: 'rsc85' }] }] } },
        'search.invalid_sqo',
        'sqo.filter.$and[0].path[0].component_tipo rsc85 is not a component of oh1',
      ],
      [
        { section_tipo: 'oh1', filter: titleLeaf('a'), filters: titleLeaf('b') },
        'search.invalid_sqo',
        'sqo.filter and sqo.filters are both given and differ',
      ],
    ];
    for (const [sqo, code, message] of cases) {
      const body = sqo === undefined ? { action: 'count' } : count(sqo);
      const answer = await as('root').post(body);
      expect(answer.status, JSON.stringify(sqo)).toBe(400);
      expect(answer.body.error.code, JSON.stringify(sqo)).toBe(code);
      expect(answer.body.error.message, JSON.stringify(sqo)).toContain(message);
    }
    // Unknown and server-only keys are ignored: the projects filter cannot be skipped.
    expect(
      await total('project1', {
        section_tipo: 'oh1',
        id: 'oh1_list',
        select: [],
        parsed: true,
        skip_projects_filter: true,
        include_negative: true,
        sentence: 'SELECT 1',
        table: 'matrix_users',
      }),
    ).toBe(2);
  });

  it('needs a session and the CSRF header', async () => {
    const anonymous = await work.post(count({ section_tipo: 'oh1' }));
    expect(anonymous.status).toBe(401);
    const noCsrf = await as('root').post(count({ section_tipo: 'oh1' }), { csrf: null });
    expect(noCsrf.status).toBe(403);
  });

  it('the permission table: level 0 counts 0, levels 1..3 count their projects, admins all', async () => {
    const sqo = { section_tipo: ['oh1'] };
    expect(await total('level0', sqo)).toBe(0);
    // Projects 1 and 2: every interview but oh1/4, which has no project.
    for (const name of ['level1', 'level2', 'level3']) expect(await total(name, sqo), name).toBe(3);
    expect(await total('admin', sqo)).toBe(4);
    expect(await total('root', sqo)).toBe(4);
    expect(await total('project1', sqo)).toBe(2);
    expect(await total('noproject', sqo)).toBe(0);
    // rsc197 has no project filter: every person.
    expect(await total('noproject', { section_tipo: 'rsc197' })).toBe(2);
    expect(await total('level0', { section_tipo: 'rsc197' })).toBe(0);
    // An unreadable section in a multi-section SQO counts 0, the rest is counted.
    expect(await total('project1', { section_tipo: ['oh1', 'dd128'] })).toBe(2);
    // Users 11..17 (root is -1, never listed).
    expect(await total('root', { section_tipo: ['oh1', 'dd128'] })).toBe(4 + 7);
  });

  it('a filter path through an unreadable section is refused', async () => {
    await insertProfile(work.server.db, 30, [{ tipo: 'oh1', section_tipo: 'oh1', value: 1 }]);
    await insertLoginUser(work.server.db, 30, {
      username: 'ohonly',
      password: 'pw ohonly',
      profile: 30,
      projects: [1, 2],
    });
    const ohOnly = work.browser();
    expect((await ohOnly.login('ohonly', 'pw ohonly')).status).toBe(200);
    const through = await ohOnly.post(
      count({
        section_tipo: 'oh1',
        filter: { $and: [{ q: 'alvaro', path: [{ component_tipo: 'oh24' }, { component_tipo: 'rsc85' }] }] },
      }),
    );
    expect(through.status).toBe(403);
    expect(through.body.error.code).toBe('perm.denied');
    expect((await ohOnly.post(count({ section_tipo: 'oh1', filter: titleLeaf('oh') }))).body.data.total).toBe(
      3,
    );
  });

  it('tm counts history rows; related counts inverse references', async () => {
    const tm = (locators?: unknown[]) => ({
      section_tipo: ['oh1'],
      mode: 'tm',
      filter_by_locators: locators,
    });
    expect(await total('root', tm())).toBe(3);
    expect(await total('root', tm([{ section_tipo: 'oh1', section_id: 1 }]))).toBe(2);
    expect(await total('root', tm([{ section_tipo: 'oh1', section_id: 1, tipo: 'oh14' }]))).toBe(1);
    expect(await total('level0', tm())).toBe(0);
    // project1 sees the history of records in project 1 only.
    expect(await total('project1', tm())).toBe(2);
    const related = (sectionTipo: unknown) => ({
      section_tipo: sectionTipo,
      mode: 'related',
      filter_by_locators: [{ section_tipo: 'rsc197', section_id: 1 }],
    });
    expect(await total('root', related(['all']))).toBe(2);
    expect(await total('root', related('oh1'))).toBe(2);
    expect(await total('project1', related(['all']))).toBe(1);
    expect(await total('level0', related(['all']))).toBe(0);
    // Which records hold project 2: users level0..3 and ohonly (dd170), interviews 2 and 3 (oh22).
    expect(
      await total('root', {
        section_tipo: 'all',
        mode: 'related',
        filter_by_locators: [{ section_tipo: 'dd153', section_id: 2 }],
      }),
    ).toBe(5 + 2);
  });

  it('any JSON as sqo never gives a 5xx', async () => {
    const sqoArb = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          section_tipo: fc.oneof(
            fc.constantFrom('oh1', 'rsc197', 'dd128', 'all', ['oh1', 'rsc197']),
            fc.jsonValue(),
          ),
          mode: fc.oneof(fc.constantFrom('list', 'edit', 'tm', 'related', 'search'), fc.jsonValue()),
          filter: fc.oneof(
            fc.jsonValue(),
            fc.record({
              $and: fc.array(
                fc.record({
                  q: fc.oneof(
                    fc.string({ unit: 'binary', maxLength: 20 }),
                    fc.constantFrom('a\u0000b', '\ud800x', '*', '!*', '%_\\', '>=1990', '1990...2000'),
                    fc.jsonValue(),
                  ),
                  q_operator: fc.option(fc.constantFrom('*', '!*', '=', '!=', '<', '>', '-'), {
                    nil: undefined,
                  }),
                  path: fc.constantFrom(
                    [{ component_tipo: 'oh14' }],
                    [{ component_tipo: 'oh16' }],
                    [{ component_tipo: 'oh29' }],
                    [{ component_tipo: 'oh24' }],
                    [{ component_tipo: 'oh24' }, { component_tipo: 'rsc85' }],
                  ),
                }),
                { maxLength: 3 },
              ),
            }),
          ),
          filter_by_locators: fc.oneof(
            fc.array(
              fc.record({ section_tipo: fc.constantFrom('oh1', 'rsc197', 'x'), section_id: fc.jsonValue() }),
            ),
            fc.jsonValue(),
          ),
          order: fc.jsonValue(),
          limit: fc.jsonValue(),
          offset: fc.jsonValue(),
          full_count: fc.jsonValue(),
        },
        { requiredKeys: ['section_tipo'] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(sqoArb, async (sqo) => {
        const answer = await as('project1').post(count(sqo));
        expect(answer.status, JSON.stringify(sqo)).toBeLessThan(500);
        expect([200, 400, 403]).toContain(answer.status);
      }),
      { numRuns: 150 },
    );
  });
});
