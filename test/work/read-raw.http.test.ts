/**
 * dd_core_api.read_raw over HTTP on both engines: the three types, the top-level `table`,
 * required options, passwords never returned, and the permission table (levels 0..3, global
 * admin, project scope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile, insertProject } from '../helpers/work-permissions.js';
import { insertRecordValues, locator, text } from '../helpers/work-records.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();

const readRaw = (options: Record<string, unknown>, sqo?: unknown) => ({
  action: 'read_raw',
  options,
  ...(sqo === undefined ? {} : { sqo }),
});

describe.each(workEngineCases())('read_raw ($engine)', (engine) => {
  let work: WorkServerHandle;
  const browsers = new Map<string, WorkBrowser>();

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    await insertProject(db, 2);
    for (const level of [0, 1, 2, 3] as const) {
      await insertProfile(db, 10 + level, [
        { tipo: 'oh1', section_tipo: 'oh1', value: level as AccessLevel },
        { tipo: 'rsc197', section_tipo: 'rsc197', value: level as AccessLevel },
      ]);
    }
    await insertProfile(db, 20, []);
    const users: [
      number,
      { username: string; password: string; profile: number; projects?: number[]; globalAdmin?: boolean },
    ][] = [
      [11, { username: 'level0', password: 'pw level0', profile: 10, projects: [1, 2] }],
      [12, { username: 'level1', password: 'pw level1', profile: 11, projects: [1, 2] }],
      [13, { username: 'level2', password: 'pw level2', profile: 12, projects: [1, 2] }],
      [14, { username: 'level3', password: 'pw level3', profile: 13, projects: [1, 2] }],
      [15, { username: 'admin', password: 'pw admin', profile: 20, globalAdmin: true }],
      [16, { username: 'project1', password: 'pw project1', profile: 11, projects: [1] }],
    ];
    for (const [id, user] of users) await insertLoginUser(db, id, user);
    await insertRecordValues(
      db,
      ontology,
      'oh1',
      1,
      {
        oh14: [text('OH-001')],
        oh16: [text('War', 'lg-eng')],
        oh24: [locator('oh24', 'rsc197', 1), locator('oh24', 'rsc197', '2')],
        oh25: [locator('oh25', 'rsc167', 7)],
      },
      [1],
    );
    await insertRecordValues(
      db,
      ontology,
      'oh1',
      2,
      { oh14: [text('OH-002')], oh24: [locator('oh24', 'rsc197', 3)] },
      [2],
    );
    await insertRecordValues(db, ontology, 'oh1', 3, { oh14: [text('OH-003')] }, []);
    await insertRecordValues(db, ontology, 'rsc197', 1, { rsc85: [text('Ana')] });
    for (const [name, password] of [
      ['root', TEST_ROOT_PASSWORD],
      ...users.map(([, u]) => [u.username, u.password]),
    ] as [string, string][]) {
      const browser = work.browser();
      expect((await browser.login(name, password)).status).toBe(200);
      browsers.set(name, browser);
    }
  });
  afterAll(async () => {
    await work?.stop();
  });

  const as = (name: string) => browsers.get(name)!;

  it('type section: whole stored rows, top-level table', async () => {
    const answer = await as('root').post(readRaw({ section_tipo: 'oh1', tipo: 'oh1' }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.table).toBe('matrix');
    expect(answer.body.data.map((r: { section_id: number }) => r.section_id)).toEqual([1, 2, 3]);
    expect(answer.body.data[0]).toMatchObject({
      section_tipo: 'oh1',
      section_id: 1,
      string: {
        oh14: [{ id: 1, lang: 'lg-nolan', value: 'OH-001' }],
        oh16: [{ id: 1, lang: 'lg-eng', value: 'War' }],
      },
      relation: { oh22: [{ section_tipo: 'dd153', section_id: 1, type: 'dd675' }] },
      meta: { oh14: 1 },
    });
    expect(typeof answer.body.data[0].created_at).toBe('string');
    // An sqo selects and orders the rows; its section defaults to options.section_tipo.
    const filtered = await as('root').post(
      readRaw(
        { section_tipo: 'oh1', tipo: 'oh1' },
        {
          filter: { $and: [{ q: 'oh-00*', path: [{ component_tipo: 'oh14' }] }] },
          order: [{ direction: 'DESC', path: [{ component_tipo: 'section_id' }] }],
          limit: 2,
        },
      ),
    );
    expect(filtered.body.data.map((r: { section_id: number }) => r.section_id)).toEqual([3, 2]);
  });

  it('type component and target_section', async () => {
    const component = await as('root').post(
      readRaw({ section_tipo: 'oh1', tipo: 'oh14', type: 'component' }, { limit: 2 }),
    );
    expect(component.status).toBe(200);
    expect(component.body.data).toEqual([
      {
        section_tipo: 'oh1',
        section_id: 1,
        tipo: 'oh14',
        value: [{ id: 1, lang: 'lg-nolan', value: 'OH-001' }],
      },
      {
        section_tipo: 'oh1',
        section_id: 2,
        tipo: 'oh14',
        value: [{ id: 1, lang: 'lg-nolan', value: 'OH-002' }],
      },
    ]);
    const targets = await as('root').post(
      readRaw({ section_tipo: 'oh1', tipo: 'rsc197', type: 'target_section' }),
    );
    expect(targets.status).toBe(200);
    expect(targets.body.data.map((l: { section_id: unknown }) => l.section_id)).toEqual([1, '2', 3]);
    expect(targets.body.data[0]).toEqual(locator('oh24', 'rsc197', 1));
  });

  it('never returns passwords', async () => {
    const users = await as('root').post(readRaw({ section_tipo: 'dd128', tipo: 'dd128' }, { limit: 100 }));
    expect(users.status).toBe(200);
    expect(users.body.table).toBe('matrix_users');
    expect(users.body.data.length).toBeGreaterThan(0);
    for (const row of users.body.data) {
      expect(row.string.dd132).toBeDefined();
      expect(row.string.dd133).toBeUndefined();
    }
    expect(JSON.stringify(users.body)).not.toContain('argon2');
    const password = await as('root').post(
      readRaw({ section_tipo: 'dd128', tipo: 'dd133', type: 'component' }),
    );
    expect(password.status).toBe(400);
    expect(JSON.stringify(password.body)).not.toContain('argon2');
  });

  it('refuses missing or wrong options with a 400', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ tipo: 'oh1' }, 'options.section_tipo is required'],
      [{ section_tipo: 'oh1' }, 'options.tipo is required'],
      [{ section_tipo: 'nope1', tipo: 'oh1' }, 'not a known section'],
      [{ section_tipo: 'oh1', tipo: 'oh1', type: 'rows' }, 'options.type'],
      [{ section_tipo: 'oh1', tipo: 'oh1', type: 'component' }, 'oh1 is not a component'],
    ];
    for (const [options, message] of cases) {
      const answer = await as('root').post(readRaw(options));
      expect(answer.status, JSON.stringify(options)).toBe(400);
      expect(answer.body.error.message).toContain(message);
    }
    const noOptions = await as('root').post({ action: 'read_raw' });
    expect(noOptions.status).toBe(400);
    const badSqo = await as('root').post(readRaw({ section_tipo: 'oh1', tipo: 'oh1' }, { limit: 5000 }));
    expect(badSqo.status).toBe(400);
    expect(badSqo.body.error).toMatchObject({ code: 'search.invalid_sqo' });
    expect(badSqo.body.error.message).toContain('sqo.limit');
    expect((await work.post(readRaw({ section_tipo: 'oh1', tipo: 'oh1' }))).status).toBe(401);
  });

  it('the permission table: 403 below level 1, project scope for non-admins', async () => {
    const ids = async (name: string, sqo?: unknown) => {
      const answer = await as(name).post(readRaw({ section_tipo: 'oh1', tipo: 'oh1' }, sqo));
      return {
        status: answer.status,
        code: answer.body.error?.code,
        ids: answer.body.data?.map((r: { section_id: number }) => r.section_id),
      };
    };
    expect(await ids('level0')).toEqual({ status: 403, code: 'perm.denied', ids: undefined });
    for (const name of ['level1', 'level2', 'level3']) {
      expect(await ids(name), name).toEqual({ status: 200, code: undefined, ids: [1, 2] });
    }
    expect((await ids('project1')).ids).toEqual([1]);
    expect((await ids('admin')).ids).toEqual([1, 2, 3]);
    // Every sqo section needs level 1 too.
    const users = await ids('level3', { section_tipo: ['oh1', 'dd128'] });
    expect(users).toMatchObject({ status: 403, code: 'perm.denied' });
    expect((await ids('admin', { section_tipo: ['oh1', 'dd128'] })).status).toBe(200);
  });
});
