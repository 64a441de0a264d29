/**
 * The publication targets an end-to-end publish test writes into: a SQLite file in `dir` always,
 * and a MariaDB database when the suite's MariaDB is reachable (vitest's `mariadbDb` injection).
 * Each case gives the publish target's URL, the publication server's environment that serves it,
 * and how to drop what a test created.
 */
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { inject } from 'vitest';
import { MARIADB } from './mariadb-availability.js';

export interface TargetCase {
  name: 'sqlite' | 'mariadb';
  url(db: string): string;
  serverEnv(db: string): Record<string, string>;
  drop(db: string): Promise<void>;
}

export function publishTargetCases(dir: string): TargetCase[] {
  const targets: TargetCase[] = [
    {
      name: 'sqlite',
      url: (db) => `sqlite:${join(dir, `${db}.sqlite`)}`,
      serverEnv: (db) => ({ DB_DRIVER: 'sqlite', DB_SQLITE_DIR: dir, DB_NAMES: db }),
      drop: async () => {},
    },
  ];
  if (inject('mariadbDb')) {
    targets.push({
      name: 'mariadb',
      url: (db) => `mysql://${MARIADB.user}:${MARIADB.password}@${MARIADB.host}:${MARIADB.port}/${db}`,
      serverEnv: (db) => ({
        DB_DRIVER: 'mariadb',
        DB_HOST: MARIADB.host,
        DB_PORT: String(MARIADB.port),
        DB_USER: MARIADB.user,
        DB_PASSWORD: MARIADB.password,
        DB_NAMES: db,
      }),
      drop: async (db) => {
        const conn = await mysql.createConnection(MARIADB);
        await conn.query(`DROP DATABASE IF EXISTS \`${db}\``);
        await conn.end();
      },
    });
  }
  return targets;
}
