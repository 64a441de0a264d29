/**
 * `dd_utils_api.login` and `dd_utils_api.quit`. Login answers one error for an unknown user, a
 * wrong password and an inactive account, and verifies an Argon2id hash in every case (a fixed
 * decoy hash when the user is unknown), so neither the answer nor its timing tells which. It is
 * throttled (auth/login-throttle.ts: per username and address, per address, per username; a
 * browser with a valid device cookie for the username only per device); a success opens a new
 * session (the one the request carried is destroyed), renews the device cookie and logs the
 * activity. Quit destroys the session and clears
 * the cookie.
 */
import { deviceCookieName, newDeviceCookie, verifyDeviceCookie } from '../../auth/device-cookie.js';
import {
  countDeviceFailure,
  countLoginFailure,
  deviceLockedFor,
  deviceSucceeded,
  loginAttempt,
  loginLockedFor,
  loginSucceeded,
} from '../../auth/login-throttle.js';
import { verifyPassword } from '../../auth/password-hash.js';
import { readCookie } from '../../auth/session-cookie.js';
import { closeSession, openSession } from '../../auth/sessions.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { logActivity } from '../../store/activity.js';
import { findUserByUsername } from '../../store/users.js';
import { LOGIN_TIPO } from '../core/start.js';
import { objectField, requiredString } from '../rqo-fields.js';

/**
 * An Argon2id hash (library defaults) of a random password nobody knows, verified when the user
 * does not exist so that the answer takes as long as for a real user. If the hashing parameters
 * change in password-hash.ts, regenerate it with the same parameters.
 */
const DECOY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$UmOkcnVE82hm6e2UqNX8rQ$tGW9AVnCoi7NIn22kzOvmaQ7+yrqAx1OYZ54SoV34Ak';

/** Long enough for any passphrase; short enough that nobody makes us hash megabytes. */
const MAX_PASSWORD_LENGTH = 1024;

export const loginAction: ActionDefinition = {
  needsSession: false,
  handle: async ({
    rqo,
    db,
    now,
    clientAddress,
    session,
    log,
    requestId,
    cookieHeader,
    deviceCookieSecret,
  }) => {
    const options = objectField(rqo, 'options');
    const username = requiredString(options, 'username', 'options.username');
    const password = requiredString(options, 'auth', 'options.auth', MAX_PASSWORD_LENGTH);
    const attempt = loginAttempt(username, clientAddress);
    // A browser that logged in as this user before (a valid device cookie) meets only its own
    // limit; anyone else the username, address and pair rules (auth/login-throttle.ts).
    const cookieName = deviceCookieName(attempt.username);
    const presented = readCookie(cookieHeader, cookieName);
    const device = verifyDeviceCookie(deviceCookieSecret, attempt.username, presented);
    if (presented !== undefined && device === undefined) {
      log.info({ login: 'device_cookie_invalid' }, 'device cookie not valid for this username: ignored');
    }

    const lockedFor =
      device !== undefined
        ? await deviceLockedFor(db, attempt, device, now)
        : await loginLockedFor(db, attempt, now);
    if (lockedFor > 0) {
      log.info(
        { login: 'throttled', retry_after: lockedFor, trusted_device: device !== undefined },
        'login refused: throttled',
      );
      throw new WorkError('rate.limited', undefined, lockedFor);
    }

    const user = await findUserByUsername(db, username);
    const passwordOk = await verifyPassword(user?.passwordHash ?? DECOY_HASH, password);
    if (!user || !passwordOk || !user.active) {
      if (device !== undefined) await countDeviceFailure(db, attempt, device, now);
      else await countLoginFailure(db, attempt, now);
      // The reason goes to the log only; the client always gets the same refusal.
      const reason = !user ? 'unknown_user' : !passwordOk ? 'wrong_password' : 'inactive';
      log.info({ login: 'failed', reason, trusted_device: device !== undefined }, 'login refused');
      throw new WorkError('auth.login_failed');
    }

    await loginSucceeded(db, attempt, now);
    if (device !== undefined) await deviceSucceeded(db, attempt, device);
    const opened = await db.transaction(async (tx) => {
      const result = await openSession(tx, user.userId, now, session);
      await logActivity(tx, {
        userId: user.userId,
        what: 'login',
        where: LOGIN_TIPO,
        when: now,
        data: { client_address: clientAddress, request_id: requestId },
      });
      return result;
    });
    log.info({ login: 'ok', user_id: user.userId }, 'login');
    return {
      data: true,
      extensions: { user_id: user.userId, csrf_token: opened.session.csrfToken },
      sessionCookie: { set: opened.token },
      // Each login renews the device cookie (a new nonce, a new year).
      deviceCookie: { name: cookieName, value: newDeviceCookie(deviceCookieSecret, attempt.username).value },
    };
  },
};

export const quitAction: ActionDefinition = {
  needsSession: true,
  handle: async ({ db, now, session, clientAddress, requestId }) => {
    const current = session!;
    await db.transaction(async (tx) => {
      await closeSession(tx, current);
      await logActivity(tx, {
        userId: current.userId,
        what: 'logout',
        where: LOGIN_TIPO,
        when: now,
        data: { client_address: clientAddress, request_id: requestId },
      });
    });
    return { data: true, sessionCookie: { clear: true } };
  },
};
