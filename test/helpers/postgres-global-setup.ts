/**
 * Work API test databases on PostgreSQL: checks the server once per run and hands the test files
 * a name prefix unique to this run. Each test creates its own empty database under that prefix
 * (test/helpers/work-engines.ts), so files running in parallel never share state; at the end
 * every database with the prefix is dropped, including those a crashed test left behind.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { bootstrapTemplate } from './bootstrap-template.js';
import { POSTGRES_ADMIN_URL, postgresUrlFor, requirePostgresOrSkip } from './postgres-availability.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Prefix of this run's PostgreSQL test databases; null when PostgreSQL is not available. */
    workPgPrefix: string | null;
    /** A bootstrapped database of this run (bootstrap-template.ts) that test servers' databases are created from. */
    workPgBootstrapped: string | null;
  }
}

export default async function setup(project: TestProject) {
  const available = await requirePostgresOrSkip();
  const prefix = available ? `worktest_${process.pid}_${Date.now().toString(36)}` : null;
  project.provide('workPgPrefix', prefix);
  let bootstrapped: string | null = null;
  if (prefix) {
    bootstrapped = `${prefix}_bootstrapped`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${bootstrapped}"`);
    } finally {
      await admin.end();
    }
    // Its pool is closed before any copy: CREATE DATABASE ... TEMPLATE needs it unconnected.
    await bootstrapTemplate({ engine: 'postgres', url: postgresUrlFor(bootstrapped), poolMax: 2 });
  }
  project.provide('workPgBootstrapped', bootstrapped);
  return async () => {
    if (!prefix) return;
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
        [prefix],
      );
      for (const { datname } of rows) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    } finally {
      await client.end();
    }
  };
}
