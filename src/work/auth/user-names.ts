/**
 * The names of a user as people read them (`dd132` username, `dd452` full name), for the
 * client's header. The superuser (-1) may have no record: it is "root".
 */
import type { SqlQueryable } from '../store/sql-client.js';

export interface UserNames {
  username: string | null;
  full_username: string | null;
}

export async function userNames(db: SqlQueryable, userId: number): Promise<UserNames> {
  const { rows } = await db.query<UserNames>(
    `SELECT string->'dd132'->0->>'value' AS username, string->'dd452'->0->>'value' AS full_username
     FROM matrix_users WHERE section_tipo = 'dd128' AND section_id = $1`,
    [userId],
  );
  const row = rows[0];
  return {
    username: row?.username ?? (userId === -1 ? 'root' : null),
    full_username: row?.full_username ?? null,
  };
}
