/**
 * The user records (dd128 in matrix_users) as login needs them: found by username (dd132), with
 * the stored Argon2id hash (dd133) and whether the account is active (dd131 -> dd64/1 "yes").
 */
import type { SqlQueryable } from './sql-client.js';

export const USERS_SECTION = 'dd128';
const USERNAME = 'dd132';
const PASSWORD = 'dd133';
const ACTIVE = 'dd131';
const YES_NO_SECTION = 'dd64';
const YES_ID = 1;

export interface LoginUser {
  userId: number;
  passwordHash: string | undefined;
  active: boolean;
}

interface UserRow {
  section_id: number;
  string: Record<string, { value?: unknown }[] | undefined>;
  relation: Record<string, { section_tipo?: unknown; section_id?: unknown }[] | undefined>;
}

/**
 * The user whose username is exactly `username`, or undefined. Two users sharing a username
 * (possible only through a bug elsewhere) count as none: login must not pick one at random.
 */
export async function findUserByUsername(db: SqlQueryable, username: string): Promise<LoginUser | undefined> {
  const { rows } = await db.query<UserRow>(
    `SELECT section_id, string, relation FROM matrix_users
     WHERE section_tipo = $1 AND string -> $2 @> $3::jsonb LIMIT 2`,
    [USERS_SECTION, USERNAME, JSON.stringify([{ value: username }])],
  );
  if (rows.length !== 1) return undefined;
  const row = rows[0]!;
  const hash = row.string[PASSWORD]?.[0]?.value;
  const active = (row.relation[ACTIVE] ?? []).some(
    (l) => l.section_tipo === YES_NO_SECTION && Number(l.section_id) === YES_ID,
  );
  return { userId: row.section_id, passwordHash: typeof hash === 'string' ? hash : undefined, active };
}
