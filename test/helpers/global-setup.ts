/**
 * Builds the test archives once per run with the demo generator (the same one users and the
 * benchmarks use): a SQLite file and, when MariaDB is reachable, a fresh MariaDB database that
 * is dropped again at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import type { TestProject } from 'vitest/node';
import { writeMariadbDemo, writeSqliteDemo } from '../../src/demo/index.js';
import { compiledSourcesDir } from './compiled-sources.js';
import { MARIADB, requireMariadbOrSkip } from './mariadb-availability.js';

export const FIXTURE_DB = 'oh_test';
export const FIXTURE_INTERVIEWS = 60;

declare module 'vitest' {
  export interface ProvidedContext {
    sqliteDir: string;
    mariadbDb: string | null;
    /** Unique to this run: names what the run leaves in shared places (compiled-sources.ts). */
    testRunId: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'pubtest-'));
  await writeSqliteDemo(join(dir, `${FIXTURE_DB}.sqlite`), { interviews: FIXTURE_INTERVIEWS, seed: 7 });
  project.provide('sqliteDir', dir);

  let mariadbDb: string | null = null;
  if (await requireMariadbOrSkip()) {
    mariadbDb = `pubtest_${process.pid}_${Date.now().toString(36)}`;
    await writeMariadbDemo(MARIADB, mariadbDb, { interviews: FIXTURE_INTERVIEWS, seed: 7 });
  }
  project.provide('mariadbDb', mariadbDb);
  const runId = `${process.pid}-${Date.now().toString(36)}`;
  project.provide('testRunId', runId);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(compiledSourcesDir(runId), { recursive: true, force: true });
    if (mariadbDb) {
      const conn = await mysql.createConnection(MARIADB);
      await conn.query(`DROP DATABASE IF EXISTS \`${mariadbDb}\``);
      await conn.end();
    }
  };
}
