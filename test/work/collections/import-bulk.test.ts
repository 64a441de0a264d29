/**
 * The import's bulk path (src/work/collections/import-write-bulk.ts) on both engines: the same
 * file imported into two identical databases, once row by row (`bulk: false`) and once in bulk,
 * leaves the same records (values, item counters, versions, stamps), the same history and
 * activity rows (one per record; same ids: written in the same order), the same search rows, the same undo
 * records, the same counter and the same report; a file with refused rows refuses the same rows
 * for the same reasons and writes the same values (for an administrator and for a cataloguer
 * without the right to save one component or to use another project); a database error in a
 * bulk run redoes the run row by row, and every row still lands.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildUserAccess } from '../../../src/work/auth/permissions.js';
import type { UserAccessRow } from '../../../src/work/auth/permissions-store.js';
import { bootstrapDatabase, ROOT_USER_ID } from '../../../src/work/bootstrap/bootstrap-database.js';
import { type ImportRecordsInput, importRecords } from '../../../src/work/collections/import-records.js';
import { textSource } from '../../../src/work/collections/import-source.js';
import { loadOntology } from '../../../src/work/ontology/load-ontology.js';
import { loadStoredOntology } from '../../../src/work/ontology/ontology-store.js';
import type { SqlClient } from '../../../src/work/store/sql-client.js';
import { type FreshDatabase, workEngineCases } from '../../helpers/work-engines.js';
import { insertRecordValues, text } from '../../helpers/work-records.js';

const ontology = loadOntology();
const root = buildUserAccess(ROOT_USER_ID, {} as UserAccessRow);
const NOW = new Date('2026-11-27T01:00:00.000Z');

const q = (value: unknown) => `"${JSON.stringify(value).replace(/"/g, '""')}"`;
const title = (es: string, en: string) => q({ 'lg-spa': [es], 'lg-eng': [en] });
const people = (...ids: number[]) => q(ids.map((id) => ({ section_tipo: 'rsc197', section_id: String(id) })));
const PROJECT = q([{ section_tipo: 'dd153', section_id: '1' }]);
const PUBLISHABLE = q([{ section_tipo: 'dd64', section_id: '1' }]);
const HEADER = 'section_id;oh14;oh16;oh23;oh24;oh29;oh22;oh32';

/** Every row lands: records named by id and not, an update, a row naming a record made just before. */
const CLEAN = [
  HEADER,
  `10;B-10;${title('Memorias', 'Memories')};Un resumen;${people(1, 2)};1936-07-18;${PROJECT};${PUBLISHABLE}`,
  `;B-new-1;${title('Otra', 'Another')};;${people(3)};1940;;`,
  `5;OLD-1b;;;;;;`,
  `12;B-12;;;;;;${PUBLISHABLE}`,
  `;B-new-2;${title('Tercera', 'Third')};Texto;${people(2)};1950-05;${PROJECT};`,
  `10;B-10;${title('Memorias', 'Memories, again')};Un resumen;${people(1, 2)};1936-07-18;${PROJECT};${PUBLISHABLE}`,
  `3;B-3;;;${people(1)};;;`,
  '',
].join('\n');

/** Refusals mixed in: a missing target, a taken code, a code twice, a date that does not exist. */
const REFUSING = [
  HEADER,
  `20;C-20;${title('Uno', 'One')};;${people(1)};1960;;`,
  `21;C-21;;;${people(1, 999)};;;`,
  `;OLD-1;;;;;;`,
  `;C-20;;;;;;`,
  `22;C-22;;;;1990-02-30;;`,
  `23;C-23;${title('Dos', 'Two')};;${people(3)};1961;;`,
  `;C-24;;;;;;`,
  '',
].join('\n');

/** Rights a non-administrator importer lacks: saving the title, a project that is not theirs. */
const LIMITED = [
  HEADER,
  `30;D-30;;;${people(1)};1970;${PROJECT};`,
  `31;D-31;${title('Título', 'Title')};;;;;`,
  `32;D-32;;;;;${q([{ section_tipo: 'dd153', section_id: '2' }])};`,
  `;D-33;;;${people(2)};;;`,
  '',
].join('\n');

/** An active cataloguer of project 1: may create and save interviews, only read their titles. */
const cataloguer = buildUserAccess(50, {
  version: 1,
  userFound: true,
  projects: [{ section_tipo: 'dd153', section_id: 1 }],
  globalAdmin: [],
  active: [{ section_tipo: 'dd64', section_id: 1 }],
  access: [
    { section_tipo: 'oh1', tipo: 'oh1', value: 2 },
    ...['oh14', 'oh23', 'oh24', 'oh29', 'oh22', 'oh32'].map((tipo) => ({
      section_tipo: 'oh1',
      tipo,
      value: 2,
    })),
    { section_tipo: 'oh1', tipo: 'oh16', value: 1 },
  ],
});

/** A client counting the statements it runs; `failOnce` makes the first matching one fail. */
function watched(db: SqlClient, failOnce?: RegExp) {
  const seen: string[] = [];
  let failed = false;
  const run = <T>(query: () => Promise<T>, sql: string): Promise<T> => {
    seen.push(sql);
    if (failOnce && !failed && failOnce.test(sql)) {
      failed = true;
      return Promise.reject(Object.assign(new Error('injected failure'), { code: 'XX000' }));
    }
    return query();
  };
  const client: SqlClient = {
    engine: db.engine,
    query: (sql, params) => run(() => db.query(sql, params), sql),
    close: () => db.close(),
    transaction: (fn, options) =>
      db.transaction((tx) => fn({ query: (sql, params) => run(() => tx.query(sql, params), sql) }), options),
  };
  const count = (pattern: RegExp) => seen.filter((s) => pattern.test(s)).length;
  return { client, count };
}

/** What an import leaves, read back (ids kept: both databases number alike). */
async function stored(db: SqlClient) {
  const all = async (sql: string) => (await db.query<Record<string, unknown>>(sql)).rows;
  // The interview the test wrote before the import was stamped with the database's clock.
  const seeded = (row: Record<string, unknown>) => {
    const { created_at: _at, ...rest } = row;
    return rest;
  };
  const records = (
    await all(
      `SELECT section_id, string, relation, date, number, media, misc, meta, versions,
              created_at, created_by, modified_at, modified_by
       FROM matrix WHERE section_tipo = 'oh1' ORDER BY section_id`,
    )
  ).map((r) => (Number(r.section_id) === 5 ? seeded(r) : r));
  const undo = (
    await all(
      `SELECT import_id, section_tipo, section_id, created, before, after_versions
       FROM import_records ORDER BY section_id`,
    )
  ).map((u) => (u.before ? { ...u, before: seeded(u.before as Record<string, unknown>) } : u));
  return {
    records,
    history: await all(
      `SELECT id, kind, section_tipo, section_id, tipo, lang, data, user_id, created_at, import_id
       FROM matrix_time_machine WHERE import_id IS NOT NULL ORDER BY id`,
    ),
    activity: await all(
      `SELECT section_id, string, relation, date, misc, meta, created_by, import_id
       FROM matrix_activity WHERE import_id IS NOT NULL ORDER BY section_id`,
    ),
    strings: await all(
      `SELECT section_id, component_tipo, lang, value_norm FROM matrix_string_search
       WHERE section_tipo = 'oh1' ORDER BY 1, 2, 3, 4`,
    ),
    numbers: await all(
      `SELECT section_id, component_tipo, value::text FROM matrix_number_search
       WHERE section_tipo = 'oh1' ORDER BY 1, 2, 3`,
    ),
    undo,
    counter: await all(`SELECT value FROM matrix_counter WHERE section_tipo = 'oh1'`),
  };
}

/**
 * The same contents with history ids replaced by their rank: a refused row's rolled-back writes
 * use up sequence numbers on the per-row path only, so the ids differ where the values do not.
 */
function ranked(contents: Awaited<ReturnType<typeof stored>>) {
  const rank = new Map(contents.history.map((h, i) => [Number(h.id), i + 1]));
  const versions = (v: unknown) =>
    Object.fromEntries(
      Object.entries(v as Record<string, number>).map(([k, id]) => [k, rank.get(Number(id))]),
    );
  return {
    ...contents,
    records: contents.records.map((r) => ({ ...r, versions: versions(r.versions) })),
    history: contents.history.map((h) => ({ ...h, id: rank.get(Number(h.id)) })),
    activity: contents.activity.map(({ section_id: _id, ...rest }) => rest),
    undo: contents.undo.map((u) => ({ ...u, after_versions: versions(u.after_versions) })),
  };
}

describe.each(workEngineCases())('the import bulk path ($engine)', (engine) => {
  const databases: FreshDatabase[] = [];
  const clients: SqlClient[] = [];

  /** A database as a first start leaves it, with link targets and one interview (5, OLD-1). */
  const fresh = async () => {
    const database = await engine.freshDatabase();
    databases.push(database);
    const db = await database.open();
    clients.push(db);
    await bootstrapDatabase(db, ontology, { rootPassword: 'root password' });
    for (const id of [1, 2, 3])
      await insertRecordValues(db, ontology, 'rsc197', id, { rsc85: [text(`P${id}`)] });
    await insertRecordValues(db, ontology, 'oh1', 5, { oh14: [text('OLD-1')] }, [1]);
    return db;
  };

  const run = async (
    db: SqlClient,
    file: string,
    options: Partial<ImportRecordsInput> = {},
    access = root,
  ) => {
    const { ontology: current } = await loadStoredOntology(db);
    return importRecords(
      { db, ontology: current, access, now: () => NOW },
      { source: textSource(file), fileName: 'oh1.csv', via: 'cli', ...options },
    );
  };

  afterAll(async () => {
    for (const db of clients) await db.close();
    for (const database of databases) await database.dispose();
  });

  it('writes exactly what the per-row path writes: records, history, activity, search rows, undo, counter, report', async () => {
    const perRowDb = await fresh();
    const bulkDb = await fresh();
    const perRow = watched(perRowDb);
    const bulk = watched(bulkDb);
    const perRowReport = await run(perRow.client, CLEAN, { bulk: false });
    const bulkReport = await run(bulk.client, CLEAN);

    expect(perRowReport.counts).toEqual({ created: 5, updated: 2, unchanged: 0, refused: 0 });
    expect(bulkReport).toEqual(perRowReport);
    const expected = await stored(perRowDb);
    expect(expected.records.length).toBe(6);
    expect(expected.history.length).toBeGreaterThan(20);
    // One activity row per record written (5 created, 2 updated), not one per component.
    expect(expected.activity.length).toBe(7);
    expect(await stored(bulkDb)).toEqual(expected);
    // The bulk path ran: the new records' history rows went in a few statements.
    const history = /INSERT INTO matrix_time_machine/;
    expect(perRow.count(history)).toBe(expected.history.length);
    expect(bulk.count(history)).toBeLessThan(expected.history.length / 2);
  });

  it('refuses the same rows for the same reasons, and writes the same values', async () => {
    const perRowDb = await fresh();
    const bulkDb = await fresh();
    const perRowReport = await run(perRowDb, REFUSING, { bulk: false });
    const bulk = watched(bulkDb);
    const bulkReport = await run(bulk.client, REFUSING);
    // Every row creates a record: they went through the bulk path (the row the reader refused
    // splits it in two runs), none row by row.
    expect(bulk.count(/^SAVEPOINT import_bulk/)).toBe(2);
    expect(bulk.count(/SAVEPOINT import_row/)).toBe(0);

    expect(perRowReport.counts).toEqual({ created: 3, updated: 0, unchanged: 0, refused: 4 });
    expect(perRowReport.refusals.map((r) => [r.line, r.reason])).toEqual([
      [3, 'locator_target'],
      [4, 'conflict'],
      [5, 'conflict'],
      [6, 'invalid_date'],
    ]);
    expect(bulkReport).toEqual(perRowReport);
    expect(ranked(await stored(bulkDb))).toEqual(ranked(await stored(perRowDb)));
  });

  it('keeps a non-administrator within their rights: the same rows refused for the same reasons', async () => {
    const perRowDb = await fresh();
    const bulkDb = await fresh();
    const perRowReport = await run(perRowDb, LIMITED, { bulk: false }, cataloguer);
    const bulk = watched(bulkDb);
    const bulkReport = await run(bulk.client, LIMITED, {}, cataloguer);

    expect(bulk.count(/SAVEPOINT import_row/)).toBe(0);
    expect(perRowReport.refusals.map((r) => [r.line, r.reason, r.header])).toEqual([
      [3, 'permission', 'oh16'],
      [4, 'permission', 'oh22'],
    ]);
    expect(perRowReport.counts).toMatchObject({ created: 2, refused: 2 });
    expect(bulkReport).toEqual(perRowReport);
    expect(ranked(await stored(bulkDb))).toEqual(ranked(await stored(perRowDb)));
  });

  it('a database error in a bulk run redoes that run row by row: every row lands, as the per-row path writes it', async () => {
    const perRowDb = await fresh();
    const bulkDb = await fresh();
    const perRowReport = await run(perRowDb, CLEAN, { bulk: false });
    // The run's one multi-row record insert fails; its savepoint rolls back.
    const faulty = watched(bulkDb, /INSERT INTO matrix\s+\(section_tipo[\s\S]*jsonb_array_elements/);
    const report = await run(faulty.client, CLEAN);

    expect(faulty.count(/ROLLBACK TO SAVEPOINT import_bulk/)).toBe(1);
    expect(report).toEqual(perRowReport);
    expect(report.failure).toBeNull();
    const contents = await stored(bulkDb);
    expect(contents.records.map((r) => Number(r.section_id))).toEqual([3, 5, 10, 11, 12, 13]);
    expect(ranked(contents)).toEqual(ranked(await stored(perRowDb)));
  });
});
