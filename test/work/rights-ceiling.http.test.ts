/**
 * The rights ceiling over HTTP on both engines (docs/security-rights.md): an administrator who is
 * not a global admin cannot copy root or a global admin, cannot touch either, and cannot create,
 * copy or change a user or profile so that it holds more than they hold (global-admin flag,
 * profile levels, projects), through create, duplicate, save (every change kind) or delete.
 * Global admins keep full power.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile, insertProject, insertUser } from '../helpers/work-permissions.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();

const save = (tipo: string, sectionTipo: string, sectionId: number, changedData: unknown[]) => ({
  action: 'save',
  source: { type: 'component', tipo, section_tipo: sectionTipo, section_id: sectionId, mode: 'edit' },
  data: { changed_data: changedData },
});
const duplicate = (sectionTipo: string, sectionId: number) => ({
  action: 'duplicate',
  source: { section_tipo: sectionTipo, section_id: sectionId },
});
const del = (sectionTipo: string, sectionId: number, mode = 'delete_data') => ({
  action: 'delete',
  source: { section_tipo: sectionTipo, section_id: sectionId, delete_mode: mode },
});
const sessionsWidget = {
  dd_api: 'dd_area_maintenance_api',
  action: 'get_widget_value',
  source: { model: 'sessions' },
  options: {},
};
const grant = (section_tipo: string, tipo: string, value: number) => ({ section_tipo, tipo, value });

const PASSWORD = 'rights ceiling password';
/** Profile 1 is the bootstrap's Admin (3 everywhere). */
const ADMIN_PROFILE = 1;
/** A user with the Admin profile who is not a global admin. */
const ADMIN_USER = 20;
/** A global admin with an empty profile. */
const GLOBAL_USER = 21;
/** A user manager: 2 on users, profiles and oh1, nothing else; project 1. */
const MANAGER_PROFILE = 30;
const MANAGER_USER = 30;
/** A plain user the manager may manage (profile 31: 1 on oh1). */
const LOW_PROFILE = 31;
const LOW_USER = 31;
/** A user listing the low profile first and the Admin profile second. */
const TWO_PROFILES_USER = 32;
/** A user of project 2 (not the manager's) and the profile only they hold (1 on oh1). */
const FOREIGN_PROFILE = 33;
const FOREIGN_USER = 33;

describe.each(workEngineCases())('rights ceiling ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let admin: WorkBrowser;
  let manager: WorkBrowser;

  const as = async (username: string, password = PASSWORD) => {
    const browser = work.browser();
    const login = await browser.login(username, password);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    return browser;
  };
  const ok = (answer: WorkAnswer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer;
  };
  const refused = (answer: WorkAnswer, code: string, message?: RegExp) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(403);
    expect(answer.body.error.code).toBe(code);
    if (message) expect(answer.body.error.message).toMatch(message);
  };
  const userCount = async () =>
    Number(
      (await work.server.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM matrix_users`)).rows[0]!.n,
    );
  const stored = async (table: string, sectionTipo: string, id: number) =>
    (
      await work.server.db.query<{ relation: unknown; misc: unknown; string: unknown }>(
        `SELECT relation, misc, string FROM ${table} WHERE section_tipo = $1 AND section_id = $2`,
        [sectionTipo, id],
      )
    ).rows[0];

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    await insertProject(db, 2);
    await insertLoginUser(db, ADMIN_USER, {
      username: 'admin',
      password: PASSWORD,
      profile: ADMIN_PROFILE,
      projects: [1],
    });
    await insertLoginUser(db, GLOBAL_USER, {
      username: 'global',
      password: PASSWORD,
      projects: [1],
      globalAdmin: true,
    });
    await insertProfile(db, MANAGER_PROFILE, [
      ...accessItemsUnder(ontology, 'dd128', 2),
      ...accessItemsUnder(ontology, 'dd234', 2),
      ...accessItemsUnder(ontology, 'oh1', 2),
    ]);
    await insertLoginUser(db, MANAGER_USER, {
      username: 'manager',
      password: PASSWORD,
      profile: MANAGER_PROFILE,
      projects: [1],
    });
    await insertProfile(db, LOW_PROFILE, accessItemsUnder(ontology, 'oh1', 1));
    await insertLoginUser(db, LOW_USER, {
      username: 'low',
      password: PASSWORD,
      profile: LOW_PROFILE,
      projects: [1],
    });
    await insertUser(db, TWO_PROFILES_USER, { profile: LOW_PROFILE, projects: [1] });
    await insertProfile(db, FOREIGN_PROFILE, accessItemsUnder(ontology, 'oh1', 1));
    await insertUser(db, FOREIGN_USER, { profile: FOREIGN_PROFILE, projects: [2] });
    await db.query(
      `UPDATE matrix_users SET relation = jsonb_set(relation, '{dd1725}', relation -> 'dd1725' || $1::jsonb)
       WHERE section_tipo = 'dd128' AND section_id = $2`,
      [
        JSON.stringify([
          { type: 'dd151', section_tipo: 'dd234', section_id: ADMIN_PROFILE, from_component_tipo: 'dd1725' },
        ]),
        TWO_PROFILES_USER,
      ],
    );
    root = await as('root', TEST_ROOT_PASSWORD);
    admin = await as('admin');
    manager = await as('manager');
  });
  afterAll(async () => {
    await work?.stop();
  });

  it('issue 21: an Admin-profile user cannot copy root into a global admin of their own', async () => {
    const before = await userCount();
    const copy = await admin.post(duplicate('dd128', -1));
    refused(copy, 'perm.global_admin_required', /dd128 .*global administrator/);
    expect(await userCount()).toBe(before);
    // Had the copy been made, this is what the admin would do with it: the path stays closed.
    if (copy.status === 200) {
      const id = copy.body.data as number;
      ok(await admin.post(save('dd132', 'dd128', id, [{ action: 'insert', value: { value: 'rootcopy' } }])));
      ok(await admin.post(save('dd133', 'dd128', id, [{ action: 'insert', value: { value: PASSWORD } }])));
      const rootCopy = await as('rootcopy');
      refused(await rootCopy.post(sessionsWidget), 'perm.global_admin_required');
    }
    // The admin is refused the global-admin-only widget; root copies root (global admins keep full power).
    refused(await admin.post(sessionsWidget), 'perm.global_admin_required');
    const rootsCopy = ok(await root.post(duplicate('dd128', -1))).body.data as number;
    expect(rootsCopy).toBeGreaterThan(0);
    ok(await root.post(del('dd128', rootsCopy, 'delete_record')));
  });

  it('a non-global admin cannot copy, change or delete root or a global admin', async () => {
    refused(await admin.post(duplicate('dd128', GLOBAL_USER)), 'perm.global_admin_required');
    refused(
      await admin.post(save('dd133', 'dd128', -1, [{ action: 'insert', value: { value: 'taken over!' } }])),
      'perm.global_admin_required',
      /dd128 -1 is root/,
    );
    refused(
      await admin.post(save('dd452', 'dd128', GLOBAL_USER, [{ action: 'insert', value: { value: 'x' } }])),
      'perm.global_admin_required',
      /dd128 21 is a global administrator/,
    );
    refused(
      await admin.post(
        save('dd133', 'dd128', GLOBAL_USER, [{ action: 'insert', value: { value: 'taken over!' } }]),
      ),
      'perm.global_admin_required',
    );
    refused(await admin.post(del('dd128', GLOBAL_USER)), 'perm.global_admin_required');
    refused(await admin.post(del('dd128', GLOBAL_USER, 'delete_record')), 'perm.global_admin_required');
    // Withdrawing or granting the flag: global admins only.
    refused(
      await admin.post(
        save('dd244', 'dd128', GLOBAL_USER, [
          { action: 'set_data', value: [{ section_tipo: 'dd64', section_id: 2 }] },
        ]),
      ),
      'perm.global_admin_required',
    );
    refused(
      await admin.post(
        save('dd244', 'dd128', ADMIN_USER, [
          { action: 'set_data', value: [{ section_tipo: 'dd64', section_id: 1 }] },
        ]),
      ),
      'perm.global_admin_required',
    );
    // Deleting the profile or project root holds would change root.
    refused(await admin.post(del('dd234', ADMIN_PROFILE, 'delete_record')), 'perm.global_admin_required');
    const global = await as('global');
    ok(await global.post(save('dd452', 'dd128', -1, [{ action: 'insert', value: { value: 'Root' } }])));
    expect(JSON.stringify((await stored('matrix_users', 'dd128', GLOBAL_USER))!.relation)).toContain('dd244');
  });

  it('profiles: no grant above the actor, by save (every change kind), duplicate or create', async () => {
    // The manager raises their own profile: refused, and the message says what exceeds what.
    const raise = await manager.post(
      save('dd774', 'dd234', MANAGER_PROFILE, [
        { action: 'set_data', value: [...accessItemsUnder(ontology, 'oh1', 2), grant('oh1', 'oh14', 3)] },
      ]),
    );
    refused(raise, 'perm.denied', /dd234 30 would give level 3 on oh14 of oh1 .*above your level 2 there/);
    expect(raise.body.error.details).toMatchObject({ tipo: 'oh14', level: 3, your_level: 2 });
    refused(
      await manager.post(
        save('dd774', 'dd234', LOW_PROFILE, [{ action: 'insert', value: grant('dd88', 'dd88', 1) }]),
      ),
      'perm.denied',
      /level 1 on dd88 .*above your level 0/,
    );
    refused(
      await manager.post(
        save('dd774', 'dd234', LOW_PROFILE, [{ action: 'update', key: 0, value: grant('oh1', 'oh16', 3) }]),
      ),
      'perm.denied',
    );
    // Copying the Admin profile: refused; copying one's own: fine.
    refused(
      await manager.post(duplicate('dd234', ADMIN_PROFILE)),
      'perm.denied',
      /dd234 \d+ would give level 3/,
    );
    const ownCopy = ok(await manager.post(duplicate('dd234', MANAGER_PROFILE))).body.data as number;
    // Within the manager's levels: allowed (lower, equal).
    ok(
      await manager.post(
        save('dd774', 'dd234', ownCopy, [
          { action: 'set_data', value: accessItemsUnder(ontology, 'oh1', 1) },
        ]),
      ),
    );
    const created = ok(await manager.post({ action: 'create', source: { section_tipo: 'dd234' } })).body
      .data as number;
    ok(
      await manager.post(
        save('dd774', 'dd234', created, [{ action: 'insert', value: grant('oh1', 'oh14', 2) }]),
      ),
    );
    refused(
      await manager.post(
        save('dd774', 'dd234', created, [{ action: 'insert', value: grant('dd128', 'dd244', 3) }]),
      ),
      'perm.denied',
    );
    // The refused saves left nothing behind.
    expect(JSON.stringify((await stored('matrix_profiles', 'dd234', MANAGER_PROFILE))!.misc)).not.toContain(
      '"value":3',
    );
    // Raising a profile raises its holders: not one held in a project the manager is not in...
    const foreignRaise = await manager.post(
      save('dd774', 'dd234', FOREIGN_PROFILE, [{ action: 'insert', value: grant('oh1', 'oh14', 2) }]),
    );
    refused(
      foreignRaise,
      'perm.out_of_scope',
      /dd234 33 would raise dd128 33 \(level 2 on oh14 of oh1\), who is in project dd153 2, which is not one of your projects \(1\)/,
    );
    // ...while lowering it is fine.
    ok(
      await manager.post(
        save('dd774', 'dd234', FOREIGN_PROFILE, [{ action: 'insert', value: grant('oh1', 'oh14', 0) }]),
      ),
    );
    // Root may grant anything.
    ok(
      await root.post(
        save('dd774', 'dd234', created, [{ action: 'insert', value: grant('oh1', 'oh16', 3) }]),
      ),
    );
  });

  it('users: no profile, project or flag above the actor, and no account raised above itself', async () => {
    // Own account: the Admin profile, or another project.
    refused(
      await manager.post(
        save('dd1725', 'dd128', MANAGER_USER, [
          { action: 'set_data', value: [{ section_tipo: 'dd234', section_id: ADMIN_PROFILE }] },
        ]),
      ),
      'perm.denied',
      /dd128 30 would hold profile dd234 1 .*which gives level 3 .*above your level/,
    );
    refused(
      await manager.post(
        save('dd170', 'dd128', MANAGER_USER, [
          { action: 'insert', value: { section_tipo: 'dd153', section_id: 2 } },
        ]),
      ),
      'perm.out_of_scope',
      /dd128 30 would be in project dd153 2 .*not one of your projects \(1\)/,
    );
    // Another user: the same, with insert, and with a second profile after the first.
    refused(
      await manager.post(
        save('dd1725', 'dd128', LOW_USER, [
          { action: 'insert', value: { section_tipo: 'dd234', section_id: ADMIN_PROFILE } },
        ]),
      ),
      'perm.denied',
    );
    // A user who already holds more (Admin listed second) cannot be changed, not even renamed...
    refused(
      await manager.post(
        save('dd452', 'dd128', TWO_PROFILES_USER, [{ action: 'insert', value: { value: 'x' } }]),
      ),
      'perm.denied',
    );
    // ...nor can the profile listed first be deleted (the user would fall back to Admin).
    refused(await manager.post(del('dd234', LOW_PROFILE, 'delete_record')), 'perm.denied', /dd128 32/);
    expect(await stored('matrix_profiles', 'dd234', LOW_PROFILE)).toBeDefined();
    // Copying the Admin-profile user.
    refused(await manager.post(duplicate('dd128', ADMIN_USER)), 'perm.denied');
    // What the manager may do: a user with the manager's own profile and project, a copy of it,
    // then change its password and take a lower profile.
    const user = ok(await manager.post({ action: 'create', source: { section_tipo: 'dd128' } })).body
      .data as number;
    ok(await manager.post(save('dd132', 'dd128', user, [{ action: 'insert', value: { value: 'made' } }])));
    ok(await manager.post(save('dd133', 'dd128', user, [{ action: 'insert', value: { value: PASSWORD } }])));
    ok(
      await manager.post(
        save('dd1725', 'dd128', user, [
          { action: 'insert', value: { section_tipo: 'dd234', section_id: MANAGER_PROFILE } },
        ]),
      ),
    );
    ok(
      await manager.post(
        save('dd170', 'dd128', user, [{ action: 'insert', value: { section_tipo: 'dd153', section_id: 1 } }]),
      ),
    );
    ok(
      await manager.post(
        save('dd131', 'dd128', user, [{ action: 'insert', value: { section_tipo: 'dd64', section_id: 1 } }]),
      ),
    );
    ok(await manager.post(duplicate('dd128', user)));
    ok(
      await manager.post(
        save('dd1725', 'dd128', user, [
          { action: 'set_data', value: [{ section_tipo: 'dd234', section_id: LOW_PROFILE }] },
        ]),
      ),
    );
    // The low user can still be demoted or deleted by the manager.
    ok(await manager.post(del('dd128', LOW_USER)));
    // A global admin assigns anything.
    const global = await as('global');
    ok(
      await global.post(
        save('dd1725', 'dd128', user, [
          { action: 'set_data', value: [{ section_tipo: 'dd234', section_id: ADMIN_PROFILE }] },
        ]),
      ),
    );
    ok(
      await global.post(
        save('dd170', 'dd128', user, [{ action: 'insert', value: { section_tipo: 'dd153', section_id: 2 } }]),
      ),
    );
  });
});
