/**
 * The engines the work suites run on: PGlite always (in a temporary directory), PostgreSQL when
 * the global setup found a server. A test asks its engine for a fresh, empty database and gets
 * the configuration that points at it, so the same test body runs on both.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { WorkDatabase } from '../../src/work/config.js';
import { openSqlClient } from '../../src/work/store/open-sql-client.js';
import type { SqlClient, SqlEngine } from '../../src/work/store/sql-client.js';
import { POSTGRES_ADMIN_URL, postgresUrlFor } from './postgres-availability.js';

export interface FreshDatabase {
  database: WorkDatabase;
  /** The environment variables that make loadWorkConfig point at this database. */
  env: Record<string, string>;
  /** Opens a new client on it; each open is a "server start". */
  open(): Promise<SqlClient>;
  /** Closes what open() returned and removes the database. */
  dispose(): Promise<void>;
}

export interface WorkEngineCase {
  engine: SqlEngine;
  freshDatabase(): Promise<FreshDatabase>;
}

let sequence = 0;

function track(
  database: WorkDatabase,
  env: Record<string, string>,
  remove: () => Promise<void>,
): FreshDatabase {
  const clients: SqlClient[] = [];
  return {
    database,
    env,
    open: async () => {
      const client = await openSqlClient(database);
      clients.push(client);
      return client;
    },
    dispose: async () => {
      // A client a test already closed rejects a second close; that is fine here.
      for (const c of clients) await c.close().catch(() => {});
      await remove();
    },
  };
}

const pgliteCase: WorkEngineCase = {
  engine: 'pglite',
  freshDatabase: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'worktest-'));
    const dataDir = join(dir, 'pglite');
    // A copy of the run's empty initialised cluster (pglite-template-setup.ts): no initdb here.
    cpSync(inject('workPgliteTemplate'), dataDir, { recursive: true });
    return track({ engine: 'pglite', dataDir }, { WORK_DATA_DIR: dir }, async () =>
      rmSync(dir, { recursive: true, force: true }),
    );
  },
};

function postgresCase(prefix: string): WorkEngineCase {
  return {
    engine: 'postgres',
    freshDatabase: async () => {
      sequence += 1;
      const name = `${prefix}_${process.pid}_${sequence}`;
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.end();
      }
      const url = postgresUrlFor(name);
      return track({ engine: 'postgres', url, poolMax: 10 }, { WORK_DB_URL: url }, async () => {
        const drop = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
        await drop.connect();
        try {
          await drop.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        } finally {
          await drop.end();
        }
      });
    },
  };
}

/** The engines this run covers: PGlite always, PostgreSQL when it is reachable. */
export function workEngineCases(): WorkEngineCase[] {
  const prefix = inject('workPgPrefix');
  return prefix ? [pgliteCase, postgresCase(prefix)] : [pgliteCase];
}
