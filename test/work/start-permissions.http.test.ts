import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, setUserRelations } from '../helpers/work-permissions.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const start = (options: Record<string, unknown> = {}) => ({ action: 'start', options });

/** The bootstrapped profiles (docs/work-api.md): Admin dd234/1, Cataloguer dd234/2. */
const CATALOGUER_PROFILE = 2;

/** A user with a login whose profile and project (1) come from the helpers. */
const createLoginUser = (
  work: WorkServerHandle,
  id: number,
  username: string,
  password: string,
  profile: number,
) => insertLoginUser(work.server.db, id, { username, password, profile, projects: [1] });

const menuTipos = (answer: { body: { data: { context: { type: string; tree?: { tipo: string }[] }[] } } }) =>
  answer.body.data.context.find((c) => c.type === 'menu')?.tree?.map((e) => e.tipo) ?? [];

describe.each(workEngineCases())('start with permissions ($engine)', (engine) => {
  let work: WorkServerHandle;
  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    await createLoginUser(work, 5, 'cata', 'cataloguer password', CATALOGUER_PROFILE);
  });
  afterAll(async () => {
    await work?.stop();
  });

  const as = async (username: string, password: string): Promise<WorkBrowser> => {
    const browser = work.browser();
    const answer = await browser.login(username, password);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return browser;
  };

  it('a Cataloguer opens oral history and the thesaurus but gets 403 on maintenance dd88', async () => {
    const cata = await as('cata', 'cataloguer password');
    for (const searchObj of [
      { t: 'oh1' },
      { t: 'oh1', m: 'edit', id: 3 },
      { t: 'oh16', st: 'oh1' },
      { t: 'rsc197' },
      { t: 'ts1' },
      {}, // the root area: the page shell
    ]) {
      const answer = await cata.post(start({ search_obj: searchObj }));
      expect(answer.status, `${JSON.stringify(searchObj)} ${JSON.stringify(answer.body)}`).toBe(200);
    }
    for (const searchObj of [{ t: 'dd88' }, { t: 'dd128' }, { t: 'dd234' }, { t: 'dd207' }]) {
      const answer = await cata.post(start({ search_obj: searchObj, menu: true }));
      expect(answer.status, JSON.stringify(searchObj)).toBe(403);
      expect(answer.body).toMatchObject({
        ok: false,
        error: { code: 'perm.denied', category: 'permission' },
      });
      expect(answer.headers.get('x-request-id')).toBe(answer.body.request_id);
    }
    // The registry entry decides the status, not the handler.
    const dd88 = await cata.post(start({ search_obj: { t: 'dd88' } }));
    expect(dd88.body.error.message).toContain('dd88');
  });

  it("the Cataloguer's menu lists only what they can read; root's lists everything", async () => {
    const cata = await as('cata', 'cataloguer password');
    const cataMenu = menuTipos(await cata.post(start({ search_obj: { t: 'oh1' }, menu: true })));
    expect(cataMenu).toEqual(expect.arrayContaining(['oh9000', 'oh1', 'rsc9000', 'rsc197', 'dd100', 'ts1']));
    for (const hidden of ['dd88', 'dd128', 'dd234', 'dd542']) {
      expect(cataMenu).not.toContain(hidden);
    }
    // The value lists its fields use are readable (project names, Yes/No): under Administration.
    expect(cataMenu).toEqual(expect.arrayContaining(['dd207', 'dd153', 'dd64']));

    const root = await as('root', TEST_ROOT_PASSWORD);
    const rootMenu = menuTipos(await root.post(start({ search_obj: { t: 'dd88' }, menu: true })));
    expect(rootMenu).toEqual(expect.arrayContaining([...cataMenu, 'dd88', 'dd207', 'dd128', 'dd234']));
    for (const t of ['dd88', 'dd128', 'dd234', 'dd542', 'oh1', 'ts1']) {
      expect((await root.post(start({ search_obj: { t } }))).status, t).toBe(200);
    }
  });

  it('a change to the user is seen on the next request; an inactive user is refused', async () => {
    const cata = await as('cata', 'cataloguer password');
    expect((await cata.post(start({ search_obj: { t: 'dd88' } }))).status).toBe(403);
    // Made a global admin: passes everywhere (the engine re-reads after the version moves).
    await setUserRelations(work.server.db, 5, {
      profile: CATALOGUER_PROFILE,
      projects: [1],
      globalAdmin: true,
    });
    expect((await cata.post(start({ search_obj: { t: 'dd88' } }))).status).toBe(200);
    // Deactivated with a live session: nothing opens, not even the root area.
    await setUserRelations(work.server.db, 5, { profile: CATALOGUER_PROFILE, projects: [1], active: false });
    const refused = await cata.post(start({}));
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('perm.denied');
    await setUserRelations(work.server.db, 5, { profile: CATALOGUER_PROFILE, projects: [1] });
  });

  it('without a session start still answers the login context', async () => {
    const answer = await work.post(start({ search_obj: { t: 'dd88' } }));
    expect(answer.status).toBe(200);
    expect(answer.body.data.context[0]).toMatchObject({ type: 'login', tipo: 'dd229' });
  });
});
