/**
 * Decides whether the PostgreSQL-backed work suites run. Without a server they are skipped with
 * a clear message, except under CI=true, where a missing server is a failure (CI must not go
 * green by silently testing less). The PGlite suites always run.
 */
import pg from 'pg';

/** A superuser connection to the maintenance database; test databases are created from it. */
export const POSTGRES_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The same server, another database. */
export function postgresUrlFor(database: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function requirePostgresOrSkip(): Promise<boolean> {
  if (await postgresReachable()) return true;
  const where = new URL(POSTGRES_ADMIN_URL).host;
  if (process.env.CI === 'true') {
    throw new Error(`CI=true but PostgreSQL is not reachable at ${where}: the work suites cannot run`);
  }
  console.warn(
    `\n[skip] PostgreSQL is not reachable at ${where}: PostgreSQL work suites are skipped (PGlite suites still run).\n`,
  );
  return false;
}
