/**
 * dd_area_maintenance_api over HTTP on each engine: the widget registry's refusals, counters out
 * of step repaired by modify_counter, system status, sessions (list, end, login unlock), the
 * sweep, and a permission refusal for each widget method beside a caller who may.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATEGORIES, ERROR_REGISTRY } from '../../src/work/dispatch/error-registry.js';
import { MIGRATIONS } from '../../src/work/store/migrations.js';
import type { SqlClient, SqlQueryable } from '../../src/work/store/sql-client.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile } from '../helpers/work-permissions.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const API = 'dd_area_maintenance_api';
const DAY = 24 * 60 * 60 * 1000;

const value = (model: unknown, options?: Record<string, unknown>) => ({
  dd_api: API,
  action: 'get_widget_value',
  source: { model },
  ...(options ? { options } : {}),
});
const request = (model: unknown, action: unknown, options: Record<string, unknown> = {}) => ({
  dd_api: API,
  action: 'widget_request',
  source: { model, action },
  options,
});

function expectRefused(answer: WorkAnswer, status: number, code: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.ok).toBe(false);
  expect(answer.body.error?.code).toBe(code);
}

function expectOk(answer: WorkAnswer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.ok).toBe(true);
  return answer.body.data;
}

interface CounterRow {
  section_tipo: string;
  counter_value: number | null;
  last_section_id: number;
  out_of_step: boolean;
}

/** Statements matching this fail inside a transaction (set by a test, then cleared). */
let failInsideTransaction: RegExp | undefined;

function failureInjector(db: SqlClient): SqlClient {
  const tx = (inner: SqlQueryable): SqlQueryable => ({
    query: (sql, params) =>
      failInsideTransaction?.test(sql)
        ? Promise.reject(new Error('injected failure'))
        : inner.query(sql, params),
  });
  return {
    engine: db.engine,
    query: (sql, params) => db.query(sql, params),
    transaction: (fn) => db.transaction((inner) => fn(tx(inner))),
    close: () => db.close(),
  };
}

const counterOf = (data: { datalist: CounterRow[] }, tipo: string) =>
  data.datalist.find((r) => r.section_tipo === tipo)!;

describe.each(workEngineCases())('maintenance widgets over HTTP ($engine)', (engine) => {
  let work: WorkServerHandle;
  let base: string;
  let dataDir: string;
  let root: WorkBrowser;
  let maintainer: WorkBrowser;
  let viewer: WorkBrowser;
  let cataloguer: WorkBrowser;

  const as = async (username: string, password: string) => {
    const b = work.browser();
    expect((await b.login(username, password)).status).toBe(200);
    return b;
  };

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'workmaint-'));
    dataDir = join(base, 'data');
    // Behind a trusted local proxy, so a test can speak from its own client address.
    work = await startTestWorkServer(
      engine,
      { WORK_DATA_DIR: dataDir, TRUST_PROXY: '127.0.0.1,::1' },
      { wrapDb: failureInjector },
    );
    const db = work.server.db;
    // Profile 10: level 2 on the maintenance area; 11: level 1; the Cataloguer (2) has 0.
    await insertProfile(db, 10, [{ tipo: 'dd88', section_tipo: 'dd88', value: 2 }]);
    await insertProfile(db, 11, [{ tipo: 'dd88', section_tipo: 'dd88', value: 1 }]);
    await insertLoginUser(db, 1, { username: 'mona', password: 'mona password', profile: 10 });
    await insertLoginUser(db, 2, { username: 'vic', password: 'vic password', profile: 11 });
    await insertLoginUser(db, 3, { username: 'cat', password: 'cat password', profile: 2 });
    await insertLoginUser(db, 4, { username: 'ana', password: 'ana password', profile: 2 });
    root = await as('root', TEST_ROOT_PASSWORD);
    maintainer = await as('mona', 'mona password');
    viewer = await as('vic', 'vic password');
    cataloguer = await as('cat', 'cat password');
  });
  afterAll(async () => {
    await work?.stop();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('refuses an unknown widget or method with a registered 400, never a 5xx', async () => {
    for (const model of ['nope', '__proto__', 'constructor', 'toString']) {
      expectRefused(await root.post(value(model)), 400, 'maintenance.widget_unknown');
      expectRefused(await root.post(request(model, 'run')), 400, 'maintenance.widget_unknown');
    }
    for (const method of ['nope', 'constructor', '__proto__', 'hasOwnProperty', 'value']) {
      const answer = await root.post(request('counters_status', method));
      expectRefused(answer, 400, 'maintenance.action_refused');
      expect(answer.body.error.message).toContain('modify_counter');
    }
    expectRefused(await root.post(request('system_status', 'run')), 400, 'maintenance.action_refused');
    expectRefused(await root.post({ dd_api: API, action: 'get_widget_value' }), 400, 'rqo.invalid_field');
    expectRefused(await root.post(value(42)), 400, 'rqo.invalid_field');
    expectRefused(await root.post(request('sweep', ['run'])), 400, 'rqo.invalid_field');
    expectRefused(await root.post({ dd_api: API, action: 'class_request' }), 400, 'request.unknown_action');
    // Without a session: 401 before anything else.
    expectRefused(await work.browser().post(value('counters_status')), 401, 'auth.not_logged');
  });

  it('lists a counter left behind by a direct insert; fix and reset repair it, with activity rows', async () => {
    const created = expectOk(await root.post({ action: 'create', source: { section_tipo: 'oh1' } }));
    const before = counterOf(expectOk(await root.post(value('counters_status'))), 'oh1');
    expect(before).toMatchObject({ counter_value: created, last_section_id: created, out_of_step: false });

    // Rows written behind the API's back (a restore, an import): the counter does not know them.
    await work.server.db.query(
      "INSERT INTO matrix (section_tipo, section_id) VALUES ('oh1', $1), ('oh1', $2)",
      [created + 1, created + 5],
    );
    const drift = counterOf(expectOk(await root.post(value('counters_status'))), 'oh1');
    expect(drift).toMatchObject({ counter_value: created, last_section_id: created + 5, out_of_step: true });
    // The create the drift breaks: its id exists.
    expectRefused(
      await root.post({ action: 'create', source: { section_tipo: 'oh1' } }),
      409,
      'resource.conflict',
    );

    const fixed = expectOk(
      await root.post(
        request('counters_status', 'modify_counter', { section_tipo: 'oh1', counter_action: 'fix' }),
      ),
    );
    expect(fixed).toMatchObject({ result: true, msg: 'OK. fix counter successfully oh1' });
    expect(counterOf(fixed, 'oh1')).toMatchObject({
      counter_value: created + 5,
      last_section_id: created + 5,
      out_of_step: false,
    });
    expect(expectOk(await root.post({ action: 'create', source: { section_tipo: 'oh1' } }))).toBe(
      created + 6,
    );

    const reset = expectOk(
      await root.post(
        request('counters_status', 'modify_counter', { section_tipo: 'oh1', counter_action: 'reset' }),
      ),
    );
    expect(counterOf(reset, 'oh1')).toMatchObject({ counter_value: null, out_of_step: false });
    // A reset counter starts after the highest id, never over an existing record.
    expect(expectOk(await root.post({ action: 'create', source: { section_tipo: 'oh1' } }))).toBe(
      created + 7,
    );

    const { rows } = await work.server.db.query<{ misc: { dd551: { value: Record<string, unknown> }[] } }>(
      `SELECT misc FROM matrix_activity
       WHERE string->'dd545'->0->>'value' = 'modify_counter' AND created_by = -1 ORDER BY section_id`,
    );
    expect(rows.map((r) => r.misc.dd551[0]!.value)).toEqual([
      expect.objectContaining({ section_tipo: 'oh1', counter_action: 'fix', counter_before: created }),
      expect.objectContaining({ section_tipo: 'oh1', counter_action: 'reset', counter_before: created + 6 }),
    ]);

    expectRefused(
      await root.post(
        request('counters_status', 'modify_counter', { section_tipo: 'oh1', counter_action: 'zero' }),
      ),
      400,
      'rqo.invalid_field',
    );
    for (const section_tipo of ['oh14', 'nope', 'dd542']) {
      expectRefused(
        await root.post(
          request('counters_status', 'modify_counter', { section_tipo, counter_action: 'fix' }),
        ),
        400,
        'rqo.invalid_field',
      );
    }
  });

  it('reports the version, engine, database size, migrations, live sessions and uptime', async () => {
    const status = expectOk(await viewer.post(value('system_status')));
    const latest = Math.max(...MIGRATIONS.map((m) => m.version));
    expect(status).toMatchObject({
      version: '2.1.0',
      database_engine: engine.engine,
      schema_version: latest,
      active_sessions: expect.any(Number),
      uptime_seconds: expect.any(Number),
    });
    expect(status.database_size_bytes).toBeGreaterThan(100_000);
    expect(status.migrations.map((m: { version: number }) => m.version)).toEqual(
      MIGRATIONS.map((m) => m.version).sort((a, b) => a - b),
    );
    // root, mona, vic, cat at least (other tests may add more).
    expect(status.active_sessions).toBeGreaterThanOrEqual(4);
  });

  it('lists live sessions for a global admin, and ends one by session_id or all of a user', async () => {
    const ana1 = await as('ana', 'ana password');
    const ana2 = await as('ana', 'ana password');
    const listed = expectOk(await root.post(value('sessions')));
    const anas = listed.sessions.filter((s: { username: string }) => s.username === 'ana');
    expect(anas).toHaveLength(2);
    const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    for (const k of ['created_at', 'last_seen_at', 'expires_at']) expect(anas[0][k]).toMatch(ISO);
    expect(anas[0]).toMatchObject({
      user_id: 4,
      session_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      current: false,
    });
    expect(listed.sessions.filter((s: { current: boolean }) => s.current)).toEqual([
      expect.objectContaining({ user_id: -1, username: 'root' }),
    ]);
    // Never the cookie token or the CSRF token.
    const text = JSON.stringify(listed);
    for (const b of [ana1, ana2]) {
      expect(text).not.toContain(b.cookies.get('dedalo_session'));
      expect(text).not.toContain(b.csrfToken);
    }

    // One of ana's two sessions ends: one of her browsers is logged out, the other is not.
    const ended = expectOk(
      await root.post(request('sessions', 'end_session', { session_id: anas[0].session_id })),
    );
    expect(ended).toMatchObject({ result: true, ended: 1 });
    const statuses = [
      (await ana1.post({ dd_api: 'dd_utils_api', action: 'get_system_info' })).status,
      (await ana2.post({ dd_api: 'dd_utils_api', action: 'get_system_info' })).status,
    ].sort();
    expect(statuses).toEqual([200, 401]);
    expectRefused(
      await root.post(request('sessions', 'end_session', { session_id: anas[0].session_id })),
      404,
      'resource.not_found',
    );

    expect(expectOk(await root.post(request('sessions', 'end_session', { user_id: 4 })))).toMatchObject({
      ended: 1,
    });
    expectRefused(
      await ana1.post({ dd_api: 'dd_utils_api', action: 'get_system_info' }),
      401,
      'auth.not_logged',
    );
    expectRefused(
      await ana2.post({ dd_api: 'dd_utils_api', action: 'get_system_info' }),
      401,
      'auth.not_logged',
    );
    const again = expectOk(await root.post(value('sessions')));
    expect(again.sessions.some((s: { user_id: number }) => s.user_id === 4)).toBe(false);

    const { rows } = await work.server.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM matrix_activity WHERE string->'dd545'->0->>'value' = 'end_session'`,
    );
    expect(rows[0]!.n).toBe(2);
    for (const options of [
      {},
      { session_id: 'abc' },
      { user_id: '4' },
      { session_id: 'a'.repeat(64), user_id: 4 },
    ]) {
      expectRefused(await root.post(request('sessions', 'end_session', options)), 400, 'rqo.invalid_field');
    }
  });

  it('shows login locks to a global admin, who lifts them', async () => {
    const login = (auth: string, address: string) =>
      work.post(
        { dd_api: 'dd_utils_api', action: 'login', options: { username: 'ana', auth } },
        { headers: { 'x-forwarded-for': address } },
      );
    for (let i = 0; i < 5; i++) expectRefused(await login('guess', '203.0.113.9'), 401, 'auth.login_failed');
    expectRefused(await login('ana password', '203.0.113.9'), 429, 'rate.limited');
    const locks = expectOk(await root.post(value('sessions'))).login_locks;
    expect(locks).toContainEqual(
      expect.objectContaining({
        scope: 'pair',
        username: 'ana',
        address: '203.0.113.9',
        failures: 5,
        locked_until: new Date(work.clock.now().getTime() + 15_000).toISOString(),
        retry_after_seconds: 15,
      }),
    );
    expect(expectOk(await root.post(request('sessions', 'unlock_login', { username: 'Ana' })))).toMatchObject(
      { result: true, removed: expect.any(Number) },
    );
    expect((await login('ana password', '203.0.113.9')).status).toBe(200);
    expect(expectOk(await root.post(value('sessions'))).login_locks).toEqual([]);
    expectRefused(await root.post(request('sessions', 'unlock_login', {})), 400, 'rqo.invalid_field');
  });

  it('sweeps expired sessions and abandoned upload chunks, keeping fresh ones', async () => {
    const now = work.clock.now();
    await work.server.db.query(
      `INSERT INTO sessions (token_sha256, user_id, csrf_token, created_at, last_seen_at, expires_at)
       VALUES ($1, 4, 'x', $2::timestamptz, $2::timestamptz, $3::timestamptz)`,
      [
        'e'.repeat(64),
        new Date(now.getTime() - 2 * DAY).toISOString(),
        new Date(now.getTime() - DAY).toISOString(),
      ],
    );
    const staging = join(dataDir, 'uploads', '4');
    const oldChunks = join(staging, 'av', 'old-upload');
    const freshChunks = join(staging, 'av', 'fresh-upload');
    const oldTemp = join(staging, '.tmp', 'crashed.part');
    const keptFile = join(staging, 'av', 'kept.mp4');
    for (const dir of [oldChunks, freshChunks, join(staging, '.tmp')]) mkdirSync(dir, { recursive: true });
    for (const file of [join(oldChunks, '0'), join(freshChunks, '0'), oldTemp, keptFile])
      writeFileSync(file, 'x');
    const old = new Date(now.getTime() - 2 * DAY);
    for (const path of [join(oldChunks, '0'), oldChunks, oldTemp, keptFile]) utimesSync(path, old, old);

    const report = expectOk(await maintainer.post(request('sweep', 'run')));
    expect(report).toMatchObject({ trigger: 'widget', failed: {} });
    expect(report.purged.expired_sessions).toBeGreaterThanOrEqual(1);
    expect(report.purged.abandoned_upload_chunks).toBe(2);
    expect(existsSync(oldChunks)).toBe(false);
    expect(existsSync(oldTemp)).toBe(false);
    expect(existsSync(join(freshChunks, '0'))).toBe(true);
    expect(existsSync(keptFile)).toBe(true); // a staged file waits for its user
    const { rows } = await work.server.db.query('SELECT 1 FROM sessions WHERE token_sha256 = $1', [
      'e'.repeat(64),
    ]);
    expect(rows).toEqual([]);

    const shown = expectOk(await viewer.post(value('sweep')));
    expect(shown).toEqual({
      interval_seconds: 600,
      last_run: { ran_at: report.ran_at, trigger: 'widget', purged: report.purged, failed: {} },
    });
  });

  it('keeps nothing of a change whose activity row fails to be written', async () => {
    await work.server.db.query("INSERT INTO matrix (section_tipo, section_id) VALUES ('rsc170', 50)");
    const before = counterOf(expectOk(await root.post(value('counters_status'))), 'rsc170');
    expect(before).toMatchObject({ last_section_id: 50 });
    const ana = await as('ana', 'ana password');
    for (let i = 0; i < 5; i++) {
      await work.post(
        { dd_api: 'dd_utils_api', action: 'login', options: { username: 'zed', auth: 'guess' } },
        { headers: { 'x-forwarded-for': '203.0.113.77' } },
      );
    }
    const locksBefore = expectOk(await root.post(value('sessions'))).login_locks;
    failInsideTransaction = /INSERT INTO matrix_activity/;
    try {
      for (const body of [
        request('counters_status', 'modify_counter', { section_tipo: 'rsc170', counter_action: 'fix' }),
        request('counters_status', 'modify_counter', { section_tipo: 'rsc170', counter_action: 'reset' }),
        request('sessions', 'end_session', { user_id: 4 }),
        request('sessions', 'unlock_login', { username: 'zed' }),
      ]) {
        expectRefused(await root.post(body), 500, 'internal.unexpected');
      }
    } finally {
      failInsideTransaction = undefined;
    }
    expect(counterOf(expectOk(await root.post(value('counters_status'))), 'rsc170')).toEqual(before);
    expect((await ana.post({ dd_api: 'dd_utils_api', action: 'get_system_info' })).status).toBe(200);
    expect(expectOk(await root.post(value('sessions'))).login_locks).toEqual(locksBefore);
  });

  it('refuses each widget method to a caller without the access, and lets one with it through', async () => {
    const cases: { body: unknown; allowed: WorkBrowser[]; refused: [WorkBrowser, string][] }[] = [
      {
        body: value('counters_status'),
        allowed: [root, maintainer, viewer],
        refused: [[cataloguer, 'perm.denied']],
      },
      {
        body: request('counters_status', 'modify_counter', { section_tipo: 'rsc197', counter_action: 'fix' }),
        allowed: [root],
        refused: [
          [maintainer, 'perm.global_admin_required'],
          [viewer, 'perm.global_admin_required'],
          [cataloguer, 'perm.global_admin_required'],
        ],
      },
      {
        body: value('system_status'),
        allowed: [root, maintainer, viewer],
        refused: [[cataloguer, 'perm.denied']],
      },
      {
        body: value('sessions'),
        allowed: [root],
        refused: [
          [maintainer, 'perm.global_admin_required'],
          [cataloguer, 'perm.global_admin_required'],
        ],
      },
      {
        body: request('sessions', 'end_session', { user_id: 99 }),
        allowed: [root],
        refused: [
          [maintainer, 'perm.global_admin_required'],
          [cataloguer, 'perm.global_admin_required'],
        ],
      },
      {
        body: request('sessions', 'unlock_login', { username: 'nobody' }),
        allowed: [root],
        refused: [
          [maintainer, 'perm.global_admin_required'],
          [cataloguer, 'perm.global_admin_required'],
        ],
      },
      {
        body: value('sweep'),
        allowed: [root, maintainer, viewer],
        refused: [[cataloguer, 'perm.denied']],
      },
      {
        body: request('sweep', 'run'),
        allowed: [root, maintainer],
        refused: [
          [viewer, 'perm.denied'],
          [cataloguer, 'perm.denied'],
        ],
      },
    ];
    for (const c of cases) {
      for (const b of c.allowed) expectOk(await b.post(c.body));
      for (const [b, code] of c.refused) expectRefused(await b.post(c.body), 403, code);
    }
  });
  it('answers random widget requests with an envelope and a status below 500', async () => {
    const fuzzer = await as('root', TEST_ROOT_PASSWORD);
    const known = new Set(Object.keys(ERROR_REGISTRY));
    const statuses = new Set<number>(Object.values(ERROR_CATEGORIES));
    const name = fc.oneof(
      fc.constantFrom(
        'counters_status',
        'system_status',
        'sessions',
        'sweep',
        'modify_counter',
        'end_session',
      ),
      fc.constantFrom('unlock_login', 'run', '__proto__', 'constructor', 'value', 'methods', ''),
      fc.string({ maxLength: 70 }),
      fc.anything({ maxDepth: 1 }),
    );
    const optionValue = fc.oneof(
      fc.constantFrom('oh1', 'rsc197', 'dd542', 'fix', 'reset', 'x', '', 'a'.repeat(64), -1, 99, 1.5),
      fc.anything({ maxDepth: 2 }),
    );
    const options = fc.oneof(
      fc.dictionary(
        fc.constantFrom(
          'section_tipo',
          'counter_action',
          'session_id',
          'user_id',
          'username',
          'address',
          'x',
        ),
        optionValue,
        { maxKeys: 3 },
      ),
      fc.anything({ maxDepth: 1 }),
    );
    const body = fc.record(
      {
        dd_api: fc.constant(API),
        action: fc.constantFrom('get_widget_value', 'widget_request'),
        source: fc.oneof(
          fc.record({ model: name, action: name }, { requiredKeys: [] }),
          fc.anything({ maxDepth: 1 }),
        ),
        options,
      },
      { requiredKeys: ['dd_api', 'action'] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (rqo) => {
        const answer = await fuzzer.post(rqo);
        expect(answer.status, JSON.stringify({ rqo, body: answer.body })).toBeLessThan(500);
        expect(statuses.has(answer.status) || answer.status === 200).toBe(true);
        if (answer.status === 200) expect(answer.body.ok).toBe(true);
        else expect(known.has(answer.body.error?.code), JSON.stringify(answer.body)).toBe(true);
        // A random end_session may end this very session: log in again for the next run.
        if (answer.status === 401) expect((await fuzzer.login('root', TEST_ROOT_PASSWORD)).status).toBe(200);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
