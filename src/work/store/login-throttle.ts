/**
 * Rows of `login_throttle`: failed logins per key ("user:<name>", "addr:<address>") inside a
 * window, and the time a key stays locked. Each failure is one atomic upsert, so concurrent
 * attempts (other requests, other instances) are all counted. Times come from the caller's clock.
 */
import type { SqlQueryable } from './sql-client.js';

const iso = (date: Date) => date.toISOString();

/** Seconds until the last of these keys is unlocked (rounded up), or 0 when none is locked. */
export async function lockedForSeconds(
  db: SqlQueryable,
  keys: readonly string[],
  now: Date,
): Promise<number> {
  if (keys.length === 0) return 0;
  const placeholders = keys.map((_, i) => `$${i + 2}`).join(', ');
  const { rows } = await db.query<{ seconds: number | null }>(
    `SELECT ceil(extract(epoch FROM max(locked_until) - $1::timestamptz))::integer AS seconds
     FROM login_throttle WHERE throttle_key IN (${placeholders}) AND locked_until > $1::timestamptz`,
    [iso(now), ...keys],
  );
  return rows[0]?.seconds ?? 0;
}

/**
 * Counts one failure for each key. A window older than `windowMs` starts over at 1; reaching
 * `maxFailures` inside the window locks the key for `lockMs` from now.
 */
export async function recordLoginFailure(
  db: SqlQueryable,
  keys: readonly string[],
  now: Date,
  policy: { maxFailures: number; windowMs: number; lockMs: number },
): Promise<void> {
  const windowStart = new Date(now.getTime() - policy.windowMs);
  const lockedUntil = new Date(now.getTime() + policy.lockMs);
  for (const key of keys) {
    await db.query(
      `INSERT INTO login_throttle AS t (throttle_key, failures, window_started_at, locked_until)
       VALUES ($1, 1, $2::timestamptz, CASE WHEN $4::integer <= 1 THEN $5::timestamptz END)
       ON CONFLICT (throttle_key) DO UPDATE SET
         failures = CASE WHEN t.window_started_at <= $3::timestamptz THEN 1 ELSE t.failures + 1 END,
         window_started_at = CASE WHEN t.window_started_at <= $3::timestamptz
           THEN $2::timestamptz ELSE t.window_started_at END,
         locked_until = CASE WHEN t.window_started_at > $3::timestamptz AND t.failures + 1 >= $4::integer
           THEN $5::timestamptz ELSE t.locked_until END`,
      [key, iso(now), iso(windowStart), policy.maxFailures, iso(lockedUntil)],
    );
  }
}

export async function clearLoginFailures(db: SqlQueryable, key: string): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE throttle_key = $1', [key]);
}
