/**
 * One empty, initialised PGlite data directory per test run, which every work test database is
 * copied from (test/helpers/work-engines.ts): PGlite's initdb takes several seconds, a copy of
 * its files a fraction of one, and an empty cluster is what a new installation starts from, so
 * the tests of the first start still see migrations and bootstrap run for real. Beside it, a
 * bootstrapped copy (bootstrap-template.ts) that test servers start from.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PgliteClient } from '../../src/work/store/pglite-client.js';
import { bootstrapTemplate } from './bootstrap-template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An initialised, empty PGlite data directory to copy. */
    workPgliteTemplate: string;
    /** The same, bootstrapped (migrated, default ontology, root): what test servers copy. */
    workPgliteBootstrapped: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'worktest-template-'));
  const dataDir = join(dir, 'pglite');
  const client = await PgliteClient.open(dataDir);
  await client.close();
  project.provide('workPgliteTemplate', dataDir);
  const bootstrapped = join(dir, 'pglite-bootstrapped');
  cpSync(dataDir, bootstrapped, { recursive: true });
  await bootstrapTemplate({ engine: 'pglite', dataDir: bootstrapped });
  project.provide('workPgliteBootstrapped', bootstrapped);
  return () => rmSync(dir, { recursive: true, force: true });
}
