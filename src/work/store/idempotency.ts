/**
 * Rows of `idempotency_keys`: a write's answer kept for ten minutes under (session, key), so a
 * client retrying the same write (the stock client adds an `idempotency_key` to every body it
 * may resend) gets the first answer and nothing runs twice. A key is claimed before the write
 * runs (answer NULL) and filled in after it succeeded, or released when it failed.
 */
import type { SqlQueryable } from './sql-client.js';

export const IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;

export type ClaimResult = { claimed: true } | { claimed: false; answer: unknown | null };

const iso = (d: Date) => d.toISOString();

export async function claimIdempotencyKey(
  db: SqlQueryable,
  tokenSha256: string,
  key: string,
  now: Date,
): Promise<ClaimResult> {
  const since = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
  // Expired keys of this session no longer count; an old claim never blocks for longer.
  await db.query(
    'DELETE FROM idempotency_keys WHERE token_sha256 = $1 AND idem_key = $2 AND created_at <= $3',
    [tokenSha256, key, iso(since)],
  );
  const { rowCount } = await db.query(
    `INSERT INTO idempotency_keys (token_sha256, idem_key, created_at) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING`,
    [tokenSha256, key, iso(now)],
  );
  if (rowCount > 0) return { claimed: true };
  const { rows } = await db.query<{ answer: unknown | null }>(
    'SELECT answer FROM idempotency_keys WHERE token_sha256 = $1 AND idem_key = $2',
    [tokenSha256, key],
  );
  return { claimed: false, answer: rows[0]?.answer ?? null };
}

export async function storeIdempotentAnswer(
  db: SqlQueryable,
  tokenSha256: string,
  key: string,
  answer: unknown,
): Promise<void> {
  await db.query('UPDATE idempotency_keys SET answer = $3::jsonb WHERE token_sha256 = $1 AND idem_key = $2', [
    tokenSha256,
    key,
    JSON.stringify(answer),
  ]);
}

export async function releaseIdempotencyKey(
  db: SqlQueryable,
  tokenSha256: string,
  key: string,
): Promise<void> {
  await db.query(
    'DELETE FROM idempotency_keys WHERE token_sha256 = $1 AND idem_key = $2 AND answer IS NULL',
    [tokenSha256, key],
  );
}

/** Housekeeping: keys older than the window (run with session purges). */
export async function purgeIdempotencyKeys(db: SqlQueryable, now: Date): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE created_at <= $1', [
    iso(new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS)),
  ]);
}
