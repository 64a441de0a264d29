/**
 * Rows of `server_secrets` (migration 10): random secrets the server generates once and every
 * instance on the database then shares (restarts and several instances sign and check alike).
 * The first instance to ask inserts one; a concurrent first ask keeps whichever row won.
 */
import { randomBytes } from 'node:crypto';
import type { SqlQueryable } from './sql-client.js';

/** The secret `name` (base64url, 32 random bytes), created on first use. */
export async function serverSecret(db: SqlQueryable, name: string): Promise<string> {
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32).toString('base64url'),
  ]);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [
    name,
  ]);
  return rows[0]!.value;
}
