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
 * What a request with a session cookie starts with, in one statement: the live session for this
 * token hash and the ontology version (the server compares it with the ontology it holds, so an
 * edit committed by any instance is served from the next request). The session's last_seen_at is
 * moved to now in the same statement when it is older than TOUCH_INTERVAL_MS (the update locks
 * nothing otherwise); an idle or expired row is deleted and no row is returned.
 */
export async function touchLiveSession(
  db: SqlQueryable,
  tokenSha256: string,
  now: Date,
  idleSince: Date,
): Promise<{ row: SessionRow | undefined; ontologyVersion: number }> {
  const { rows } = await db.query<Partial<SessionRow> & { ontology_version: string }>(
    `WITH live AS (
       SELECT token_sha256, user_id, csrf_token, application_lang, data_lang FROM sessions
       WHERE token_sha256 = $1 AND last_seen_at > $3::timestamptz AND expires_at > $2::timestamptz
     ), touched AS (
       UPDATE sessions SET last_seen_at = $2::timestamptz
       WHERE token_sha256 = $1 AND last_seen_at <= $4::timestamptz AND EXISTS (SELECT 1 FROM live)
     )
     SELECT v.version::text AS ontology_version, live.*
     FROM ontology_version v LEFT JOIN live ON true WHERE v.id = 1`,
    [tokenSha256, iso(now), iso(idleSince), iso(new Date(now.getTime() - TOUCH_INTERVAL_MS))],
  );
  const ontologyVersion = versionOf(rows[0]);
  const { ontology_version: _, ...session } = rows[0]!;
  if (session.token_sha256 != null) return { row: session as SessionRow, ontologyVersion };
  await deleteSession(db, tokenSha256);
  return { row: undefined, ontologyVersion };
}

function versionOf(row: { ontology_version: string } | undefined): number {
  if (!row) throw new Error('ontology: the ontology_version row is missing (migration 12)');
  return Number(row.ontology_version);
}

export async function deleteSession(db: SqlQueryable, tokenSha256: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_sha256 = $1', [tokenSha256]);
}

/** Removes every expired or idle session (at login and by the sweep); returns how many. */
export async function purgeDeadSessions(db: SqlQueryable, now: Date, idleSince: Date): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM sessions WHERE expires_at <= $1::timestamptz OR last_seen_at <= $2::timestamptz',
    [iso(now), iso(idleSince)],
  );
  return rowCount;
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

/** A live session as the maintenance `sessions` widget lists it (never the token or CSRF token). */
export interface LiveSessionRow {
  token_sha256: string;
  user_id: number;
  username: string | null;
  full_username: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** Sessions neither expired nor idle at `now`, newest first, with the user's names. */
export async function listLiveSessions(
  db: SqlQueryable,
  now: Date,
  idleSince: Date,
): Promise<LiveSessionRow[]> {
  const { rows } = await db.query<LiveSessionRow>(
    `SELECT s.token_sha256, s.user_id,
       u.string->'dd132'->0->>'value' AS username, u.string->'dd452'->0->>'value' AS full_username,
       s.created_at::text AS created_at, s.last_seen_at::text AS last_seen_at, s.expires_at::text AS expires_at
     FROM sessions s
     LEFT JOIN matrix_users u ON u.section_tipo = 'dd128' AND u.section_id = s.user_id
     WHERE s.expires_at > $1::timestamptz AND s.last_seen_at > $2::timestamptz
     ORDER BY s.last_seen_at DESC, s.token_sha256`,
    [iso(now), iso(idleSince)],
  );
  // PostgreSQL's text form of a timestamptz, as ISO 8601 for the wire.
  const wire = (text: string) => new Date(text).toISOString();
  return rows.map((r) => ({
    ...r,
    created_at: wire(r.created_at),
    last_seen_at: wire(r.last_seen_at),
    expires_at: wire(r.expires_at),
  }));
}

export async function countLiveSessions(db: SqlQueryable, now: Date, idleSince: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM sessions
     WHERE expires_at > $1::timestamptz AND last_seen_at > $2::timestamptz`,
    [iso(now), iso(idleSince)],
  );
  return rows[0]?.n ?? 0;
}

/** Ends sessions by token hash or by user; returns the users whose sessions were ended. */
export async function deleteSessionsWhere(
  db: SqlQueryable,
  where: { tokenSha256: string } | { userId: number },
): Promise<{ user_id: number }[]> {
  const { rows } =
    'tokenSha256' in where
      ? await db.query<{ user_id: number }>(
          'DELETE FROM sessions WHERE token_sha256 = $1 RETURNING user_id',
          [where.tokenSha256],
        )
      : await db.query<{ user_id: number }>('DELETE FROM sessions WHERE user_id = $1 RETURNING user_id', [
          where.userId,
        ]);
  return rows;
}
