/**
 * Login throttling policy: 10 failures within 15 minutes, per username and per client address,
 * lock that key for 15 minutes. While any key of an attempt is locked the attempt is refused
 * before the password is even checked, so a correct password does not get through either.
 */
import { clearLoginFailures, lockedForSeconds, recordLoginFailure } from '../store/login-throttle.js';
import type { SqlQueryable } from '../store/sql-client.js';

export const LOGIN_THROTTLE = {
  maxFailures: 10,
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
} as const;

export interface ThrottleKeys {
  user: string;
  address: string;
}

/** Usernames are throttled case-insensitively, so "Root" and "root" share one count. */
export function throttleKeys(username: string, address: string): ThrottleKeys {
  return { user: `user:${username.toLowerCase()}`, address: `addr:${address}` };
}

export function loginLockedFor(db: SqlQueryable, keys: ThrottleKeys, now: Date): Promise<number> {
  return lockedForSeconds(db, [keys.user, keys.address], now);
}

export function countLoginFailure(db: SqlQueryable, keys: ThrottleKeys, now: Date): Promise<void> {
  return recordLoginFailure(db, [keys.user, keys.address], now, LOGIN_THROTTLE);
}

/**
 * A success clears the username's count only: clearing the address's would let one valid
 * account reset the count of an address guessing other accounts' passwords.
 */
export function clearUserFailures(db: SqlQueryable, keys: ThrottleKeys): Promise<void> {
  return clearLoginFailures(db, keys.user);
}
