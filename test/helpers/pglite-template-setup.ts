/**
 * One empty, initialised PGlite data directory per test run, which every work test database is
 * copied from (test/helpers/work-engines.ts): PGlite's initdb takes several seconds, a copy of
 * its files a fraction of one, and an empty cluster is what a new installation starts from, so
 * the tests still see migrations and bootstrap run for real.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PgliteClient } from '../../src/work/store/pglite-client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An initialised, empty PGlite data directory to copy. */
    workPgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'worktest-template-'));
  const dataDir = join(dir, 'pglite');
  const client = await PgliteClient.open(dataDir);
  await client.close();
  project.provide('workPgliteTemplate', dataDir);
  return () => rmSync(dir, { recursive: true, force: true });
}
