/**
 * Login throttling that slows guessing without letting anyone lock the administrator out.
 *
 * - A (username, client address) pair: the first PAIR_FREE_FAILURES failures cost nothing; from
 *   then on each failure locks the pair for an exponentially growing time (15 s, 30 s, 1 min, ...
 *   at most 15 min). Failures are counted over 24 hours; a success clears them. This is the lock a
 *   guesser meets, and it touches nobody else: root from another address logs in.
 * - A client address, across usernames: ADDRESS_MAX_FAILURES failures in 15 minutes lock the
 *   address for 15 minutes (one address guessing many accounts). Behind a proxy that is not in
 *   TRUST_PROXY every client shares the proxy's address: set TRUST_PROXY.
 * - A username, across addresses, only at a much higher threshold (USERNAME_MAX_FAILURES in 15
 *   minutes, a distributed guess): for 15 minutes the username is refused from addresses it has
 *   not logged in from successfully in the last 90 days. Its known addresses are never refused
 *   by this rule, so it slows the guess without handing the attacker a lock-out.
 *
 * - A device cookie (auth/device-cookie.ts): a login presenting a valid one for its username is
 *   a browser that logged in as that user before. None of the rules above applies to it (an
 *   anonymous guesser cannot lock it out); it has its own limit instead, DEVICE_MAX_FAILURES in
 *   15 minutes lock that cookie (its nonce) for 15 minutes. Its failures count nowhere else.
 *
 * While any rule refuses an attempt, it is refused before the password is checked: a correct
 * password from a throttled client is refused too. A global admin lifts locks from the
 * maintenance `sessions` widget; `npm run work -- unlock-user <name>` does it without a session.
 */
import {
  activeLocks,
  countFailure,
  deleteThrottleRow,
  deleteUsernameRows,
  isKnownAddress,
  lockUntil,
  rememberKnownAddress,
  type ThrottleKey,
} from '../store/login-throttle.js';
import type { SqlQueryable } from '../store/sql-client.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

export const LOGIN_THROTTLE = {
  pairFreeFailures: 4,
  pairFirstLockMs: 15 * SECOND,
  pairMaxLockMs: 15 * MINUTE,
  pairWindowMs: 24 * 60 * MINUTE,
  addressMaxFailures: 30,
  addressWindowMs: 15 * MINUTE,
  addressLockMs: 15 * MINUTE,
  usernameMaxFailures: 100,
  usernameWindowMs: 15 * MINUTE,
  usernameLockMs: 15 * MINUTE,
  knownAddressMs: 90 * 24 * 60 * MINUTE,
  deviceMaxFailures: 10,
  deviceWindowMs: 15 * MINUTE,
  deviceLockMs: 15 * MINUTE,
} as const;

/** How long the pair stays locked after its `failures`-th failure (0: not locked). */
export function pairLockMs(failures: number): number {
  const p = LOGIN_THROTTLE;
  if (failures <= p.pairFreeFailures) return 0;
  const doublings = Math.min(failures - p.pairFreeFailures - 1, 30);
  return Math.min(p.pairFirstLockMs * 2 ** doublings, p.pairMaxLockMs);
}

export interface LoginAttempt {
  /** Lower-cased: "Root" and "root" share their counts. */
  username: string;
  address: string;
}

export function loginAttempt(username: string, address: string): LoginAttempt {
  return { username: username.toLowerCase(), address };
}

const pairKey = (a: LoginAttempt): ThrottleKey => ({
  scope: 'pair',
  username: a.username,
  address: a.address,
});
const addressKey = (a: LoginAttempt): ThrottleKey => ({ scope: 'address', username: '', address: a.address });
const usernameKey = (a: LoginAttempt): ThrottleKey => ({
  scope: 'username',
  username: a.username,
  address: '',
});

const deviceKey = (a: LoginAttempt, nonce: string): ThrottleKey => ({
  scope: 'device',
  username: a.username,
  address: nonce,
});

/** Seconds a trusted device (its cookie's nonce) must wait: only its own lock counts. */
export async function deviceLockedFor(
  db: SqlQueryable,
  attempt: LoginAttempt,
  nonce: string,
  now: Date,
): Promise<number> {
  const locks = await activeLocks(db, [deviceKey(attempt, nonce)], now);
  return Math.max(0, ...locks.map((l) => l.seconds));
}

/** A trusted device's failure: counted for its nonce only, locked past its limit. */
export async function countDeviceFailure(
  db: SqlQueryable,
  attempt: LoginAttempt,
  nonce: string,
  now: Date,
): Promise<void> {
  const p = LOGIN_THROTTLE;
  const key = deviceKey(attempt, nonce);
  if ((await countFailure(db, key, now, p.deviceWindowMs)) >= p.deviceMaxFailures) {
    await lockUntil(db, key, new Date(now.getTime() + p.deviceLockMs));
  }
}

/** A trusted device's success: its count is cleared (its cookie is renewed with a new nonce). */
export async function deviceSucceeded(db: SqlQueryable, attempt: LoginAttempt, nonce: string): Promise<void> {
  await deleteThrottleRow(db, deviceKey(attempt, nonce));
}

/** Seconds this attempt must wait (0: it may proceed to the password check). */
export async function loginLockedFor(db: SqlQueryable, attempt: LoginAttempt, now: Date): Promise<number> {
  const locks = await activeLocks(db, [pairKey(attempt), addressKey(attempt), usernameKey(attempt)], now);
  let seconds = 0;
  for (const lock of locks) {
    if (
      lock.scope === 'username' &&
      (await isKnownAddress(
        db,
        attempt.username,
        attempt.address,
        new Date(now.getTime() - LOGIN_THROTTLE.knownAddressMs),
      ))
    ) {
      continue;
    }
    seconds = Math.max(seconds, lock.seconds);
  }
  return seconds;
}

/** Counts a failed attempt in all three scopes and locks those it pushes over their limit. */
export async function countLoginFailure(db: SqlQueryable, attempt: LoginAttempt, now: Date): Promise<void> {
  const p = LOGIN_THROTTLE;
  const at = (ms: number) => new Date(now.getTime() + ms);
  const pair = await countFailure(db, pairKey(attempt), now, p.pairWindowMs);
  const pairLock = pairLockMs(pair);
  if (pairLock > 0) await lockUntil(db, pairKey(attempt), at(pairLock));
  if ((await countFailure(db, addressKey(attempt), now, p.addressWindowMs)) >= p.addressMaxFailures) {
    await lockUntil(db, addressKey(attempt), at(p.addressLockMs));
  }
  if ((await countFailure(db, usernameKey(attempt), now, p.usernameWindowMs)) >= p.usernameMaxFailures) {
    await lockUntil(db, usernameKey(attempt), at(p.usernameLockMs));
  }
}

/**
 * A success clears the pair's count and remembers the address. The address and username counts
 * stay: one valid account must not reset the count of an address guessing other accounts.
 */
export async function loginSucceeded(db: SqlQueryable, attempt: LoginAttempt, now: Date): Promise<void> {
  await deleteThrottleRow(db, pairKey(attempt));
  await rememberKnownAddress(db, attempt.username, attempt.address, now);
}

/**
 * Lifts locks (the sessions widget, the CLI): a username's (from one address when given, else
 * from all), or an address's cross-username lock when only an address is given. Returns the
 * throttle rows removed.
 */
export async function unlockLogin(
  db: SqlQueryable,
  target: { username?: string; address?: string },
): Promise<number> {
  if (target.username !== undefined) {
    return deleteUsernameRows(db, target.username.toLowerCase(), target.address);
  }
  if (target.address !== undefined) {
    return deleteThrottleRow(db, { scope: 'address', username: '', address: target.address });
  }
  return 0;
}
