/**
 * Component locks (docs/work-api.md), kept in the `component_locks` table so every
 * server instance on one database agrees. A lock names (section_tipo, section_id, component_tipo),
 * the user and the session that took it, since when (`locked_at`) and until when
 * (`expires_at`, 150 s after the last focus: the client renews it while the field keeps the
 * focus). A lock counts only while it has not expired AND its session is alive; the session
 * row's deletion (quit, expiry, an administrator ending it, the sweep) deletes its locks by the
 * foreign key of migration 6. Times are bound from the caller's clock, never the database's.
 *
 * Functions for other parts of the server: `releaseUserLocks`, `releaseSessionLocks`,
 * `purgeExpiredLocks` (the sweep), `lockHeldByOther` (the save refusal).
 */
import { SESSION_IDLE_MS } from '../auth/sessions.js';
import type { SqlClient, SqlQueryable } from '../store/sql-client.js';
import { USERS_SECTION } from '../store/users.js';

/** A lock lapses this long after its last focus (upstream's LOCK_TTL_SECONDS). */
export const LOCK_TTL_MS = 150_000;

export interface LockKey {
  section_tipo: string;
  section_id: number;
  component_tipo: string;
}

/** Who holds a lock, as a refused client is told. */
export interface LockHolder {
  user_id: number;
  username: string | null;
  full_username: string | null;
  /** When the holder took it (ISO 8601). */
  since: string;
}

/** A live lock, as `lock_components_actions.get_active_users` lists it. */
export interface ActiveLock extends LockKey {
  user_id: number;
  username: string | null;
  full_username: string | null;
  /** Since when (ISO 8601). */
  date: string;
  /** When it lapses unless renewed (ISO 8601). */
  expires_at: string;
}

export type TakeLockOutcome = { taken: true; since: string } | { taken: false; holder: LockHolder };

const iso = (date: Date) => date.toISOString();

/**
 * The SQL condition "lock row `l` is live at $now": not expired, and its session neither idle
 * past $idle_since nor past its absolute end. Callers bind $now and $idle_since at the
 * positions they pass.
 */
function liveLock(now: string, idleSince: string): string {
  return `(l.expires_at > ${now}::timestamptz AND EXISTS (
    SELECT 1 FROM sessions s WHERE s.token_sha256 = l.session_sha256
      AND s.expires_at > ${now}::timestamptz AND s.last_seen_at > ${idleSince}::timestamptz))`;
}

const idleSince = (now: Date) => iso(new Date(now.getTime() - SESSION_IDLE_MS));

/** The user's username (dd132) and full name (dd452), read from the users section. */
const HOLDER_COLUMNS = `l.user_id, l.locked_at, l.expires_at,
  u.string -> 'dd132' -> 0 ->> 'value' AS username,
  u.string -> 'dd452' -> 0 ->> 'value' AS full_username`;
const USERS_JOIN = `LEFT JOIN matrix_users u ON u.section_tipo = '${USERS_SECTION}' AND u.section_id = l.user_id`;

interface HolderRow {
  user_id: number;
  locked_at: Date | string;
  expires_at: Date | string;
  username: string | null;
  full_username: string | null;
}

const isoOf = (value: Date | string) => new Date(value).toISOString();

function toHolder(row: HolderRow): LockHolder {
  return {
    user_id: row.user_id,
    username: row.username,
    full_username: row.full_username,
    since: isoOf(row.locked_at),
  };
}

/**
 * `focus`: takes or renews the lock on `key` for the user's session. The user's other locks in
 * the same record are dropped first (one field of a record at a time, as upstream). The lock is
 * taken when nobody holds it, when the same user holds it (from any session: a renewal keeps
 * "since"), or when its holder's lock is no longer live; otherwise the holder is answered.
 * The upsert is one statement, so two users focusing at once cannot both get it.
 */
export async function takeLock(
  db: SqlClient,
  key: LockKey,
  holder: { userId: number; sessionSha256: string },
  now: Date,
): Promise<TakeLockOutcome> {
  return db.transaction(async (tx) => {
    await tx.query(
      `DELETE FROM component_locks
       WHERE user_id = $1 AND section_tipo = $2 AND section_id = $3 AND component_tipo <> $4`,
      [holder.userId, key.section_tipo, key.section_id, key.component_tipo],
    );
    const { rows } = await tx.query<{ locked_at: Date | string }>(
      `INSERT INTO component_locks AS l
         (section_tipo, section_id, component_tipo, user_id, session_sha256, locked_at, renewed_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $6::timestamptz, $7::timestamptz)
       ON CONFLICT (section_tipo, section_id, component_tipo) DO UPDATE SET
         locked_at = CASE WHEN l.user_id = EXCLUDED.user_id AND ${liveLock('$6', '$8')}
                          THEN l.locked_at ELSE EXCLUDED.locked_at END,
         user_id = EXCLUDED.user_id,
         session_sha256 = EXCLUDED.session_sha256,
         renewed_at = EXCLUDED.renewed_at,
         expires_at = EXCLUDED.expires_at
       WHERE l.user_id = EXCLUDED.user_id OR NOT ${liveLock('$6', '$8')}
       RETURNING l.locked_at`,
      [
        key.section_tipo,
        key.section_id,
        key.component_tipo,
        holder.userId,
        holder.sessionSha256,
        iso(now),
        iso(new Date(now.getTime() + LOCK_TTL_MS)),
        idleSince(now),
      ],
    );
    if (rows[0]) return { taken: true, since: isoOf(rows[0].locked_at) };
    const other = await lockHeldByOther(tx, key, holder.userId, now);
    // The holder's lock can have ended between the two statements; it was live a moment ago.
    return {
      taken: false,
      holder: other ?? { user_id: 0, username: null, full_username: null, since: iso(now) },
    };
  });
}

/** The live lock on `key` of a user other than `userId`, or undefined (the save refusal). */
export async function lockHeldByOther(
  db: SqlQueryable,
  key: LockKey,
  userId: number,
  now: Date,
): Promise<LockHolder | undefined> {
  const { rows } = await db.query<HolderRow>(
    `SELECT ${HOLDER_COLUMNS} FROM component_locks l ${USERS_JOIN}
     WHERE l.section_tipo = $1 AND l.section_id = $2 AND l.component_tipo = $3 AND l.user_id <> $4
       AND ${liveLock('$5', '$6')}`,
    [key.section_tipo, key.section_id, key.component_tipo, userId, iso(now), idleSince(now)],
  );
  return rows[0] ? toHolder(rows[0]) : undefined;
}

/**
 * The records among `sectionIds` on which a user other than `userId` holds a live lock (any
 * component): one statement for an import's batch, whose such rows take the per-row path.
 */
export async function recordsLockedByOthers(
  db: SqlQueryable,
  sectionTipo: string,
  sectionIds: readonly number[],
  userId: number,
  now: Date,
): Promise<Set<number>> {
  if (sectionIds.length === 0) return new Set();
  const { rows } = await db.query<{ section_id: number }>(
    `SELECT DISTINCT l.section_id FROM component_locks l
     WHERE l.section_tipo = $1 AND l.section_id = ANY($2::integer[]) AND l.user_id <> $3
       AND ${liveLock('$4', '$5')}`,
    [sectionTipo, sectionIds, userId, iso(now), idleSince(now)],
  );
  return new Set(rows.map((r) => Number(r.section_id)));
}

/** `blur`: the user's lock on `key` goes (someone else's is never touched). */
export async function releaseLock(db: SqlQueryable, key: LockKey, userId: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM component_locks
     WHERE section_tipo = $1 AND section_id = $2 AND component_tipo = $3 AND user_id = $4`,
    [key.section_tipo, key.section_id, key.component_tipo, userId],
  );
  return rowCount;
}

/** `delete_user_section_locks`: every lock of the user in one section (leaving a record). */
export async function releaseUserSectionLocks(
  db: SqlQueryable,
  userId: number,
  sectionTipo: string,
): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM component_locks WHERE user_id = $1 AND section_tipo = $2',
    [userId, sectionTipo],
  );
  return rowCount;
}

/** Every lock of a user, from every session (force-unlock of one user). */
export async function releaseUserLocks(db: SqlQueryable, userId: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM component_locks WHERE user_id = $1', [userId]);
  return rowCount;
}

/**
 * Every lock one session took. Deleting the session row does this by itself (foreign key); this
 * is for code that ends a session's editing without ending the session.
 */
export async function releaseSessionLocks(db: SqlQueryable, sessionSha256: string): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM component_locks WHERE session_sha256 = $1', [
    sessionSha256,
  ]);
  return rowCount;
}

/** Every lock of everybody (force_unlock_all_components without a user). */
export async function releaseAllLocks(db: SqlQueryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM component_locks');
  return rowCount;
}

/** How many locks count at `now` (the metrics endpoint's gauge). */
export async function countLiveLocks(db: SqlQueryable, now: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM component_locks l WHERE ${liveLock('$1', '$2')}`,
    [iso(now), idleSince(now)],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Deletes the locks that no longer count (expired, or their session idle or past its end) and
 * answers how many went. Nothing depends on it for correctness (every check reads liveness);
 * it keeps the table small. For the sweep.
 */
export async function purgeExpiredLocks(db: SqlQueryable, now: Date): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM component_locks l WHERE NOT ${liveLock('$1', '$2')}`, [
    iso(now),
    idleSince(now),
  ]);
  return rowCount;
}

/** Every live lock, oldest first, with its holder's names. */
export async function activeLocks(db: SqlQueryable, now: Date): Promise<ActiveLock[]> {
  const { rows } = await db.query<HolderRow & LockKey>(
    `SELECT l.section_tipo, l.section_id, l.component_tipo, ${HOLDER_COLUMNS}
     FROM component_locks l ${USERS_JOIN}
     WHERE ${liveLock('$1', '$2')}
     ORDER BY l.locked_at, l.section_tipo, l.section_id, l.component_tipo`,
    [iso(now), idleSince(now)],
  );
  return rows.map((r) => ({
    user_id: r.user_id,
    username: r.username,
    full_username: r.full_username,
    section_tipo: r.section_tipo,
    section_id: r.section_id,
    component_tipo: r.component_tipo,
    date: isoOf(r.locked_at),
    expires_at: isoOf(r.expires_at),
  }));
}
