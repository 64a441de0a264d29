/**
 * Server-side sessions: an opaque random token travels in the cookie and only its SHA-256 is
 * stored. A session dies after an hour without requests (idle) or twelve hours after login
 * (absolute), whichever comes first. Each login opens a new session with a new token and a new
 * CSRF token; the one the request came with is destroyed (rotation).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readOntologyVersion } from '../ontology/ontology-store.js';
import {
  deleteSession,
  insertSession,
  purgeDeadSessions,
  type SessionRow,
  touchLiveSession,
} from '../store/sessions.js';
import type { SqlQueryable } from '../store/sql-client.js';

export const SESSION_IDLE_MS = 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** 32 random bytes in base64url: 43 characters. Anything else in the cookie is not ours. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface Session {
  tokenSha256: string;
  userId: number;
  csrfToken: string;
  /** The languages chosen with change_lang; undefined: the server default. */
  applicationLang?: string;
  dataLang?: string;
}

const newSecret = () => randomBytes(32).toString('base64url');

export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export const idleSince = (now: Date) => new Date(now.getTime() - SESSION_IDLE_MS);

function toSession(row: SessionRow): Session {
  return {
    tokenSha256: row.token_sha256,
    userId: row.user_id,
    csrfToken: row.csrf_token,
    ...(row.application_lang ? { applicationLang: row.application_lang } : {}),
    ...(row.data_lang ? { dataLang: row.data_lang } : {}),
  };
}

/**
 * What a request starts from: the live session a cookie token names (marked used now), or
 * undefined, and the ontology version committed now; one statement.
 */
export async function resolveSession(
  db: SqlQueryable,
  token: string | undefined,
  now: Date,
): Promise<{ session: Session | undefined; ontologyVersion: number }> {
  if (token === undefined || !TOKEN_PATTERN.test(token)) {
    return { session: undefined, ontologyVersion: await readOntologyVersion(db) };
  }
  const { row, ontologyVersion } = await touchLiveSession(db, hashToken(token), now, idleSince(now));
  return { session: row ? toSession(row) : undefined, ontologyVersion };
}

/**
 * Opens a session for `userId`, destroying `previous` (the session the login request carried).
 * Returns the cookie token, which is never stored, and the session.
 */
export async function openSession(
  db: SqlQueryable,
  userId: number,
  now: Date,
  previous: Session | undefined,
): Promise<{ token: string; session: Session }> {
  if (previous) await deleteSession(db, previous.tokenSha256);
  await purgeDeadSessions(db, now, idleSince(now));
  const token = newSecret();
  const session: Session = { tokenSha256: hashToken(token), userId, csrfToken: newSecret() };
  await insertSession(db, {
    tokenSha256: session.tokenSha256,
    userId,
    csrfToken: session.csrfToken,
    now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  });
  return { token, session };
}

export async function closeSession(db: SqlQueryable, session: Session): Promise<void> {
  await deleteSession(db, session.tokenSha256);
}
