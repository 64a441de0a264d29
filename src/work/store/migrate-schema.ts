/**
 * Brings the work database up to the latest migration. Re-runnable: applied versions are
 * recorded in `schema_migrations`, so a second start changes nothing. Each migration runs in its
 * own transaction under a transaction-scoped advisory lock, so two instances starting at once
 * against one PostgreSQL apply every migration exactly once (the second waits, then sees it done).
 */
import type { Migration } from './migration.js';
import { MIGRATIONS } from './migrations.js';
import type { SqlClient } from './sql-client.js';

/** Arbitrary constant shared by every instance: "the work schema is being migrated". */
const MIGRATION_LOCK_KEY = 7_314_200_501;

export interface MigrationReport {
  applied: number[];
  /** The schema version after the run. */
  version: number;
}

/** Migrations may run longer than a request may (an index on a large table): no time limits. */
const MIGRATION_TX = { unlimited: true } as const;

export async function migrateSchema(
  client: SqlClient,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  await client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  }, MIGRATION_TX);
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    const ran = await client.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (done.rowCount > 0) return false;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    }, MIGRATION_TX);
    if (ran) applied.push(migration.version);
  }
  const { rows } = await client.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM schema_migrations',
  );
  return { applied, version: rows[0]?.version ?? 0 };
}
