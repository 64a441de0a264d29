/**
 * OWASP's device cookie ("Slow down online guessing attacks with device cookies"): a successful
 * login gives the browser a long-lived cookie naming the username and a random nonce, signed
 * with HMAC-SHA256 under a server secret (WORK_DEVICE_COOKIE_SECRET, else one generated and kept
 * in the database: store/server-secrets.ts). A later login for that username presenting a valid
 * cookie is a trusted device: the per-username, per-address and per-pair locks that anonymous
 * guessers trigger do not apply to it, only its own limit (failures counted per nonce,
 * auth/login-throttle.ts). A forged, tampered or other user's cookie is no cookie at all.
 *
 * One cookie per username (its name carries a hash of the username), so a shared workstation's
 * users keep theirs. HttpOnly, SameSite=Strict, scoped to the API's path, Secure over TLS.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { matchesAnySecret } from '../../common/constant-time.js';
import type { CookieScope } from './session-cookie.js';

/** How long a device stays trusted without a new login (each login renews it). */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

const PREFIX = 'dedalo_device_';

/** The cookie's name for a (lower-cased) username: no username in clear in the name. */
export function deviceCookieName(username: string): string {
  return PREFIX + createHash('sha256').update(username, 'utf8').digest('hex').slice(0, 16);
}

const sign = (secret: string, username: string, nonce: string) =>
  createHmac('sha256', secret).update(`dedalo-device|${username}|${nonce}`, 'utf8').digest('base64url');

/** A new cookie value for `username`: base64url(username).nonce.signature. */
export function newDeviceCookie(secret: string, username: string): { value: string; nonce: string } {
  const nonce = randomBytes(18).toString('base64url');
  const user = Buffer.from(username, 'utf8').toString('base64url');
  return { value: `${user}.${nonce}.${sign(secret, username, nonce)}`, nonce };
}

/**
 * The nonce of a valid device cookie of `username` (lower-cased), or undefined: malformed, for
 * another username, or a signature that does not match (compared in constant time).
 */
export function verifyDeviceCookie(
  secret: string,
  username: string,
  value: string | undefined,
): string | undefined {
  if (value === undefined || value.length > 1024) return undefined;
  const parts = value.split('.');
  if (parts.length !== 3) return undefined;
  const [user = '', nonce = '', signature = ''] = parts;
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(nonce)) return undefined;
  const named = Buffer.from(user, 'base64url').toString('utf8');
  // The signature is checked whatever the name says, so the time does not tell which failed.
  const signed = matchesAnySecret(signature, [sign(secret, username, nonce)]);
  return signed && named === username ? nonce : undefined;
}

export function setDeviceCookie(name: string, value: string, scope: CookieScope): string {
  return `${name}=${value}; Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}; Path=${scope.path}; HttpOnly; SameSite=Strict${scope.secure ? '; Secure' : ''}`;
}
