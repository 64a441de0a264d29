/**
 * Rows of `login_throttle` (migration 7): failed logins per scope (a username-address pair, an
 * address, a username) inside a window, and until when the scope is locked; and of
 * `login_known_addresses`: where each username last logged in. Each failure is one atomic
 * upsert, so concurrent attempts (other requests, other instances) are all counted. Times come
 * from the caller's clock.
 */
import type { SqlQueryable } from './sql-client.js';

/** 'device': a device cookie's failures, its nonce in `address` (migration 10). */
export type ThrottleScope = 'pair' | 'address' | 'username' | 'device';

/** One throttle row's address: the parts a scope does not use are ''. */
export interface ThrottleKey {
  scope: ThrottleScope;
  username: string;
  address: string;
}

export interface ThrottleLockRow {
  scope: ThrottleScope;
  username: string;
  address: string;
  failures: number;
  locked_until: string;
  /** Whole seconds left, rounded up. */
  seconds: number;
}

const iso = (date: Date) => date.toISOString();

/** PostgreSQL's text form of locked_until, as ISO 8601 for the wire. */
const withIsoLock = (rows: ThrottleLockRow[]) =>
  rows.map((r) => ({ ...r, locked_until: new Date(r.locked_until).toISOString() }));

/**
 * Counts one failure for `key` and returns the failures now counted. A window that started more
 * than `windowMs` ago starts over at 1.
 */
export async function countFailure(
  db: SqlQueryable,
  key: ThrottleKey,
  now: Date,
  windowMs: number,
): Promise<number> {
  const { rows } = await db.query<{ failures: number }>(
    `INSERT INTO login_throttle AS t (scope, username, address, failures, window_started_at)
     VALUES ($1, $2, $3, 1, $4::timestamptz)
     ON CONFLICT (scope, username, address) DO UPDATE SET
       failures = CASE WHEN t.window_started_at <= $5::timestamptz THEN 1 ELSE t.failures + 1 END,
       window_started_at = CASE WHEN t.window_started_at <= $5::timestamptz
         THEN $4::timestamptz ELSE t.window_started_at END
     RETURNING failures`,
    [key.scope, key.username, key.address, iso(now), iso(new Date(now.getTime() - windowMs))],
  );
  return rows[0]!.failures;
}

/** Locks `key` until `until` (an existing later lock is kept). */
export async function lockUntil(db: SqlQueryable, key: ThrottleKey, until: Date): Promise<void> {
  await db.query(
    `UPDATE login_throttle SET locked_until = GREATEST(COALESCE(locked_until, $4::timestamptz), $4::timestamptz)
     WHERE scope = $1 AND username = $2 AND address = $3`,
    [key.scope, key.username, key.address, iso(until)],
  );
}

/** The locks in force at `now` among `keys`. */
export async function activeLocks(
  db: SqlQueryable,
  keys: readonly ThrottleKey[],
  now: Date,
): Promise<ThrottleLockRow[]> {
  if (keys.length === 0) return [];
  const params: unknown[] = [iso(now)];
  const conditions = keys.map((k) => {
    params.push(k.scope, k.username, k.address);
    const n = params.length;
    return `(scope = $${n - 2} AND username = $${n - 1} AND address = $${n})`;
  });
  const { rows } = await db.query<ThrottleLockRow>(
    `SELECT scope, username, address, failures, locked_until::text AS locked_until,
       ceil(extract(epoch FROM locked_until - $1::timestamptz))::integer AS seconds
     FROM login_throttle WHERE locked_until > $1::timestamptz AND (${conditions.join(' OR ')})`,
    params,
  );
  return withIsoLock(rows);
}

/** Every lock in force at `now` (the sessions widget), longest first. */
export async function listActiveLocks(db: SqlQueryable, now: Date): Promise<ThrottleLockRow[]> {
  const { rows } = await db.query<ThrottleLockRow>(
    `SELECT scope, username, address, failures, locked_until::text AS locked_until,
       ceil(extract(epoch FROM locked_until - $1::timestamptz))::integer AS seconds
     FROM login_throttle WHERE locked_until > $1::timestamptz
     ORDER BY locked_until DESC, scope, username, address`,
    [iso(now)],
  );
  return withIsoLock(rows);
}

export async function deleteThrottleRow(db: SqlQueryable, key: ThrottleKey): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM login_throttle WHERE scope = $1 AND username = $2 AND address = $3',
    [key.scope, key.username, key.address],
  );
  return rowCount;
}

/**
 * Lifts every lock and count of a username: its pairs (from `address` only, when given), its
 * cross-address row and its device cookies' rows. Returns the rows removed.
 */
export async function deleteUsernameRows(
  db: SqlQueryable,
  username: string,
  address?: string,
): Promise<number> {
  const { rowCount } =
    address === undefined
      ? await db.query(
          `DELETE FROM login_throttle WHERE username = $1 AND scope IN ('pair', 'username', 'device')`,
          [username],
        )
      : await db.query(
          `DELETE FROM login_throttle
           WHERE username = $1 AND ((scope = 'pair' AND address = $2) OR scope IN ('username', 'device'))`,
          [username, address],
        );
  return rowCount;
}

/** Rows whose window and lock are both over: nothing in them counts any more (the sweep). */
export async function purgeStaleThrottleRows(
  db: SqlQueryable,
  now: Date,
  oldestWindowStart: Date,
): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM login_throttle
     WHERE window_started_at <= $2::timestamptz AND (locked_until IS NULL OR locked_until <= $1::timestamptz)`,
    [iso(now), iso(oldestWindowStart)],
  );
  return rowCount;
}

export async function rememberKnownAddress(
  db: SqlQueryable,
  username: string,
  address: string,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO login_known_addresses (username, address, last_success_at) VALUES ($1, $2, $3::timestamptz)
     ON CONFLICT (username, address) DO UPDATE SET last_success_at = EXCLUDED.last_success_at`,
    [username, address, iso(now)],
  );
}

export async function isKnownAddress(
  db: SqlQueryable,
  username: string,
  address: string,
  since: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM login_known_addresses
     WHERE username = $1 AND address = $2 AND last_success_at > $3::timestamptz`,
    [username, address, iso(since)],
  );
  return rowCount > 0;
}

export async function purgeKnownAddresses(db: SqlQueryable, since: Date): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM login_known_addresses WHERE last_success_at <= $1::timestamptz',
    [iso(since)],
  );
  return rowCount;
}
