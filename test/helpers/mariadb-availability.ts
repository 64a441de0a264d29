/**
 * Decides whether the MariaDB-backed suites run. Without a server they are skipped with a clear
 * message, except under CI=true, where a missing server is a failure (CI must not go green by
 * silently testing less).
 */
import mysql from 'mysql2/promise';

export const MARIADB = {
  host: process.env.TEST_DB_HOST ?? '127.0.0.1',
  port: Number(process.env.TEST_DB_PORT ?? 3306),
  user: process.env.TEST_DB_USER ?? 'root',
  password: process.env.TEST_DB_PASSWORD ?? '',
};

export async function mariadbReachable(): Promise<boolean> {
  try {
    const conn = await mysql.createConnection({ ...MARIADB, connectTimeout: 3000 });
    await conn.end();
    return true;
  } catch {
    return false;
  }
}

export async function requireMariadbOrSkip(): Promise<boolean> {
  if (await mariadbReachable()) return true;
  const where = `${MARIADB.host}:${MARIADB.port}`;
  if (process.env.CI === 'true') {
    throw new Error(`CI=true but MariaDB is not reachable at ${where}: the server-backed suites cannot run`);
  }
  console.warn(
    `\n[skip] MariaDB is not reachable at ${where}: MariaDB suites are skipped (SQLite suites still run).\n`,
  );
  return false;
}
