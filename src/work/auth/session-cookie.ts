/**
 * The session cookie on the wire: its name, reading it from a Cookie header, and the Set-Cookie
 * values that set and clear it. HttpOnly (scripts never see the token), SameSite=Lax (not sent on
 * cross-site POSTs), Secure when the request came over TLS, scoped to the API's base path.
 */

export const SESSION_COOKIE = 'dedalo_session';

/** The value of cookie `name` in a Cookie header, or undefined. The first occurrence wins. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface CookieScope {
  path: string;
  secure: boolean;
}

const attributes = (scope: CookieScope) =>
  `Path=${scope.path}; HttpOnly; SameSite=Lax${scope.secure ? '; Secure' : ''}`;

/** Lives as long as the session's absolute limit; the server enforces the idle limit itself. */
export function setSessionCookie(token: string, maxAgeSeconds: number, scope: CookieScope): string {
  return `${SESSION_COOKIE}=${token}; Max-Age=${maxAgeSeconds}; ${attributes(scope)}`;
}

export function clearSessionCookie(scope: CookieScope): string {
  return `${SESSION_COOKIE}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${attributes(scope)}`;
}
