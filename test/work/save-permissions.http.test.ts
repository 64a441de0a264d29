/**
 * save and permissions, over HTTP on both engines: users and profiles made entirely through the
 * API (create + save) who then log in with exactly the rights given, a profile change seen on the
 * next request, passwords never echoed nor kept in history, and the level table for save (0..3,
 * global admin, project scope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  insertInterview,
  insertLoginUser,
  insertProfile,
  insertProject,
} from '../helpers/work-permissions.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const saveBody = (
  tipo: string,
  sectionTipo: string,
  sectionId: number,
  changedData: unknown[],
  lang = 'lg-nolan',
) => ({
  action: 'save',
  source: { type: 'component', tipo, section_tipo: sectionTipo, section_id: sectionId, mode: 'edit', lang },
  data: { changed_data: changedData },
});

const access = (sectionTipo: string, tipo: string, value: number) => ({
  tipo,
  section_tipo: sectionTipo,
  value,
});

describe.each(workEngineCases())('save: users, profiles and levels ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  /** An interview in the default project 1 and one in project 2 only. */
  let inProject: number;
  const outOfProject = 90_000;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    root = await rootBrowser(work);
    inProject = await create('oh1');
    await insertProject(work.server.db, 2);
    await insertInterview(work.server.db, outOfProject, [2]);
  });
  afterAll(async () => {
    await work?.stop();
  });

  async function create(sectionTipo: string): Promise<number> {
    const answer = await root.post({ action: 'create', source: { section_tipo: sectionTipo } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data;
  }

  const ok = (answer: WorkAnswer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer;
  };

  const as = async (username: string, password: string) => {
    const browser = work.browser();
    const login = await browser.login(username, password);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    return browser;
  };

  it('a profile and a user made through create + save log in with exactly the new rights; set_data on dd774 changes them at once', async () => {
    const profile = await create('dd234');
    ok(
      await root.post(
        saveBody('dd237', 'dd234', profile, [{ action: 'insert', value: { value: 'Editors' } }]),
      ),
    );
    ok(
      await root.post(
        saveBody('dd774', 'dd234', profile, [
          {
            action: 'set_data',
            value: [
              access('oh1', 'oh1', 2),
              access('oh1', 'oh14', 2),
              access('oh1', 'oh22', 2),
              access('oh1', 'oh16', 1),
              access('oh9000', 'oh9000', 1),
            ],
          },
        ]),
      ),
    );
    const badAccess = await root.post(
      saveBody('dd774', 'dd234', profile, [{ action: 'set_data', value: [access('oh1', 'nope9', 2)] }]),
    );
    expect(badAccess.status).toBe(400);
    expect(badAccess.body.error.message).toContain('dd774');
    const badLevel = await root.post(
      saveBody('dd774', 'dd234', profile, [{ action: 'set_data', value: [access('oh1', 'oh14', 7)] }]),
    );
    expect(badLevel.body.error.code).toBe('validation.invalid_value');

    const user = await create('dd128');
    const saveUser = (tipo: string, changes: unknown[]) => root.post(saveBody(tipo, 'dd128', user, changes));
    ok(
      await saveUser('dd132', [
        { action: 'insert', value: { id: null, lang: 'lg-nolan', value: 'editor1' } },
      ]),
    );
    const tooShort = await saveUser('dd133', [{ action: 'insert', value: { value: 'short' } }]);
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error.message).toContain('dd133');
    const two = await saveUser('dd133', [
      { action: 'set_data', value: [{ value: 'first password' }, { value: 'second password' }] },
    ]);
    expect(two.status).toBe(400);
    const password = await saveUser('dd133', [
      { action: 'insert', value: { id: null, lang: 'lg-nolan', value: 'editor password' } },
    ]);
    ok(password);
    ok(
      await saveUser('dd1725', [{ action: 'insert', value: { section_tipo: 'dd234', section_id: profile } }]),
    );
    ok(await saveUser('dd170', [{ action: 'insert', value: { section_tipo: 'dd153', section_id: 1 } }]));
    ok(await saveUser('dd131', [{ action: 'insert', value: { section_tipo: 'dd64', section_id: 1 } }]));

    // The password: stored as an Argon2id hash, never in the echo, never in history.
    const echo = JSON.stringify(password.body);
    expect(echo).not.toContain('editor password');
    expect(echo).not.toContain('argon2');
    const { rows } = await work.server.db.query<{ hash: string }>(
      `SELECT string -> 'dd133' -> 0 ->> 'value' AS hash FROM matrix_users WHERE section_tipo = 'dd128' AND section_id = $1`,
      [user],
    );
    expect(rows[0]!.hash).toMatch(/^\$argon2id\$/);
    const history = await work.server.db.query<{ data: unknown }>(
      `SELECT data FROM matrix_time_machine WHERE section_tipo = 'dd128' AND section_id = $1 AND tipo = 'dd133'`,
      [user],
    );
    expect(history.rows).toHaveLength(1);
    expect(JSON.stringify(history.rows)).not.toMatch(/argon2|editor password/);

    // A second user may not take the same username.
    const twin = await create('dd128');
    const taken = await root.post(
      saveBody('dd132', 'dd128', twin, [{ action: 'insert', value: { value: 'editor1' } }]),
    );
    expect(taken.status).toBe(409);

    const editor = await as('editor1', 'editor password');
    ok(
      await editor.post(saveBody('oh14', 'oh1', inProject, [{ action: 'insert', value: { value: 'mine' } }])),
    );
    const title = await editor.post(
      saveBody('oh16', 'oh1', inProject, [{ action: 'insert', value: { value: 'T' } }], 'lg-eng'),
    );
    expect(title.status).toBe(403);
    expect(title.body.error.code).toBe('perm.denied');
    const outside = await editor.post(
      saveBody('oh14', 'oh1', outOfProject, [{ action: 'insert', value: { value: 'x' } }]),
    );
    expect(outside.status).toBe(403);
    expect(outside.body.error.code).toBe('perm.out_of_scope');
    // A record's project filter gains only the editor's own projects.
    const foreign = await editor.post(
      saveBody('oh22', 'oh1', inProject, [
        { action: 'insert', value: { section_tipo: 'dd153', section_id: 2 } },
      ]),
    );
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(403);
    expect(foreign.body.error.code).toBe('perm.out_of_scope');
    // Editors cannot manage users (no level on dd128).
    expect((await editor.post(saveBody('dd132', 'dd128', user, [{ action: 'clear' }]))).status).toBe(403);

    // The profile changes: the same session has the new rights on its next request.
    ok(
      await root.post(
        saveBody('dd774', 'dd234', profile, [
          { action: 'set_data', value: [access('oh1', 'oh1', 2), access('oh1', 'oh16', 2)] },
        ]),
      ),
    );
    ok(
      await editor.post(
        saveBody('oh16', 'oh1', inProject, [{ action: 'insert', value: { value: 'T' } }], 'lg-eng'),
      ),
    );
    expect((await editor.post(saveBody('oh14', 'oh1', inProject, [{ action: 'clear' }]))).status).toBe(403);

    // The user is deactivated: refused at once.
    ok(await saveUser('dd131', [{ action: 'set_data', value: [{ section_tipo: 'dd64', section_id: 2 }] }]));
    expect(
      (await editor.post(saveBody('oh16', 'oh1', inProject, [{ action: 'clear' }], 'lg-eng'))).status,
    ).toBe(403);
  });

  it('the level table for save: 0 and 1 refused, 2 and 3 allowed, global admins everywhere, non-admins only in their projects', async () => {
    const cases: {
      name: string;
      level?: number;
      globalAdmin?: boolean;
      record: 'in' | 'out';
      status: number;
      code?: string;
    }[] = [
      { name: 'level 0', level: 0, record: 'in', status: 403, code: 'perm.denied' },
      { name: 'level 1', level: 1, record: 'in', status: 403, code: 'perm.denied' },
      { name: 'level 2', level: 2, record: 'in', status: 200 },
      { name: 'level 3', level: 3, record: 'in', status: 200 },
      {
        name: 'level 3, record outside the projects',
        level: 3,
        record: 'out',
        status: 403,
        code: 'perm.out_of_scope',
      },
      { name: 'global admin with an empty profile', globalAdmin: true, record: 'out', status: 200 },
    ];
    for (const [n, c] of cases.entries()) {
      const profileId = 100 + n;
      await insertProfile(
        work.server.db,
        profileId,
        c.level === undefined
          ? []
          : [
              { tipo: 'oh1', section_tipo: 'oh1', value: 2 },
              { tipo: 'oh14', section_tipo: 'oh1', value: c.level as 0 },
            ],
      );
      await insertLoginUser(work.server.db, 200 + n, {
        username: `level${n}`,
        password: 'level password',
        profile: profileId,
        projects: [1],
        globalAdmin: c.globalAdmin ?? false,
      });
      const browser = await as(`level${n}`, 'level password');
      const target = c.record === 'in' ? inProject : outOfProject;
      const answer = await browser.post(
        saveBody('oh14', 'oh1', target, [{ action: 'insert', value: { value: c.name } }]),
      );
      expect(answer.status, `${c.name}: ${JSON.stringify(answer.body)}`).toBe(c.status);
      if (c.code) expect(answer.body.error.code, c.name).toBe(c.code);
    }
    // Without a session: 401; without the CSRF header: 403.
    const anonymous = await work.post(saveBody('oh14', 'oh1', inProject, [{ action: 'clear' }]));
    expect(anonymous.body.error.code).toBe('auth.not_logged');
    const noCsrf = await root.post(saveBody('oh14', 'oh1', inProject, [{ action: 'clear' }]), { csrf: null });
    expect(noCsrf.body.error.code).toBe('auth.csrf_failed');
  });

  it('only a global admin may grant the global-admin flag, whatever the profile says about users', async () => {
    // Profile 300: full write on the users section, every component included.
    await insertProfile(
      work.server.db,
      300,
      ['dd128', 'dd132', 'dd133', 'dd452', 'dd1725', 'dd170', 'dd244', 'dd131'].map((tipo) => ({
        tipo,
        section_tipo: 'dd128',
        value: 2 as const,
      })),
    );
    await insertLoginUser(work.server.db, 300, {
      username: 'useradmin',
      password: 'user admin password',
      profile: 300,
      projects: [1],
    });
    const userAdmin = await as('useradmin', 'user admin password');
    const grant = saveBody('dd244', 'dd128', 300, [
      { action: 'set_data', value: [{ section_tipo: 'dd64', section_id: 1 }] },
    ]);
    const refused = await userAdmin.post(grant);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('perm.global_admin_required');
    // The same profile may still edit other user components, and root may grant the flag.
    ok(
      await userAdmin.post(
        saveBody('dd452', 'dd128', 300, [{ action: 'insert', value: { value: 'User Admin' } }]),
      ),
    );
    ok(await root.post(grant));
  });
});
