/**
 * The import command (`npm run work -- import`) on both engines: the round trip (a section
 * exported, imported into an empty database of the same ontology, exported again: the same
 * file), the report, the refused rows file and the exit codes, a hostile file (not UTF-8),
 * listing and undoing, and a database failure in the middle of an import (no partial row).
 * Also, marked: a thesaurus package of a TLD the ontology lacks (needs ensureHierarchyTld,
 * built by another change; skipped until it lands).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUserAccess } from '../../../src/work/auth/permissions.js';
import type { UserAccessRow } from '../../../src/work/auth/permissions-store.js';
import { bootstrapDatabase, ROOT_USER_ID } from '../../../src/work/bootstrap/bootstrap-database.js';
import { runExportCommand } from '../../../src/work/cli-export.js';
import { type ImportCommand, parseImportCommand, runImportCommand } from '../../../src/work/cli-import.js';
import { importRecords } from '../../../src/work/collections/import-records.js';
import { fileSource, textSource } from '../../../src/work/collections/import-source.js';
import { loadOntology } from '../../../src/work/ontology/load-ontology.js';
import { loadStoredOntology } from '../../../src/work/ontology/ontology-store.js';
import type { SqlClient, SqlQueryable } from '../../../src/work/store/sql-client.js';
import { type FreshDatabase, workEngineCases } from '../../helpers/work-engines.js';
import { date, insertRecordValues, locator, text } from '../../helpers/work-records.js';

const ontology = loadOntology();
const root = buildUserAccess(ROOT_USER_ID, {} as UserAccessRow);

describe.each(workEngineCases())('the import command ($engine)', (engine) => {
  let source: FreshDatabase;
  let target: FreshDatabase;
  let a: SqlClient;
  let b: SqlClient;
  let dir: string;

  const command = (argv: string[]): ImportCommand => {
    const parsed = parseImportCommand(argv);
    if (typeof parsed === 'string') throw new Error(parsed);
    return parsed;
  };
  const exported = async (db: SqlClient, section: string) => {
    const out = join(dir, `${section}-${Math.random().toString(36).slice(2)}.csv`);
    const result = await runExportCommand(db, { section, format: 'dedalo', lang: 'lg-eng', out });
    expect(result.exitCode).toBe(0);
    return out;
  };
  const count = async (db: SqlQueryable, sql: string, params: unknown[] = []) =>
    Number((await db.query<{ n: string }>(sql, params)).rows[0]!.n);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'import-cli-'));
    source = await engine.freshDatabase();
    target = await engine.freshDatabase();
    a = await source.open();
    b = await target.open();
    // As a first server start leaves them: schema, ontology, root, the value lists.
    for (const db of [a, b]) await bootstrapDatabase(db, ontology, { rootPassword: 'root password' });
    await insertRecordValues(a, ontology, 'rsc197', 1, {
      rsc85: [text('Àngela')],
      rsc86: [text('Puig')],
      // The full name, computed from the name and surname as a save computes it.
      rsc9001: [text('Àngela Puig')],
    });
    await insertRecordValues(a, ontology, 'rsc197', 2, { rsc85: [text('Jordi')], rsc9001: [text('Jordi')] });
    await insertRecordValues(
      a,
      ontology,
      'oh1',
      1,
      {
        oh14: [text('OH-001')],
        oh16: [text('La guerra; "civil"', 'lg-spa', 1), text('The war', 'lg-eng', 2)],
        oh23: [text('Línea uno\nlínea dos', 'lg-spa')],
        oh24: [locator('oh24', 'rsc197', 1), locator('oh24', 'rsc197', '2')],
        oh29: [date(1936, 7, 18)],
        oh32: [locator('oh32', 'dd64', 1)],
      },
      [1],
    );
    await insertRecordValues(a, ontology, 'oh1', 2, { oh14: [text('=HYPERLINK("http://x")')] }, [1]);
    await insertRecordValues(a, ontology, 'oh1', 7, { oh14: [text('OH-007')], oh29: [date(1940)] }, [1]);
  });
  afterAll(async () => {
    await source?.dispose();
    await target?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('round trip: export, import into an empty database of the same ontology, export again: the same file', async () => {
    for (const section of ['rsc197', 'oh1']) {
      const file = await exported(a, section);
      const result = await runImportCommand(b, command([file, '--section', section]));
      expect(result.exitCode, result.output).toBe(0);
      expect(result.output).toMatch(/created, 0 updated, 0 unchanged, 0 refused\./);
      expect(readFileSync(await exported(b, section), 'utf8')).toBe(readFileSync(file, 'utf8'));
    }
    // The counter moved past the highest imported id.
    const counter = await b.query<{ value: number }>(
      `SELECT value FROM matrix_counter WHERE section_tipo = 'oh1'`,
    );
    expect(Number(counter.rows[0]!.value)).toBe(7);
    // Once more: nothing changes.
    const again = await runImportCommand(
      b,
      command([await exported(a, 'oh1'), '--section', 'oh1', '--json']),
    );
    expect(JSON.parse(again.output).counts).toEqual({ created: 0, updated: 0, unchanged: 3, refused: 0 });
  });

  it('the report, the refused rows file and exit code 1; list; undo', async () => {
    const file = join(dir, 'oh1.csv');
    writeFileSync(file, 'section_id;oh14;oh29\n;CLI-1;\n;CLI-2;1931-02-30\n1;OH-001 cli;\n');
    const result = await runImportCommand(b, command([file]));
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain('1 created, 1 updated, 0 unchanged, 1 refused.');
    expect(result.output).toMatch(/line 3, column 3 \(oh29\): invalid_date: /);
    const refused = join(dir, 'oh1.refused.csv');
    expect(result.output).toContain(`written to ${refused}`);
    expect(readFileSync(refused, 'utf8')).toMatch(
      /^section_id;oh14;oh29;reason\n;CLI-2;1931-02-30;oh29: .+\n$/,
    );
    const id = Number(/Import (\d+) of oh1\.csv/.exec(result.output)![1]);
    expect(result.output).toContain(`npm run work -- import undo ${id}`);
    const list = await runImportCommand(b, command(['list']));
    expect(list.output.split('\n')[0]).toMatch(
      new RegExp(`^${id}\\t.*\\troot\\toh1\\.csv\\toh1\\t1 created, 1 updated, 0 unchanged, 1 refused$`),
    );
    const undo = await runImportCommand(b, command(['undo', String(id)]));
    expect(undo).toEqual({ exitCode: 0, output: `Import ${id} undone: 1 records put back, 1 removed.` });
    const code = await b.query<{ v: string }>(
      `SELECT string->'oh14'->0->>'value' AS v FROM matrix WHERE section_tipo = 'oh1' AND section_id = 1`,
    );
    expect(code.rows[0]!.v).toBe('OH-001');
    expect((await runImportCommand(b, command(['undo', String(id)]))).exitCode).toBe(1);
    expect(parseImportCommand(['undo', 'x'])).toMatch(/^usage/);
    expect(parseImportCommand([file, '--force'])).toMatch(/^usage/);
  });

  it('a hostile file the reader refuses (not UTF-8) stops with its line and byte, and nothing is written', async () => {
    const file = join(dir, 'latin1.csv');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from('section_id;oh14\n;ok\n;caf'), Buffer.from([0xe9]), Buffer.from('\n')]),
    );
    const before = await count(b, `SELECT count(*)::text AS n FROM imports`);
    const result = await runImportCommand(b, command([file, '--section', 'oh1']));
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/line 3, byte \d+: the file is not valid UTF-8/);
    expect(
      await count(b, `SELECT count(*)::text AS n FROM matrix WHERE string->'oh14'->0->>'value' = 'ok'`),
    ).toBe(0);
    // The bytes are read as they come: the file's first rows were written, the run is
    // registered as failed at the line it could not read.
    expect(await count(b, `SELECT count(*)::text AS n FROM imports`)).toBeGreaterThanOrEqual(before);
  });

  it('a database failure in the middle of an import leaves no partial row', async () => {
    const { ontology: stored } = await loadStoredOntology(b);
    let inserts = 0;
    // The 5th history row fails: row 3's second component (rows write 2 components each).
    const faulty: SqlClient = {
      engine: b.engine,
      query: (sql, params) => b.query(sql, params),
      close: () => b.close(),
      transaction: (fn, options) =>
        b.transaction(
          (tx) =>
            fn({
              query: (sql, params) => {
                if (/INSERT INTO matrix_time_machine/.test(sql) && ++inserts === 5) {
                  return Promise.reject(Object.assign(new Error('injected failure'), { code: 'XX000' }));
                }
                return tx.query(sql, params);
              },
            }),
          options,
        ),
    };
    const file = [
      'section_id;oh14;oh29',
      '80;F-1;1990',
      '81;F-2;1991',
      '82;F-3;1992',
      '83;F-4;1993',
      '',
    ].join('\n');
    const report = await importRecords(
      { db: faulty, ontology: stored, access: root, now: () => new Date() },
      // The per-row path (the bulk path redoes a failed run row by row: import-bulk.test.ts).
      { source: textSource(file), fileName: 'oh1.csv', via: 'cli', batchSize: 1, bulk: false },
    );
    expect(report.failure).toEqual({ line: 4, message: expect.stringContaining('injected failure') });
    expect(report.counts).toMatchObject({ created: 2 });
    const ids = await b.query<{ section_id: number }>(
      `SELECT section_id FROM matrix WHERE section_tipo = 'oh1' AND section_id BETWEEN 80 AND 83 ORDER BY 1`,
    );
    expect(ids.rows.map((r) => Number(r.section_id))).toEqual([80, 81]);
    expect(
      await count(
        b,
        `SELECT count(*)::text AS n FROM matrix_time_machine WHERE section_tipo = 'oh1' AND section_id >= 82`,
      ),
    ).toBe(0);
    const status = await b.query<{ status: string }>('SELECT status FROM imports WHERE id = $1', [
      report.import_id,
    ]);
    expect(status.rows[0]!.status).toBe('failed');
    // The same file again, without the fault: the rest goes in, the first rows are unchanged.
    const again = await importRecords(
      { db: b, ontology: stored, access: root, now: () => new Date() },
      { source: textSource(file), fileName: 'oh1.csv', via: 'cli' },
    );
    expect(again.counts).toEqual({ created: 2, updated: 0, unchanged: 2, refused: 0 });
  });

  // Needs ensureHierarchyTld (src/work/ontology/hierarchy-install.ts), implemented by the
  // `hierarchy-install` change: skipped while it still throws "not built yet".
  it('[needs hierarchy-install] a thesaurus package of a TLD the ontology lacks installs it first, then its terms', async (ctx) => {
    const fixture = join(import.meta.dirname, 'fixtures', 'ad1.copy');
    const { ontology: stored } = await loadStoredOntology(b);
    let report: Awaited<ReturnType<typeof importRecords>>;
    try {
      report = await importRecords(
        { db: b, ontology: stored, access: root, now: () => new Date() },
        { source: fileSource(fixture), fileName: 'ad1.copy', via: 'cli' },
      );
    } catch (error) {
      if (/not built yet/.test((error as Error).message)) return ctx.skip();
      throw error;
    }
    expect(report.installed_tlds).toEqual(['ad']);
    expect(report.counts.created).toBeGreaterThanOrEqual(3);
    const { ontology: after } = await loadStoredOntology(b);
    expect(after.node('ad1')?.model).toBe('section');
    const term = await b.query<{ string: Record<string, unknown[]> }>(
      `SELECT string FROM matrix_hierarchy WHERE section_tipo = 'ad1' AND section_id = 1`,
    );
    expect(term.rows[0]!.string.hierarchy25).toEqual(
      expect.arrayContaining([{ id: 1, lang: 'lg-cat', value: 'Andorra' }]),
    );
  });
});
