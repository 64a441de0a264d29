import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser } from '../helpers/work-permissions.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const MINUTE = 60_000;

const systemInfo = { dd_api: 'dd_utils_api', action: 'get_system_info' };
const quit = { dd_api: 'dd_utils_api', action: 'quit' };
const changeLang = (options: Record<string, unknown>) => ({
  dd_api: 'dd_utils_api',
  action: 'change_lang',
  options,
});
const start = (options: Record<string, unknown> = {}) => ({ action: 'start', options });

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function expectRefused(
  answer: { status: number; body: { ok: boolean; error?: { code: string } } },
  status: number,
  code: string,
) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.ok).toBe(false);
  expect(answer.body.error?.code).toBe(code);
}

/** A user (dd128/<id>) with an Argon2id password and the active flag given. */
const createUser = (
  work: WorkServerHandle,
  id: number,
  username: string,
  password: string,
  active: boolean,
) => insertLoginUser(work.server.db, id, { username, password, active });

describe.each(workEngineCases())('sessions, login and CSRF over HTTP ($engine)', (engine) => {
  let work: WorkServerHandle;
  beforeAll(async () => {
    work = await startTestWorkServer(engine, { UPLOAD_MAX_BYTES: '123456' });
    await createUser(work, 1, 'ana', 'ana password', true);
    await createUser(work, 2, 'old', 'old password', false);
  });
  afterAll(async () => {
    await work?.stop();
  });

  const loggedIn = async (): Promise<WorkBrowser> => {
    const browser = work.browser();
    const answer = await browser.login('root', TEST_ROOT_PASSWORD);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return browser;
  };

  it('login sets an HttpOnly SameSite=Lax cookie and answers user_id and csrf_token, never the token', async () => {
    const browser = work.browser();
    const answer = await browser.login('root', TEST_ROOT_PASSWORD);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, data: true, user_id: -1, csrf_token: expect.any(String) });
    expect(answer.body.csrf_token.length).toBeGreaterThanOrEqual(32);
    const [cookie] = answer.headers.getSetCookie();
    expect(cookie).toMatch(/^dedalo_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/;\s*HttpOnly/);
    expect(cookie).toMatch(/;\s*SameSite=Lax/);
    expect(cookie).toMatch(/;\s*Path=\/dedalo\/core\/api\/v1\/json/);
    expect(cookie).not.toMatch(/Secure/); // plain HTTP
    const token = browser.cookies.get('dedalo_session')!;
    expect(JSON.stringify(answer.body)).not.toContain(token);

    // Only the hash is stored.
    const { rows } = await work.server.db.query<Record<string, unknown>>(
      'SELECT * FROM sessions WHERE user_id = -1',
    );
    expect(rows.map((r) => r.token_sha256)).toContain(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    // An activity row for the login.
    const activity = await work.server.db.query<{
      string: { dd545: { value: string }[] };
      relation: unknown;
    }>("SELECT string, relation FROM matrix_activity WHERE section_tipo = 'dd542' ORDER BY section_id");
    const logins = activity.rows.filter((r) => r.string.dd545[0]!.value === 'login');
    expect(logins.length).toBeGreaterThan(0);
    expect(JSON.stringify(logins[0]!.relation)).toContain('"section_id":-1');

    expect((await browser.post(systemInfo)).status).toBe(200);
  });

  it('answers one error for an unknown user, a wrong password and an inactive account', async () => {
    const wrong = await work.browser().login('root', 'not the password');
    const unknown = await work.browser().login('nobody', 'not the password');
    const inactive = await work.browser().login('old', 'old password');
    for (const answer of [wrong, unknown, inactive]) {
      expectRefused(answer, 401, 'auth.login_failed');
      expect(answer.headers.getSetCookie()).toEqual([]);
      expect(answer.body).not.toHaveProperty('csrf_token');
    }
    expect(unknown.body.error).toEqual(wrong.body.error);
    expect(inactive.body.error).toEqual(wrong.body.error);
    // A created active user logs in with its own id.
    const ana = await work.browser().login('ana', 'ana password');
    expect(ana.body).toMatchObject({ ok: true, user_id: 1 });
  });

  it('refuses a login without username or auth with a 400', async () => {
    expectRefused(
      await work.post({ dd_api: 'dd_utils_api', action: 'login', options: { username: 'root' } }),
      400,
      'rqo.invalid_field',
    );
    expectRefused(
      await work.post({ dd_api: 'dd_utils_api', action: 'login', options: { username: 1, auth: 'x' } }),
      400,
      'rqo.invalid_field',
    );
  });

  it('rotates: a new login gives a new token and the old cookie stops working', async () => {
    const browser = await loggedIn();
    const oldToken = browser.cookies.get('dedalo_session')!;
    const oldCsrf = browser.csrfToken!;
    await browser.login('root', TEST_ROOT_PASSWORD);
    const newToken = browser.cookies.get('dedalo_session')!;
    expect(newToken).not.toBe(oldToken);
    expect(browser.csrfToken).not.toBe(oldCsrf);
    expect((await browser.post(systemInfo)).status).toBe(200);

    const stale = work.browser();
    stale.cookies.set('dedalo_session', oldToken);
    const answer = await stale.post(systemInfo, { csrf: oldCsrf });
    expectRefused(answer, 401, 'auth.not_logged');
    // The dead cookie is cleared.
    expect(answer.headers.getSetCookie().join()).toMatch(/dedalo_session=;.*Max-Age=0/);
  });

  it('expires after an hour idle', async () => {
    const browser = await loggedIn();
    work.clock.advance(59 * MINUTE);
    expect((await browser.post(systemInfo)).status).toBe(200);
    work.clock.advance(59 * MINUTE); // idle counts from the last request
    expect((await browser.post(systemInfo)).status).toBe(200);
    work.clock.advance(61 * MINUTE);
    expectRefused(await browser.post(systemInfo), 401, 'auth.not_logged');
  });

  it('expires twelve hours after login however busy', async () => {
    const browser = await loggedIn();
    // 14 requests 50 minutes apart: 11 h 40 min after login, never idle for an hour.
    for (let i = 0; i < 14; i++) {
      work.clock.advance(50 * MINUTE);
      expect((await browser.post(systemInfo)).status).toBe(200);
    }
    work.clock.advance(21 * MINUTE); // 12 h 1 min after login, 21 min after the last request
    expectRefused(await browser.post(systemInfo), 401, 'auth.not_logged');
  });

  it('refuses a missing or wrong CSRF header with 403, and accepts the right one', async () => {
    const browser = await loggedIn();
    expectRefused(await browser.post(systemInfo, { csrf: null }), 403, 'auth.csrf_failed');
    expectRefused(await browser.post(systemInfo, { csrf: 'wrong' }), 403, 'auth.csrf_failed');
    expectRefused(await browser.post(systemInfo, { csrf: `${browser.csrfToken}x` }), 403, 'auth.csrf_failed');
    // Another session's token is wrong for this one.
    const other = await loggedIn();
    expectRefused(await browser.post(systemInfo, { csrf: other.csrfToken! }), 403, 'auth.csrf_failed');
    expect((await browser.post(systemInfo)).status).toBe(200);
    // start needs no CSRF header, with or without a session.
    expect((await browser.post(start(), { csrf: null })).status).toBe(200);
  });

  it('checks the session before CSRF, and the action registry before both', async () => {
    const anonymous = work.browser();
    expectRefused(await anonymous.post(systemInfo), 401, 'auth.not_logged');
    expectRefused(await anonymous.post(systemInfo, { csrf: 'anything' }), 401, 'auth.not_logged');
    expectRefused(await anonymous.post(quit), 401, 'auth.not_logged');
    const browser = await loggedIn();
    expectRefused(
      await browser.post({ dd_api: 'dd_utils_api', action: 'nope' }, { csrf: null }),
      400,
      'request.unknown_action',
    );
  });

  it('quit destroys the session and clears the cookie (and needs the CSRF header)', async () => {
    const browser = await loggedIn();
    const token = browser.cookies.get('dedalo_session')!;
    expectRefused(await browser.post(quit, { csrf: null }), 403, 'auth.csrf_failed');
    const answer = await browser.post(quit);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, data: true });
    expect(answer.headers.getSetCookie().join()).toMatch(/dedalo_session=;.*Max-Age=0.*HttpOnly/);
    expect(browser.cookies.has('dedalo_session')).toBe(false);
    const { rowCount } = await work.server.db.query('SELECT 1 FROM sessions WHERE token_sha256 = $1', [
      sha256(token),
    ]);
    expect(rowCount).toBe(0);
    const replay = work.browser();
    replay.cookies.set('dedalo_session', token);
    expectRefused(await replay.post(systemInfo, { csrf: browser.csrfToken! }), 401, 'auth.not_logged');
    const logouts = await work.server.db.query(
      'SELECT 1 FROM matrix_activity WHERE string -> \'dd545\' @> \'[{"value": "logout"}]\'::jsonb',
    );
    expect(logouts.rowCount).toBeGreaterThan(0);
  });

  it('get_system_info reports the configured values', async () => {
    const browser = await loggedIn();
    const answer = await browser.post(systemInfo);
    expect(answer.body.data).toEqual({
      max_size_bytes: 123456,
      sys_get_temp_dir: expect.any(String),
      upload_tmp_dir: expect.stringMatching(/uploads[/\\]-1[/\\]\.tmp$/),
      upload_tmp_perms: 0o750,
      session_cache_expire: 60,
      upload_service_chunk_files: expect.any(Number),
      pdf_ocr_engine: false,
    });
  });

  it('change_lang validates against the allowlist and start then uses the session languages', async () => {
    const browser = await loggedIn();
    const before = await browser.post(start({ search_obj: { t: 'oh1' } }));
    expect(before.body.data.data).toEqual([]);
    expect(before.body.data.context[0]).toMatchObject({ tipo: 'oh1', lang: 'lg-eng', label: 'Interviews' });

    for (const bad of [
      { svc_data_lang: 'lg-xxx' },
      { svc_application_lang: 'lg-nolan' },
      { svc_data_lang: 'english' },
    ]) {
      expectRefused(await browser.post(changeLang(bad)), 400, 'lang.not_allowed');
    }
    expectRefused(await browser.post(changeLang({ svc_data_lang: 7 })), 400, 'rqo.invalid_field');
    expectRefused(await browser.post(changeLang({})), 400, 'rqo.invalid_field');

    const changed = await browser.post(changeLang({ svc_data_lang: 'lg-spa' }));
    expect(changed.body).toMatchObject({ ok: true, data: true });
    const after = await browser.post(start({ search_obj: { t: 'oh1' } }));
    // Contexts are labelled in the data language (docs/work-api.md).
    expect(after.body.data.context[0]).toMatchObject({ tipo: 'oh1', lang: 'lg-spa', label: 'Entrevistas' });
    expect(after.body.environment.page_globals).toMatchObject({
      is_logged: true,
      user_id: -1,
      dedalo_data_lang: 'lg-spa',
      dedalo_application_lang: 'lg-eng',
    });
    await browser.post(changeLang({ svc_application_lang: 'lg-spa' }));
    const spanish = await browser.post(start({ search_obj: { t: 'oh1' } }));
    expect(spanish.body.data.context[0]).toMatchObject({ lang: 'lg-spa', label: 'Entrevistas' });
    // Another session keeps its own languages.
    const other = await loggedIn();
    expect((await other.post(start({ search_obj: { t: 'oh1' } }))).body.data.context[0].lang).toBe('lg-eng');
  });

  it('start with a session answers the context of search_obj, with the menu on request', async () => {
    const browser = await loggedIn();
    const edit = await browser.post(start({ search_obj: { t: 'oh1', m: 'edit', id: 5 }, menu: true }));
    expect(edit.status).toBe(200);
    const [menu, page] = edit.body.data.context;
    expect(page).toMatchObject({
      type: 'section',
      tipo: 'oh1',
      section_tipo: 'oh1',
      section_id: 5,
      mode: 'edit',
      model: 'section',
    });
    expect(menu).toMatchObject({ type: 'menu', tipo: 'dd85', model: 'menu' });
    const menuTipos = menu.tree.map((e: { tipo: string }) => e.tipo);
    expect(menuTipos).toEqual(
      expect.arrayContaining(['oh9000', 'oh1', 'rsc197', 'dd100', 'ts1', 'dd128', 'dd88']),
    );
    expect(menuTipos).not.toContain('oh14'); // components are not menu entries
    expect(edit.body.environment).toEqual({
      page_globals: expect.objectContaining({ is_logged: true }),
      plain_vars: expect.objectContaining({ DEDALO_LOCK_COMPONENTS: true }),
      get_label: {},
    });

    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { tipo: 'oh1', section_id: '42' },
        { section_id: 42, mode: 'edit' },
      ], // numeric string: coerced
      [
        { t: 'dd128', id: -1 },
        { section_id: -1, section_tipo: 'dd128' },
      ],
      [{ t: 'oh1', id: '007' }, { section_id: '007' }], // leading zero: kept verbatim
      [{ t: 'oh1', id: 'ext-a1' }, { section_id: 'ext-a1' }],
      [{ t: 'oh1' }, { mode: 'list' }],
      [
        { t: 'oh16', st: 'oh1', m: 'list' },
        { type: 'component', section_tipo: 'oh1', mode: 'list' },
      ],
      [{ t: 'oh14' }, { section_tipo: 'oh1', lang: 'lg-nolan' }],
      [{ locator: { section_tipo: 'rsc197', section_id: 3 } }, { tipo: 'rsc197', section_id: 3 }],
      [
        { t: 'oh1', view: 'mosaic', tool: 'tool_export' },
        { view: 'mosaic', tool: 'tool_export' },
      ],
      [{}, { tipo: 'dd1', type: 'area' }],
    ];
    for (const [searchObj, expected] of cases) {
      const answer = await browser.post(start({ search_obj: searchObj }));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.data.context, JSON.stringify(searchObj)).toEqual([
        expect.objectContaining(expected),
      ]);
    }
    expectRefused(await browser.post(start({ search_obj: { t: 'zz999' } })), 404, 'element.unknown_tipo');
    expectRefused(
      await browser.post(start({ search_obj: { t: 'oh1', m: 'fancy' } })),
      400,
      'rqo.invalid_field',
    );
    expectRefused(await browser.post(start({ search_obj: { t: 'oh1', id: 1.5 } })), 400, 'rqo.invalid_field');
    expectRefused(await browser.post(start({ search_obj: 'oh1' })), 400, 'rqo.invalid_field');
  });
});

describe.each(workEngineCases())('login throttling over HTTP ($engine)', (engine) => {
  let work: WorkServerHandle;
  beforeAll(async () => {
    // Behind a trusted local proxy, so each test can speak from its own client address.
    work = await startTestWorkServer(engine, { TRUST_PROXY: '127.0.0.1,::1' });
    await createUser(work, 1, 'ana', 'ana password', true);
  });
  afterAll(async () => {
    await work?.stop();
  });

  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
  const login = (username: string, auth: string, address: string) =>
    work.post({ dd_api: 'dd_utils_api', action: 'login', options: { username, auth } }, from(address));

  const retryAfter = (answer: { headers: Headers }) => Number(answer.headers.get('retry-after'));

  it('backs off a (username, address) pair exponentially, refusing even the right password, and leaves other addresses alone', async () => {
    // Four failures cost nothing; the fifth locks the pair for 15 s.
    for (let i = 0; i < 5; i++)
      expectRefused(await login('root', `guess ${i}`, '10.0.0.1'), 401, 'auth.login_failed');
    const locked = await login('root', TEST_ROOT_PASSWORD, '10.0.0.1');
    expectRefused(locked, 429, 'rate.limited');
    expect(retryAfter(locked)).toBe(15);
    expect(locked.headers.getSetCookie()).toEqual([]);
    // The administrator, from anywhere else, logs in.
    expect((await login('root', TEST_ROOT_PASSWORD, '10.0.0.2')).status).toBe(200);

    // Each further failure doubles the wait: 30 s, then 60 s.
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      work.clock.advance((retryAfter(await login('root', 'probe', '10.0.0.1')) + 1) * 1000);
      expectRefused(await login('root', 'guess', '10.0.0.1'), 401, 'auth.login_failed');
      waits.push(retryAfter(await login('root', TEST_ROOT_PASSWORD, '10.0.0.1')));
    }
    expect(waits).toEqual([30, 60, 120]);
    work.clock.advance(121_000);
    // A success clears the pair.
    expect((await login('root', TEST_ROOT_PASSWORD, '10.0.0.1')).status).toBe(200);
    expectRefused(await login('root', 'guess', '10.0.0.1'), 401, 'auth.login_failed');
    expect((await login('root', TEST_ROOT_PASSWORD, '10.0.0.1')).status).toBe(200);
  });

  it('caps the back-off at 15 minutes', async () => {
    for (let i = 0; i < 4; i++)
      expectRefused(await login('ana', 'guess', '10.1.0.1'), 401, 'auth.login_failed');
    // Failures 5..12, each after the previous lock ended: 15 s doubling up to 960 s, capped at 900.
    const waits: number[] = [];
    for (let failure = 5; failure <= 12; failure++) {
      expectRefused(await login('ana', 'guess', '10.1.0.1'), 401, 'auth.login_failed');
      const locked = await login('ana', 'ana password', '10.1.0.1');
      expectRefused(locked, 429, 'rate.limited');
      waits.push(retryAfter(locked));
      work.clock.advance((retryAfter(locked) + 1) * 1000);
    }
    expect(waits).toEqual([15, 30, 60, 120, 240, 480, 900, 900]);
    expect((await login('ana', 'ana password', '10.1.0.1')).status).toBe(200);
  });

  it('locks a client address after 30 failures across usernames', async () => {
    for (let i = 0; i < 30; i++)
      expectRefused(await login(`user${i}`, 'guess', '192.0.2.7'), 401, 'auth.login_failed');
    const locked = await login('ana', 'ana password', '192.0.2.7');
    expectRefused(locked, 429, 'rate.limited');
    expect(retryAfter(locked)).toBe(15 * 60);
    expect((await login('ana', 'ana password', '192.0.2.8')).status).toBe(200);
  });

  it('slows a distributed guess of one username without locking out its known addresses', async () => {
    await createUser(work, 5, 'bea', 'bea password', true);
    expect((await login('bea', 'bea password', '172.16.0.1')).status).toBe(200);
    for (let i = 0; i < 100; i++) {
      expectRefused(await login('bea', 'guess', `172.17.${i >> 8}.${i & 255}`), 401, 'auth.login_failed');
    }
    // A new address is refused, even with the right password...
    const stranger = await login('bea', 'bea password', '172.18.0.1');
    expectRefused(stranger, 429, 'rate.limited');
    expect(retryAfter(stranger)).toBe(15 * 60);
    // ...the address bea logged in from before is not.
    expect((await login('bea', 'bea password', '172.16.0.1')).status).toBe(200);
    work.clock.advance(15 * MINUTE + 1000);
    expect((await login('bea', 'bea password', '172.18.0.1')).status).toBe(200);
  });

  it("forgets a pair's failures after 24 hours", async () => {
    for (let i = 0; i < 4; i++)
      expectRefused(await login('ana', 'guess', '198.51.100.1'), 401, 'auth.login_failed');
    work.clock.advance(24 * 60 * MINUTE + 1000);
    // Failure 1 of a new window: no lock.
    expectRefused(await login('ana', 'guess', '198.51.100.1'), 401, 'auth.login_failed');
    expect((await login('ana', 'ana password', '198.51.100.1')).status).toBe(200);
  });

  it('marks the cookie Secure when the request came over TLS', async () => {
    const answer = await work.post(
      { dd_api: 'dd_utils_api', action: 'login', options: { username: 'ana', auth: 'ana password' } },
      { headers: { 'x-forwarded-for': '203.0.113.5', 'x-forwarded-proto': 'https' } },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.getSetCookie()[0]).toMatch(/;\s*Secure/);
  });
});
