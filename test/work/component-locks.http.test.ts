/**
 * Component locks over HTTP on each engine (docs/work-api.md): two sessions
 * competing for one field, the heartbeat and the 150 s expiry on an injected clock, the save
 * refusal (nothing written), release on blur / leaving the section / quit / session expiry, and
 * the maintenance actions (get_active_users, force_unlock_all_components with its permission
 * refusals). Two more blocks run two server instances on one PostgreSQL database: in one
 * process with a shared injected clock (expiry included), and as two separate server processes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadWorkConfig } from '../../src/work/config.js';
import { LOCK_TTL_MS, purgeExpiredLocks } from '../../src/work/locks/component-locks.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { type RunningWorkServer, startWorkServer } from '../../src/work/server.js';
import { PgClient } from '../../src/work/store/pg-client.js';
import type { SqlClient, SqlQueryable } from '../../src/work/store/sql-client.js';
import { compiledEntry } from '../helpers/compiled-sources.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';
import { insertInterview, insertLoginUser, insertProfile } from '../helpers/work-permissions.js';
import {
  instancesBrowser,
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  testClock,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const SECOND = 1000;

const lock = (action: string, sectionId: number | null, componentTipo: string | null = 'oh16') => ({
  dd_api: 'dd_utils_api',
  action: 'update_lock_components_state',
  prevent_lock: true,
  options: { section_tipo: 'oh1', section_id: sectionId, component_tipo: componentTipo, action },
});

const lockActions = (fnAction: string, extra: Record<string, unknown> = {}) => ({
  dd_api: 'dd_area_maintenance_api',
  action: 'lock_components_actions',
  options: { fn_action: fnAction, ...extra },
});

const saveTitle = (sectionId: number, value: string, tipo = 'oh16') => ({
  action: 'save',
  source: { section_tipo: 'oh1', section_id: sectionId, tipo, lang: 'lg-eng' },
  data: { changed_data: [{ action: 'insert', id: null, value }] },
});

function expectRefused(answer: WorkAnswer, status: number, code: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.ok).toBe(false);
  expect(answer.body.error.code).toBe(code);
}

function expectOk(answer: WorkAnswer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.ok).toBe(true);
}

async function setFullName(db: SqlQueryable, userId: number, fullName: string) {
  await db.query(
    `UPDATE matrix_users SET string = string || jsonb_build_object('dd452', $1::jsonb)
     WHERE section_tipo = 'dd128' AND section_id = $2`,
    [JSON.stringify([{ id: 1, lang: 'lg-nolan', value: fullName }]), userId],
  );
}

/** Users of both blocks: ana and bob cataloguers, reader (level 1), keeper (maintenance, not admin). */
async function seedUsers(db: SqlQueryable, ontology: Parameters<typeof accessItemsUnder>[0]) {
  await insertProfile(db, 3, [...accessItemsUnder(ontology, 'oh9000', 1)]);
  await insertProfile(db, 4, [
    ...accessItemsUnder(ontology, 'oh9000', 2),
    ...accessItemsUnder(ontology, 'dd88', 2),
  ]);
  await insertLoginUser(db, 1, { username: 'ana', password: 'ana password', profile: 2, projects: [1] });
  await insertLoginUser(db, 2, { username: 'bob', password: 'bob password', profile: 2, projects: [1] });
  await insertLoginUser(db, 3, {
    username: 'reader',
    password: 'reader password',
    profile: 3,
    projects: [1],
  });
  await insertLoginUser(db, 4, {
    username: 'keeper',
    password: 'keeper password',
    profile: 4,
    projects: [1],
  });
  await setFullName(db, 1, 'Ana Pérez');
  await setFullName(db, 2, 'Bob Smith');
}

/** Statements matching this fail inside a transaction (a dropped connection, say). */
let failInsideTransaction: RegExp | undefined;
/** Runs inside the transaction just before each statement (a concurrent change, simulated). */
let beforeStatement: ((sql: string, tx: SqlQueryable) => Promise<void>) | undefined;

function failureInjector(db: SqlClient): SqlClient {
  const tx = (inner: SqlQueryable): SqlQueryable => ({
    query: async (sql, params) => {
      if (failInsideTransaction?.test(sql)) throw new Error('injected failure');
      await beforeStatement?.(sql, inner);
      return inner.query(sql, params);
    },
  });
  return {
    engine: db.engine,
    query: (sql, params) => db.query(sql, params),
    transaction: (fn) => db.transaction((inner) => fn(tx(inner))),
    close: () => db.close(),
  };
}

describe.each(workEngineCases())('component locks over HTTP ($engine)', (engine) => {
  let work: WorkServerHandle;
  let nextRecord = 0;
  /** A fresh interview for each test, so that no test sees another's locks. */
  const newInterview = async () => {
    nextRecord += 1;
    await insertInterview(work.server.db, nextRecord, [1]);
    return nextRecord;
  };
  const login = async (username: string, password = `${username} password`): Promise<WorkBrowser> => {
    const browser = work.browser();
    const answer =
      username === 'root'
        ? await browser.login('root', TEST_ROOT_PASSWORD)
        : await browser.login(username, password);
    expectOk(answer);
    return browser;
  };
  const liveRows = async () =>
    (
      await work.server.db.query<{ user_id: number; section_id: number; component_tipo: string }>(
        'SELECT user_id, section_id, component_tipo FROM component_locks ORDER BY section_id, component_tipo',
      )
    ).rows;

  beforeAll(async () => {
    work = await startTestWorkServer(engine, {}, { wrapDb: failureInjector });
    await seedUsers(work.server.db, loadOntology());
  });
  afterAll(async () => {
    await work?.stop();
  });

  it('start tells the client that locks are on', async () => {
    const answer = await work.post({ action: 'start', options: {} });
    expectOk(answer);
    expect(answer.body.environment.plain_vars.DEDALO_LOCK_COMPONENTS).toBe(true);
  });

  it('a second user is refused with the holder named; the holder renews and releases it', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    const bob = await login('bob');

    const taken = await ana.post(lock('focus', id));
    expectOk(taken);
    expect(taken.body.in_use).toBe(false);
    const since = taken.body.data.since;
    expect(since).toBe(work.clock.now().toISOString());

    const refused = await bob.post(lock('focus', id));
    expectRefused(refused, 409, 'record.in_use');
    expect(refused.body.error.message).toBe(`Ana Pérez (ana) has been editing this component since ${since}`);
    expect(refused.body.error.details).toEqual({
      section_tipo: 'oh1',
      section_id: id,
      component_tipo: 'oh16',
      holder: { user_id: 1, username: 'ana', full_username: 'Ana Pérez', since },
    });

    // Another field of the same record is free.
    expectOk(await bob.post(lock('focus', id, 'oh14')));

    // A renewal (the heartbeat) keeps "since"; bob's blur of a lock he does not hold changes nothing.
    work.clock.advance(10 * SECOND);
    const renewed = await ana.post(lock('focus', id));
    expectOk(renewed);
    expect(renewed.body.data.since).toBe(since);
    expect((await bob.post(lock('blur', id))).body.data).toEqual({ released: 0 });
    expectRefused(await bob.post(lock('focus', id)), 409, 'record.in_use');

    expect((await ana.post(lock('blur', id))).body.data).toEqual({ released: 1 });
    expectOk(await bob.post(lock('focus', id)));
  });

  it('two users focusing the same field at the same moment: exactly one gets it', async () => {
    const ana = await login('ana');
    const bob = await login('bob');
    for (let round = 0; round < 5; round++) {
      const id = await newInterview();
      const answers = await Promise.all([ana.post(lock('focus', id)), bob.post(lock('focus', id))]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers[0]!.status === 200 ? 1 : 2;
      const loser = answers.find((a) => a.status === 409)!;
      expect(loser.body.error.details.holder.user_id).toBe(winner);
      expect((await liveRows()).filter((r) => r.section_id === id)).toEqual([
        { user_id: winner, section_id: id, component_tipo: 'oh16' },
      ]);
    }
  });

  it('a lock lapses 150 s after its last focus, and each focus pushes that back', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    const bob = await login('bob');
    expectOk(await ana.post(lock('focus', id)));

    work.clock.advance(100 * SECOND);
    expectOk(await ana.post(lock('focus', id))); // heartbeat at 100 s: now held until 250 s
    work.clock.advance(100 * SECOND); // 200 s: past the first 150 s, not past the renewal's
    expectRefused(await bob.post(lock('focus', id)), 409, 'record.in_use');
    work.clock.advance(LOCK_TTL_MS - 100 * SECOND - 1); // 1 ms before it lapses
    expectRefused(await bob.post(lock('focus', id)), 409, 'record.in_use');
    work.clock.advance(1);
    const taken = await bob.post(lock('focus', id));
    expectOk(taken);
    expect(taken.body.data.since).toBe(work.clock.now().toISOString());
    // Now ana is the one refused, told it is bob's.
    const refused = await ana.post(lock('focus', id));
    expectRefused(refused, 409, 'record.in_use');
    expect(refused.body.error.details.holder.username).toBe('bob');
  });

  it('the maintenance sweep removes a lapsed lock of a session that is still alive', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    expectOk(await ana.post(lock('focus', id)));
    work.clock.advance(LOCK_TTL_MS + 1);
    expectOk(await ana.post({ dd_api: 'dd_utils_api', action: 'get_system_info' })); // still logged in
    expect((await liveRows()).some((r) => r.section_id === id)).toBe(true);
    const root = await login('root');
    const swept = await root.post({
      dd_api: 'dd_area_maintenance_api',
      action: 'widget_request',
      source: { model: 'sweep', action: 'run' },
      options: {},
    });
    expectOk(swept);
    expect(swept.body.data.purged.expired_component_locks).toBeGreaterThanOrEqual(1);
    expect((await liveRows()).some((r) => r.section_id === id)).toBe(false);
  });

  it('an administrator ending a user’s sessions from the sessions widget releases their locks', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    expectOk(await ana.post(lock('focus', id)));
    const anaId = (await liveRows()).find((r) => r.section_id === id)!.user_id;
    const root = await login('root');
    expectOk(
      await root.post({
        dd_api: 'dd_area_maintenance_api',
        action: 'widget_request',
        source: { model: 'sessions', action: 'end_session' },
        options: { user_id: anaId },
      }),
    );
    expect((await liveRows()).some((r) => r.section_id === id)).toBe(false);
    const bob = await login('bob');
    expectOk(await bob.post(lock('focus', id)));
  });

  it('a save by another user on a locked component is refused and writes nothing', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    const bob = await login('bob');
    expectOk(await ana.post(lock('focus', id)));
    const history = async () =>
      (
        await work.server.db.query(
          `SELECT 1 FROM matrix_time_machine WHERE section_tipo = 'oh1' AND section_id = $1`,
          [id],
        )
      ).rowCount;
    const activity = async () =>
      (await work.server.db.query(`SELECT 1 FROM matrix_activity WHERE created_by = 2`)).rowCount;
    const activityBefore = await activity();

    const refused = await bob.post(saveTitle(id, 'bob title'));
    expectRefused(refused, 409, 'record.in_use');
    expect(refused.body.error.details.holder).toMatchObject({ user_id: 1, full_username: 'Ana Pérez' });
    const { rows } = await work.server.db.query<{ string: Record<string, unknown> }>(
      `SELECT string FROM matrix WHERE section_tipo = 'oh1' AND section_id = $1`,
      [id],
    );
    expect(rows[0]!.string.oh16).toBeUndefined();
    expect(await history()).toBe(0);
    expect(await activity()).toBe(activityBefore);

    // Positive controls: bob saves a field nobody holds; ana saves the field she holds.
    expectOk(await bob.post(saveTitle(id, 'CODE-1', 'oh14')));
    const saved = await ana.post(saveTitle(id, 'ana title'));
    expectOk(saved);
    // Once the lock lapses bob may save it.
    work.clock.advance(LOCK_TTL_MS);
    expectOk(await bob.post(saveTitle(id, 'bob title')));
  });

  it('one field per record: focusing another field of the record drops the first', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    expectOk(await ana.post(lock('focus', id, 'oh16')));
    expectOk(await ana.post(lock('focus', id, 'oh14')));
    expect((await liveRows()).filter((r) => r.section_id === id)).toEqual([
      { user_id: 1, section_id: id, component_tipo: 'oh14' },
    ]);
  });

  it('delete_user_section_locks releases the user’s locks of the section, as the stock client sends it', async () => {
    const a = await newInterview();
    const b = await newInterview();
    const ana = await login('ana');
    const bob = await login('bob');
    expectOk(await ana.post(lock('focus', a)));
    expectOk(await ana.post(lock('focus', b)));
    expectOk(await bob.post(lock('focus', b, 'oh14')));
    const released = await ana.post(lock('delete_user_section_locks', null, null));
    expectOk(released);
    // Both of these, and any ana still had from earlier tests: none of hers is left.
    expect(released.body.data.released).toBeGreaterThanOrEqual(2);
    expect((await liveRows()).filter((r) => r.user_id === 1)).toEqual([]);
    expectOk(await bob.post(lock('focus', a)));
    // bob's own lock stayed.
    expect((await liveRows()).filter((r) => r.user_id === 2 && r.section_id === b)).toHaveLength(1);
  });

  it('quit releases the user’s locks', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    const bob = await login('bob');
    expectOk(await ana.post(lock('focus', id)));
    expectOk(await ana.post({ dd_api: 'dd_utils_api', action: 'quit' }));
    expect((await liveRows()).filter((r) => r.section_id === id)).toEqual([]);
    expectOk(await bob.post(lock('focus', id)));
  });

  it('a session that has ended (past its absolute end) holds no lock, and the purge removes it', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    const bob = await login('bob');
    expectOk(await ana.post(lock('focus', id)));
    // Ana's session reaches its end (twelve hours after login) while her lock still has time.
    await work.server.db.query('UPDATE sessions SET expires_at = $1::timestamptz WHERE user_id = 1', [
      work.clock.now().toISOString(),
    ]);
    expect(await purgeExpiredLocks(work.server.db, work.clock.now())).toBeGreaterThanOrEqual(1);
    expect((await liveRows()).filter((r) => r.user_id === 1)).toEqual([]);
    expectOk(await bob.post(lock('focus', id)));
    // Her next request finds no session.
    expectRefused(await ana.post(lock('focus', id)), 401, 'auth.not_logged');
  });

  it('an expired session is deleted on its next use and its locks go with it', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    const bob = await login('bob');
    expectOk(await ana.post(lock('focus', id)));
    await work.server.db.query('UPDATE sessions SET expires_at = $1::timestamptz WHERE user_id = 1', [
      work.clock.now().toISOString(),
    ]);
    expectRefused(await ana.post(lock('focus', id)), 401, 'auth.not_logged');
    // The row went with the session (foreign key), not by a purge.
    expect((await liveRows()).filter((r) => r.user_id === 1)).toEqual([]);
    expectOk(await bob.post(lock('focus', id)));
  });

  it('a session ended while its focus runs answers 401, not a 5xx, and leaves no lock', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    // Ana's session is ended (another tab quits) after this request resolved it, before the
    // lock row is written.
    beforeStatement = async (sql, tx) => {
      if (sql.includes('INSERT INTO component_locks'))
        await tx.query('DELETE FROM sessions WHERE user_id = 1');
    };
    try {
      expectRefused(await ana.post(lock('focus', id)), 401, 'auth.not_logged');
    } finally {
      beforeStatement = undefined;
    }
    expect((await liveRows()).filter((r) => r.section_id === id)).toEqual([]);
  });

  it('refuses bad input with 4xx, and a reader may not lock a field', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    const reader = await login('reader');
    expectRefused(await ana.post(lock('grab', id)), 400, 'rqo.invalid_field');
    expectRefused(await ana.post(lock('focus', id, 'rsc85')), 400, 'rqo.invalid_field');
    expectRefused(await ana.post(lock('focus', id, 'nope999')), 404, 'element.unknown_tipo');
    expectRefused(await ana.post(lock('focus', null)), 400, 'rqo.invalid_field');
    expectRefused(await ana.post(lock('focus', 999_999)), 404, 'resource.not_found');
    expectRefused(
      await ana.post({ dd_api: 'dd_utils_api', action: 'update_lock_components_state' }),
      400,
      'rqo.invalid_field',
    );
    expectRefused(await reader.post(lock('focus', id)), 403, 'perm.denied');
    // The activity log is consultation-only: none of its fields can be held.
    const activityLock = lock('focus', 1, 'dd545');
    activityLock.options.section_tipo = 'dd542';
    expectRefused(await (await login('root')).post(activityLock), 403, 'perm.section_not_writable');
    // Without a session: the gate refuses before anything else.
    expectRefused(await work.post(lock('focus', id)), 401, 'auth.not_logged');
  });

  it('get_active_users lists live locks; force_unlock_all_components is for global admins only', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    const keeper = await login('keeper');
    const root = await login('root');
    // Start from a clean table (earlier tests' locks may still be live).
    expectOk(await root.post(lockActions('force_unlock_all_components')));
    expectOk(await ana.post(lock('focus', id)));

    const listed = await keeper.post(lockActions('get_active_users'));
    expectOk(listed);
    expect(listed.body.data).toEqual([
      {
        user_id: 1,
        username: 'ana',
        full_username: 'Ana Pérez',
        section_tipo: 'oh1',
        section_id: id,
        component_tipo: 'oh16',
        date: work.clock.now().toISOString(),
        expires_at: new Date(work.clock.now().getTime() + LOCK_TTL_MS).toISOString(),
        section_label: 'Interviews',
        component_label: 'Title',
        component_model: 'component_input_text',
      },
    ]);

    // A cataloguer has no maintenance access; the keeper has it but is not a global admin.
    expectRefused(await ana.post(lockActions('get_active_users')), 403, 'perm.denied');
    expectRefused(await ana.post(lockActions('force_unlock_all_components')), 403, 'perm.denied');
    expectRefused(
      await keeper.post(lockActions('force_unlock_all_components')),
      403,
      'perm.global_admin_required',
    );
    expect((await liveRows()).filter((r) => r.section_id === id)).toHaveLength(1);
    expectRefused(await keeper.post(lockActions('steal_locks')), 400, 'maintenance.invalid_fn_action');
    expectRefused(
      await keeper.post({
        dd_api: 'dd_area_maintenance_api',
        action: 'lock_components_actions',
        options: {},
      }),
      400,
      'rqo.invalid_field',
    );

    // Root releases them (one user's, then everybody's), with an activity row each time.
    const activity = async () =>
      (
        await work.server.db.query<{ data: unknown }>(
          `SELECT misc -> 'dd551' -> 0 -> 'value' AS data FROM matrix_activity
           WHERE string -> 'dd545' -> 0 ->> 'value' = 'force_unlock_components' ORDER BY section_id`,
        )
      ).rows.map((r) => r.data);
    const before = (await activity()).length;
    expect((await root.post(lockActions('force_unlock_all_components', { user_id: 2 }))).body.data).toEqual({
      removed: 0,
    });
    const all = await root.post(lockActions('force_unlock_all_components'));
    expectOk(all);
    expect(all.body.data).toEqual({ removed: 1 });
    expect(await liveRows()).toEqual([]);
    const rows = await activity();
    expect(rows.length).toBe(before + 2);
    expect(rows.at(-2)).toMatchObject({ removed: 0, user_id: 2 });
    expect(rows.at(-1)).toMatchObject({ removed: 1 });
    expectOk(await (await login('bob')).post(lock('focus', id)));
  });

  it('a force-unlock whose activity row fails releases nothing', async () => {
    const id = await newInterview();
    const ana = await login('ana');
    const root = await login('root');
    expectOk(await ana.post(lock('focus', id)));
    failInsideTransaction = /INSERT INTO matrix_activity/;
    try {
      expectRefused(await root.post(lockActions('force_unlock_all_components')), 500, 'internal.unexpected');
    } finally {
      failInsideTransaction = undefined;
    }
    expect((await liveRows()).filter((r) => r.section_id === id)).toEqual([
      { user_id: 1, section_id: id, component_tipo: 'oh16' },
    ]);
    expectRefused(await (await login('bob')).post(lock('focus', id)), 409, 'record.in_use');
  });
});

const postgres = workEngineCases().filter((c) => c.engine === 'postgres');

/**
 * Two instances (URLs a and b) on one database agree on locks: a lock taken through one refuses
 * focus and save through the other, either lists it, and either releases it. `lapse` (when the
 * instances share an injected clock) moves time past the lock's life.
 */
async function locksAcrossInstances(a: string, b: string, lapse?: () => void) {
  const ana = instancesBrowser();
  const bob = instancesBrowser();
  const login = (u: string) => ({
    dd_api: 'dd_utils_api',
    action: 'login',
    options: { username: u, auth: u === 'root' ? TEST_ROOT_PASSWORD : `${u} password` },
  });
  expectOk(await ana.post(a, login('ana')));
  expectOk(await bob.post(b, login('bob')));

  expectOk(await ana.post(a, lock('focus', 1)));
  const refused = await bob.post(b, lock('focus', 1));
  expectRefused(refused, 409, 'record.in_use');
  expect(refused.body.error.details.holder.username).toBe('ana');
  expectRefused(await bob.post(b, saveTitle(1, 'bob title')), 409, 'record.in_use');
  // Instance B lists what A took.
  const root = instancesBrowser();
  expectOk(await root.post(b, login('root')));
  const listed = await root.post(b, lockActions('get_active_users'));
  expect(listed.body.data.map((l: { username: string }) => l.username)).toEqual(['ana']);

  // Released through B (ana's heartbeat and blur go wherever the balancer sends them).
  expectOk(await ana.post(b, lock('focus', 1)));
  expectOk(await ana.post(b, lock('blur', 1)));
  expectOk(await bob.post(a, lock('focus', 1)));
  expectOk(await bob.post(b, saveTitle(1, 'bob title')));
  expectRefused(await ana.post(a, lock('focus', 1)), 409, 'record.in_use');
  if (lapse) {
    // Expiry is read from the shared table by both.
    lapse();
    expectOk(await ana.post(a, lock('focus', 1)));
  }
}

describe.skipIf(postgres.length === 0)(
  'component locks shared by two instances on one PostgreSQL database',
  () => {
    let fresh: FreshDatabase;
    let a: RunningWorkServer;
    let b: RunningWorkServer;
    const clock = testClock();

    beforeAll(async () => {
      fresh = await postgres[0]!.freshDatabase();
      const config = loadWorkConfig({
        PORT: '0',
        LOG_LEVEL: 'silent',
        DEDALO_ROOT_PASSWORD: TEST_ROOT_PASSWORD,
        ...fresh.env,
      });
      a = await startWorkServer(config, { clock: () => clock.now() });
      b = await startWorkServer(config, { clock: () => clock.now() });
      await seedUsers(a.db, loadOntology());
      await insertInterview(a.db, 1, [1]);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await fresh?.dispose();
    });

    it('a lock taken through one instance refuses focus and save through the other', async () => {
      await locksAcrossInstances(a.url, b.url, () => clock.advance(LOCK_TTL_MS));
    });
  },
);

describe.skipIf(postgres.length === 0)(
  'component locks shared by two server processes on one PostgreSQL database',
  () => {
    let main = '';
    let fresh: FreshDatabase;
    const children: ChildProcess[] = [];

    /** Starts `node src/work/main.js` (compiled) and answers its API URL once it listens. */
    function startProcess(env: Record<string, string>): Promise<string> {
      const child = spawn(process.execPath, [main], {
        cwd: dirname(main), // no stray .env from the repository
        env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let output = '';
      child.stderr!.on('data', (b: Buffer) => {
        output += b.toString();
      });
      return new Promise((ready, fail) => {
        child.stdout!.on('data', (b: Buffer) => {
          output += b.toString();
          const url = /Work API listening on (http:\/\/\S+)/.exec(output)?.[1];
          if (url) ready(url);
        });
        child.on('exit', (code) => fail(new Error(`the work server exited with ${code}:\n${output}`)));
      });
    }

    beforeAll(async () => {
      main = await compiledEntry(inject('testRunId'), 'src/work/main.js');
      fresh = await postgres[0]!.freshDatabase();
    }, 180_000);
    afterAll(async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((done) => {
              if (c.exitCode !== null) return done();
              c.once('exit', () => done());
              c.kill('SIGTERM');
            }),
        ),
      );
      await fresh?.dispose();
    });

    it('a lock taken through one process refuses focus and save through the other', async () => {
      const env = {
        DEDALO_ROOT_PASSWORD: TEST_ROOT_PASSWORD,
        WORK_SWEEP_INTERVAL_SECONDS: '0',
        ...fresh.env,
      };
      const a = await startProcess(env); // migrates and bootstraps the database
      const b = await startProcess(env);
      const db = new PgClient({ url: fresh.env.WORK_DB_URL!, poolMax: 1 });
      try {
        await seedUsers(db, loadOntology());
        await insertInterview(db, 1, [1]);
      } finally {
        await db.close();
      }
      await locksAcrossInstances(a, b);
    }, 60_000);
  },
);
