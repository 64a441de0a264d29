/**
 * OWASP's device cookie against the anonymous lock-out (auth/device-cookie.ts): about a hundred
 * wrong passwords for root from 26 addresses lock root out, for 15 minutes, of every address it
 * has not logged in from; a browser that logged in as root before (its signed device cookie)
 * still logs in, from anywhere. A forged or tampered cookie, or another user's, is no cookie.
 * A device has its own limit: after DEVICE_MAX_FAILURES failures that cookie is locked, and its
 * failures count nowhere else. The HMAC key survives a restart (kept in the database) or comes
 * from WORK_DEVICE_COOKIE_SECRET.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deviceCookieName, newDeviceCookie } from '../../src/work/auth/device-cookie.js';
import { LOGIN_THROTTLE } from '../../src/work/auth/login-throttle.js';
import { loadWorkConfig } from '../../src/work/config.js';
import { type RunningWorkServer, startWorkServer } from '../../src/work/server.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser } from '../helpers/work-permissions.js';
import {
  rootBrowser,
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  testClock,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const MINUTE = 60_000;
const ROOT_DEVICE = deviceCookieName('root');

const loginRqo = (username: string, auth: string) => ({
  dd_api: 'dd_utils_api',
  action: 'login',
  options: { username, auth },
});

/** The device cookie's `name=value` from a login answer's Set-Cookie lines. */
function deviceCookieOf(headers: Headers, name = ROOT_DEVICE): string {
  const line = headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
  expect(line, 'no device cookie was set').toBeDefined();
  return line!.split(';')[0]!;
}

/** ~100 failures for `username` from 26 addresses, each pair kept under its own back-off. */
async function distributedGuess(
  login: (auth: string, address: string) => Promise<{ status: number }>,
  prefix: string,
): Promise<void> {
  let sent = 0;
  for (let a = 0; sent < LOGIN_THROTTLE.usernameMaxFailures; a = (a + 1) % 26) {
    expect((await login(`guess ${sent}`, `${prefix}.${a}`)).status).toBe(401);
    sent += 1;
  }
}

describe.each(workEngineCases())('device cookie ($engine)', (engine) => {
  let work: WorkServerHandle;
  beforeAll(async () => {
    // Behind a trusted local proxy, so each request can speak from its own address.
    work = await startTestWorkServer(engine, { TRUST_PROXY: '127.0.0.1,::1' });
    await insertLoginUser(work.server.db, 1, { username: 'ana', password: 'ana password' });
  });
  afterAll(async () => {
    await work?.stop();
  });

  const login = (username: string, auth: string, address: string, cookie?: string) =>
    work.post(loginRqo(username, auth), {
      headers: { 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
    });

  it('is set at a successful login: signed, long-lived, HttpOnly, SameSite=Strict, on the API path', async () => {
    const answer = await login('root', TEST_ROOT_PASSWORD, '10.8.0.1');
    expect(answer.status).toBe(200);
    const [session, device] = answer.headers.getSetCookie();
    expect(session).toMatch(/^dedalo_session=/);
    expect(device).toMatch(
      new RegExp(`^${ROOT_DEVICE}=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43};`),
    );
    expect(device).toMatch(/;\s*Max-Age=31536000/);
    expect(device).toMatch(/;\s*HttpOnly/);
    expect(device).toMatch(/;\s*SameSite=Strict/);
    expect(device).toMatch(/;\s*Path=\/dedalo\/core\/api\/v1\/json(;|$)/);
    // A failed login sets nothing.
    expect((await login('root', 'wrong', '10.8.0.1')).headers.getSetCookie()).toEqual([]);
  });

  it('lets a browser that logged in before through a distributed lock-out; forged cookies get no exemption', async () => {
    work.clock.advance(16 * MINUTE); // the earlier test's failure is out of the window
    // Root's browser logs in once (from 10.9.0.1) and keeps its device cookie.
    const first = await login('root', TEST_ROOT_PASSWORD, '10.9.0.1');
    expect(first.status).toBe(200);
    const cookie = deviceCookieOf(first.headers);
    const anaCookie = deviceCookieOf(
      (await login('ana', 'ana password', '10.9.0.2')).headers,
      deviceCookieName('ana'),
    );

    await distributedGuess((auth, address) => login('root', auth, address), '10.10.0');
    // From a new address, the right password is refused: root is locked out there.
    const stranger = await login('root', TEST_ROOT_PASSWORD, '10.11.0.1');
    expect(stranger.status).toBe(429);
    expect(stranger.body.error.code).toBe('rate.limited');
    expect(Number(stranger.headers.get('retry-after'))).toBe(15 * 60);

    // The browser with its device cookie, roaming to another new address, logs in...
    const trusted = await login('root', TEST_ROOT_PASSWORD, '10.12.0.1', cookie);
    expect(trusted.status, JSON.stringify(trusted.body)).toBe(200);
    // ...and gets a renewed cookie (a new nonce), which works as well.
    const renewed = deviceCookieOf(trusted.headers);
    expect(renewed).not.toBe(cookie);
    expect((await login('root', TEST_ROOT_PASSWORD, '10.12.0.2', renewed)).status).toBe(200);

    // Forged, tampered or someone else's cookies are no cookie: the lock applies.
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    const [user, nonce, signature] = value.split('.') as [string, string, string];
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    const forged = [
      `${name}=${user}.${nonce}.${flip(signature)}`, // tampered signature
      `${name}=${user}.${flip(nonce)}.${signature}`, // tampered nonce
      `${name}=${user}.${nonce}`, // no signature
      `${name}=${newDeviceCookie('a guessed secret of at least 32 chars', 'root').value}`, // wrong key
      `${name}=${anaCookie.slice(anaCookie.indexOf('=') + 1)}`, // ana's, under root's name
      `${name}=`,
    ];
    for (const bad of forged) {
      const refused = await login('root', TEST_ROOT_PASSWORD, '10.13.0.1', bad);
      expect(refused.status, bad).toBe(429);
      expect(refused.headers.getSetCookie(), bad).toEqual([]);
    }

    // Fifteen minutes later the lock is over for everyone.
    work.clock.advance(15 * MINUTE + 1000);
    expect((await login('root', TEST_ROOT_PASSWORD, '10.11.0.1')).status).toBe(200);
  });

  it('locks a device after its own limit of failures; those failures count nowhere else', async () => {
    const cookie = deviceCookieOf(
      (await login('ana', 'ana password', '10.20.0.1')).headers,
      deviceCookieName('ana'),
    );
    for (let i = 0; i < LOGIN_THROTTLE.deviceMaxFailures; i++) {
      // From many addresses: the device is what is counted.
      expect((await login('ana', `guess ${i}`, `10.21.0.${i}`, cookie)).status).toBe(401);
    }
    const locked = await login('ana', 'ana password', '10.21.0.99', cookie);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBe(15 * 60);
    // The pair, address and username rules saw none of it: without the cookie ana logs in from
    // an address she never used.
    expect((await login('ana', 'ana password', '10.22.0.1')).status).toBe(200);
    // The sessions widget shows the lock without the cookie's nonce; unlocking ana lifts it.
    const root = await rootBrowser(work);
    const widget = (action?: string, options?: Record<string, unknown>) =>
      root.post(
        action
          ? {
              dd_api: 'dd_area_maintenance_api',
              action: 'widget_request',
              source: { model: 'sessions', action },
              options,
            }
          : { dd_api: 'dd_area_maintenance_api', action: 'get_widget_value', source: { model: 'sessions' } },
      );
    const locks = (await widget()).body.data.login_locks;
    expect(locks).toContainEqual(
      expect.objectContaining({ scope: 'device', username: 'ana', address: null, failures: 10 }),
    );
    expect(JSON.stringify(locks)).not.toContain(cookie.split('.')[1]);
    expect((await widget('unlock_login', { username: 'ana' })).status).toBe(200);
    expect((await login('ana', 'ana password', '10.21.0.99', cookie)).status).toBe(200);
  });

  it('lets a device locked by its own limit in again after 15 minutes', async () => {
    const cookie = deviceCookieOf(
      (await login('ana', 'ana password', '10.23.0.1')).headers,
      deviceCookieName('ana'),
    );
    for (let i = 0; i < LOGIN_THROTTLE.deviceMaxFailures; i++) {
      expect((await login('ana', `guess ${i}`, '10.23.0.1', cookie)).status).toBe(401);
    }
    expect((await login('ana', 'ana password', '10.23.0.1', cookie)).status).toBe(429);
    work.clock.advance(15 * MINUTE + 1000);
    expect((await login('ana', 'ana password', '10.23.0.1', cookie)).status).toBe(200);
  });
});

describe('device cookie key across restarts (pglite)', () => {
  const engine = workEngineCases()[0]!;
  let fresh: FreshDatabase | undefined;
  let server: RunningWorkServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await fresh?.dispose();
    fresh = undefined;
  });

  it('a cookie from before a restart still exempts; WORK_DEVICE_COOKIE_SECRET signs when given', async () => {
    fresh = await engine.freshDatabase();
    const secret = 'an operator secret of at least thirty-two characters';
    const baseEnv = {
      PORT: '0',
      LOG_LEVEL: 'silent',
      DEDALO_ROOT_PASSWORD: TEST_ROOT_PASSWORD,
      TRUST_PROXY: '127.0.0.1,::1',
      ...fresh.env,
    };
    const clock = testClock();
    const start = (env: Record<string, string>) =>
      startWorkServer(loadWorkConfig(env), { clock: () => clock.now(), publish: null });
    const login = async (auth: string, address: string, cookie?: string) => {
      const res = await fetch(server!.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': address,
          ...(cookie ? { cookie } : {}),
        },
        body: JSON.stringify(loginRqo('root', auth)),
      });
      await res.text();
      return res;
    };

    server = await start(baseEnv);
    const before = await login(TEST_ROOT_PASSWORD, '10.30.0.1');
    const cookie = deviceCookieOf(before.headers);
    const stored = await server.db.query<{ value: string }>(
      "SELECT value FROM server_secrets WHERE name = 'device_cookie'",
    );
    expect(stored.rows).toHaveLength(1);
    await server.close();

    server = await start(baseEnv);
    await distributedGuess((auth, address) => login(auth, address), '10.31.0');
    expect((await login(TEST_ROOT_PASSWORD, '10.32.0.1')).status).toBe(429);
    expect((await login(TEST_ROOT_PASSWORD, '10.32.0.2', cookie)).status).toBe(200);
    await server.close();

    // With the operator's key, the database's no longer signs: the old cookie is no cookie,
    // one signed with the operator's key is.
    server = await start({ ...baseEnv, WORK_DEVICE_COOKIE_SECRET: secret });
    expect((await login(TEST_ROOT_PASSWORD, '10.32.0.3', cookie)).status).toBe(429);
    const operators = `${ROOT_DEVICE}=${newDeviceCookie(secret, 'root').value}`;
    expect((await login(TEST_ROOT_PASSWORD, '10.32.0.4', operators)).status).toBe(200);
  }, 120_000);

  it('refuses a WORK_DEVICE_COOKIE_SECRET shorter than 32 characters', () => {
    expect(() => loadWorkConfig({ WORK_DEVICE_COOKIE_SECRET: 'short' })).toThrow(
      /WORK_DEVICE_COOKIE_SECRET must have at least 32 characters/,
    );
  });
});
