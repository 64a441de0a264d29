/**
 * The watermark of each publication target, kept in the work database (migration 8): the start
 * time of the target's last clean run. `--since last` and the work API's incremental runs
 * publish what was created, saved or deleted from then on.
 */
import type { SqlQueryable } from '../work/store/sql-client.js';

export async function readWatermark(db: SqlQueryable, target: string): Promise<Date | undefined> {
  const { rows } = await db.query<{ published_at: Date | string }>(
    'SELECT published_at FROM publish_watermarks WHERE target = $1',
    [target],
  );
  return rows[0] ? new Date(rows[0].published_at) : undefined;
}

export async function writeWatermark(db: SqlQueryable, target: string, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO publish_watermarks (target, published_at) VALUES ($1, $2)
     ON CONFLICT (target) DO UPDATE SET published_at = EXCLUDED.published_at, updated_at = now()`,
    [target, at.toISOString()],
  );
}
