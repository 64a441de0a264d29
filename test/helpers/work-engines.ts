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
  /** An empty database: what a new installation starts from (tests of the first start). */
  freshDatabase(): Promise<FreshDatabase>;
  /**
   * A copy of the run's bootstrapped template (test/helpers/bootstrap-template.ts): what a server
   * finds on every start after its first. Test servers start from one.
   */
  bootstrappedDatabase(): Promise<FreshDatabase>;
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

function pgliteCopy(template: () => string): () => Promise<FreshDatabase> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'worktest-'));
    const dataDir = join(dir, 'pglite');
    // A copy of the run's initialised cluster (pglite-template-setup.ts): no initdb here.
    cpSync(template(), dataDir, { recursive: true });
    return track({ engine: 'pglite', dataDir }, { WORK_DATA_DIR: dir }, async () =>
      rmSync(dir, { recursive: true, force: true }),
    );
  };
}

const pgliteCase: WorkEngineCase = {
  engine: 'pglite',
  freshDatabase: pgliteCopy(() => inject('workPgliteTemplate')),
  bootstrappedDatabase: pgliteCopy(() => inject('workPgliteBootstrapped')),
};

function postgresCase(prefix: string, bootstrapped: string | null): WorkEngineCase {
  const create = async (template: string | null): Promise<FreshDatabase> => {
    sequence += 1;
    const name = `${prefix}_${process.pid}_${sequence}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
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
  };
  return {
    engine: 'postgres',
    freshDatabase: () => create(null),
    bootstrappedDatabase: () => create(bootstrapped),
  };
}

/** The engines this run covers: PGlite always, PostgreSQL when it is reachable. */
export function workEngineCases(): WorkEngineCase[] {
  const prefix = inject('workPgPrefix');
  return prefix ? [pgliteCase, postgresCase(prefix, inject('workPgBootstrapped'))] : [pgliteCase];
}
