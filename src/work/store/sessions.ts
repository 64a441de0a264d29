/**
 * Rows of the `sessions` table. A row is keyed by the SHA-256 of the cookie token, never the
 * token itself. Times are bound from the caller's clock (not the database's now()), so expiry
 * follows one clock that tests can move; every comparison is done in SQL on timestamptz.
 */
import type { SqlQueryable } from './sql-client.js';

export interface SessionRow {
  token_sha256: string;
  user_id: number;
  csrf_token: string;
  application_lang: string | null;
  data_lang: string | null;
}

const iso = (date: Date) => date.toISOString();

export async function insertSession(
  db: SqlQueryable,
  row: { tokenSha256: string; userId: number; csrfToken: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO sessions (token_sha256, user_id, csrf_token, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4::timestamptz, $4::timestamptz, $5::timestamptz)`,
    [row.tokenSha256, row.userId, row.csrfToken, iso(row.now), iso(row.expiresAt)],
  );
}

/**
 * How stale last_seen_at may get before a request writes it again. Idle expiry (an hour) is
 * counted from the last write, so it may come up to this much early; in exchange a busy session
 * does not write its row, and wait for that write's commit, on every single request.
 */
export const TOUCH_INTERVAL_MS = 60_000;

/**
 * The live session for this token hash. Its last_seen_at is moved to now in the same statement
 * when it is older than TOUCH_INTERVAL_MS (the update locks nothing otherwise); an idle or
 * expired row is deleted and undefined is returned.
 */
export async function touchLiveSession(
  db: SqlQueryable,
  tokenSha256: string,
  now: Date,
  idleSince: Date,
): Promise<SessionRow | undefined> {
  const { rows } = await db.query<SessionRow>(
    `WITH live AS (
       SELECT token_sha256, user_id, csrf_token, application_lang, data_lang FROM sessions
       WHERE token_sha256 = $1 AND last_seen_at > $3::timestamptz AND expires_at > $2::timestamptz
     ), touched AS (
       UPDATE sessions SET last_seen_at = $2::timestamptz
       WHERE token_sha256 = $1 AND last_seen_at <= $4::timestamptz AND EXISTS (SELECT 1 FROM live)
     )
     SELECT * FROM live`,
    [tokenSha256, iso(now), iso(idleSince), iso(new Date(now.getTime() - TOUCH_INTERVAL_MS))],
  );
  if (rows[0]) return rows[0];
  await deleteSession(db, tokenSha256);
  return undefined;
}

export async function deleteSession(db: SqlQueryable, tokenSha256: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_sha256 = $1', [tokenSha256]);
}

/** Removes every expired or idle session (run at login, so the table does not grow forever). */
export async function purgeDeadSessions(db: SqlQueryable, now: Date, idleSince: Date): Promise<void> {
  await db.query(
    'DELETE FROM sessions WHERE expires_at <= $1::timestamptz OR last_seen_at <= $2::timestamptz',
    [iso(now), iso(idleSince)],
  );
}

/** Sets the languages given (undefined keeps the current value). */
export async function updateSessionLangs(
  db: SqlQueryable,
  tokenSha256: string,
  langs: { applicationLang?: string; dataLang?: string },
): Promise<void> {
  await db.query(
    `UPDATE sessions SET application_lang = COALESCE($2, application_lang), data_lang = COALESCE($3, data_lang)
     WHERE token_sha256 = $1`,
    [tokenSha256, langs.applicationLang ?? null, langs.dataLang ?? null],
  );
}
