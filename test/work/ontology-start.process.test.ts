/**
 * A broken ontology stops the real server process (`npm run build` first): `start:work` on an
 * embedded database whose dd_ontology rows were corrupted by SQL exits non-zero, lists every
 * problem on stderr, and never listens.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bootstrapDatabase } from '../../src/work/bootstrap/bootstrap-database.js';
import { loadWorkConfig } from '../../src/work/config.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { openSqlClient } from '../../src/work/store/open-sql-client.js';
import { TEST_ROOT_PASSWORD } from '../helpers/work-server.js';

const MAIN = resolve('dist/src/work/main.js');

describe('start:work on a broken ontology', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('exits non-zero naming every problem, without listening', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ontology-start-'));
    const env = { WORK_DATA_DIR: join(dir, 'work'), PORT: '0', LOG_LEVEL: 'warn' };
    const db = await openSqlClient(loadWorkConfig(env).database);
    await bootstrapDatabase(db, loadOntology(), { rootPassword: TEST_ROOT_PASSWORD });
    await db.query(`UPDATE dd_ontology SET model = 'Component_Input_Text' WHERE tipo = 'oh14'`);
    await db.query(`UPDATE dd_ontology SET parent = 'zz1' WHERE tipo = 'oh16'`);
    await db.close();

    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(1);
    expect(out).not.toContain('listening');
    expect(err).toContain('Invalid ontology (2 problems):');
    expect(err).toContain('- oh14 has a model "Component_Input_Text" that is not a model name');
    expect(err).toContain('- oh16 has a missing parent zz1');
    expect(err).not.toMatch(/\n\s+at /); // no stack trace
  }, 90_000);
});
