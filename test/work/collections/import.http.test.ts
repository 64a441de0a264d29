/**
 * Importing collection files through dd_import_api (docs/import-export.md, "Importing") on both
 * engines, against the real server: Dédalo CSV creating and updating records (the counter moved
 * past a given id), refused rows that change nothing while the others land, all-or-nothing, dry
 * run, an idempotent re-run (no new history), the rights the API checks (levels, the rights
 * ceiling on users and profiles), a spreadsheet matched by key, Dédalo records (COPY text) into
 * the thesaurus, the import id in History and in the activity log, the imports list, and undo
 * (conflicts named, force, a second undo refused).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOntology } from '../../../src/work/ontology/load-ontology.js';
import { workEngineCases } from '../../helpers/work-engines.js';
import { insertLoginUser, insertProfile, insertProject } from '../../helpers/work-permissions.js';
import { insertRecordValues, text } from '../../helpers/work-records.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../../helpers/work-server.js';

const ontology = loadOntology();
const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
const csv = (...lines: string[]) => `${lines.join('\n')}\n`;

describe.each(workEngineCases())('importing collection files ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let cataloguer: WorkBrowser;
  let accounts: WorkBrowser;

  const importFile = (browser: WorkBrowser, options: Record<string, unknown>) =>
    browser.post({ dd_api: 'dd_import_api', action: 'import_records', options });
  const api = (browser: WorkBrowser, action: string, options: Record<string, unknown>) =>
    browser.post({ dd_api: 'dd_import_api', action, options });
  const query = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await work.server.db.query<T>(sql, params)).rows;
  const record = async (section: string, id: number, table = 'matrix') =>
    (
      await query<{
        string: Record<string, unknown[]>;
        relation: Record<string, unknown[]>;
        date: Record<string, unknown[]>;
      }>(`SELECT string, relation, date FROM ${table} WHERE section_tipo = $1 AND section_id = $2`, [
        section,
        id,
      ])
    )[0];
  const values = (items: unknown[] | undefined) => (items ?? []).map((i) => (i as { value: unknown }).value);
  const historyCount = async () =>
    Number((await query<{ n: string }>('SELECT count(*)::text AS n FROM matrix_time_machine'))[0]!.n);
  const recordCount = async (section: string) =>
    Number(
      (
        await query<{ n: string }>('SELECT count(*)::text AS n FROM matrix WHERE section_tipo = $1', [
          section,
        ])
      )[0]!.n,
    );

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    await insertProject(db, 2);
    // A cataloguer of project 1: saves the interviews' code and date, only reads the title,
    // reads the informants.
    await insertProfile(db, 10, [
      { tipo: 'oh1', section_tipo: 'oh1', value: 2 },
      { tipo: 'oh14', section_tipo: 'oh1', value: 2 },
      { tipo: 'oh29', section_tipo: 'oh1', value: 2 },
      { tipo: 'oh16', section_tipo: 'oh1', value: 1 },
      { tipo: 'rsc197', section_tipo: 'rsc197', value: 1 },
      { tipo: 'rsc85', section_tipo: 'rsc197', value: 1 },
    ]);
    await insertLoginUser(db, 11, {
      username: 'cataloguer',
      password: 'pw cataloguer',
      profile: 10,
      projects: [1],
    });
    // An accounts manager: saves users and profiles (not the global-admin flag), level 2 on
    // the interviews only.
    await insertProfile(db, 20, [
      { tipo: 'dd128', section_tipo: 'dd128', value: 2 },
      { tipo: 'dd132', section_tipo: 'dd128', value: 2 },
      { tipo: 'dd244', section_tipo: 'dd128', value: 2 },
      { tipo: 'dd1725', section_tipo: 'dd128', value: 2 },
      { tipo: 'dd234', section_tipo: 'dd234', value: 2 },
      { tipo: 'dd774', section_tipo: 'dd234', value: 2 },
      { tipo: 'oh1', section_tipo: 'oh1', value: 2 },
    ]);
    await insertLoginUser(db, 12, {
      username: 'accounts',
      password: 'pw accounts',
      profile: 20,
      projects: [1],
    });
    await insertRecordValues(db, ontology, 'rsc197', 1, { rsc85: [text('Àngela')] });
    await insertRecordValues(db, ontology, 'rsc197', 2, { rsc85: [text('Jordi')] });
    await insertRecordValues(db, ontology, 'rsc197', 3, { rsc85: [text('Jordi')] });
    await insertRecordValues(db, ontology, 'oh1', 1, { oh14: [text('OH-001')] }, [1]);
    root = await rootBrowser(work);
    cataloguer = work.browser();
    expect((await cataloguer.login('cataloguer', 'pw cataloguer')).status).toBe(200);
    accounts = work.browser();
    expect((await accounts.login('accounts', 'pw accounts')).status).toBe(200);
  });
  afterAll(async () => {
    await work?.stop();
  });

  it('Dédalo CSV: creates records, updates one, creates one with its id and moves the counter past it', async () => {
    const file = csv(
      'section_id;oh14;oh16;oh29;oh24',
      `;OH-A;${q(JSON.stringify({ 'lg-spa': ['Título A'], 'lg-eng': ['Title A'] }))};1936-07-18;${q('[{"section_tipo":"rsc197","section_id":"1"}]')}`,
      '40;OH-B;;1940;',
      '1;OH-001 bis;;;',
    );
    const answer = await importFile(root, { content: file, file_name: 'oh1.csv' });
    expect(answer.status).toBe(200);
    const report = answer.body.data;
    expect(report).toMatchObject({
      kind: 'dedalo_csv',
      section_tipo: 'oh1',
      written: true,
      rows: 3,
      counts: { created: 2, updated: 1, unchanged: 0, refused: 0 },
      refused_csv: null,
    });
    expect(report.import_id).toBeGreaterThan(0);
    const created = await record('oh1', 2);
    expect(values(created?.string.oh14)).toEqual(['OH-A']);
    expect(created?.string.oh16).toEqual([
      expect.objectContaining({ lang: 'lg-spa', value: 'Título A' }),
      expect.objectContaining({ lang: 'lg-eng', value: 'Title A' }),
    ]);
    expect(created?.relation.oh24).toEqual([
      expect.objectContaining({ section_tipo: 'rsc197', section_id: 1 }),
    ]);
    expect(values((await record('oh1', 40))?.string.oh14)).toEqual(['OH-B']);
    expect(values((await record('oh1', 1))?.string.oh14)).toEqual(['OH-001 bis']);
    // The informant linked by the import shows it in its inverse reference (the save path ran).
    // The next record created by anyone comes after 40.
    const next = await root.post({ action: 'create', source: { section_tipo: 'oh1' } });
    expect(next.body.data).toBe(41);
    // Every history row of the import carries its id, and so does every activity row.
    const tagged = await query<{ n: string }>(
      'SELECT count(*)::text AS n FROM matrix_time_machine WHERE import_id = $1',
      [report.import_id],
    );
    expect(Number(tagged[0]!.n)).toBeGreaterThanOrEqual(6);
    // One activity row per record written (not one per component): 'new' for the two created,
    // 'save' for the one updated, each naming the import and the components it wrote.
    const activity = await query<{ what: string; where: string; data: unknown }>(
      `SELECT string->'dd545'->0->>'value' AS what, string->'dd546'->0->>'value' AS where,
              misc->'dd551'->0->'value' AS data
       FROM matrix_activity WHERE import_id = $1 ORDER BY section_id`,
      [report.import_id],
    );
    const logged = (what: string, sectionId: number, components: string[]) => ({
      what,
      where: 'oh1',
      data: { section_tipo: 'oh1', section_id: sectionId, import_id: report.import_id, components },
    });
    expect(activity).toEqual([
      logged('new', 2, ['oh14', 'oh16', 'oh29', 'oh24']),
      logged('new', 40, ['oh14', 'oh29']),
      logged('save', 1, ['oh14']),
    ]);
  });

  it('an unchanged file imported again writes nothing: no history row, no new version', async () => {
    const file = csv('section_id;oh14;oh29', '1;OH-001 bis;', '40;OH-B;1940');
    const before = await historyCount();
    const answer = await importFile(root, { content: file, file_name: 'oh1.csv' });
    expect(answer.body.data.counts).toEqual({ created: 0, updated: 0, unchanged: 2, refused: 0 });
    expect(await historyCount()).toBe(before);
  });

  it('refused rows change nothing of theirs and are listed with line, column and reason; the others land', async () => {
    const long = 'x'.repeat(10_001);
    const file = csv(
      'section_id;oh14;oh29;oh24;xx99',
      '50;OK-1;;;',
      '51;BAD-TIPO;;;something',
      `52;BAD-JSON;;${q('[{"section_tipo":')};`,
      '53;BAD-DATE;1931-02-30;;',
      `54;NO-TARGET;;${q('[{"section_tipo":"rsc197","section_id":"999"}]')};`,
      `55;${long};;;`,
      '56;OK-2;;;',
    );
    const answer = await importFile(root, { content: file, file_name: 'oh1.csv' });
    const report = answer.body.data;
    expect(report.counts).toEqual({ created: 2, updated: 0, unchanged: 0, refused: 5 });
    expect(
      report.refusals.map((r: { line: number; column: number; reason: string }) => [
        r.line,
        r.column,
        r.reason,
      ]),
    ).toEqual([
      [3, 5, 'unknown_tipo'],
      [4, 4, 'format'],
      [5, 3, 'invalid_date'],
      [6, 4, 'locator_target'],
      [7, 2, 'invalid_value'],
    ]);
    expect(report.refusals[3].message).toContain('rsc197 999');
    expect(report.refusals[4].message).toMatch(/10,?000/);
    for (const id of [51, 52, 53, 54, 55]) expect(await record('oh1', id)).toBeUndefined();
    expect(values((await record('oh1', 50))?.string.oh14)).toEqual(['OK-1']);
    expect(values((await record('oh1', 56))?.string.oh14)).toEqual(['OK-2']);
    // The refused rows as a file to fix: the same header plus the reason, the cells as they were.
    const lines = (report.refused_csv as string).split('\n');
    expect(lines[0]).toBe('section_id;oh14;oh29;oh24;xx99;reason');
    expect(lines[1]).toMatch(/^51;BAD-TIPO;;;something;xx99: xx99 is not in the ontology$/);
    expect(lines).toHaveLength(7);
  });

  it('a permission the importer lacks refuses that row only; without save rights on the section, the file', async () => {
    const file = csv(
      'section_id;oh14;oh16',
      `;CAT-1;`,
      `;CAT-2;${q(JSON.stringify({ 'lg-eng': ['A title the cataloguer may not write'] }))}`,
    );
    const answer = await importFile(cataloguer, { content: file, file_name: 'oh1.csv' });
    expect(answer.status).toBe(200);
    const report = answer.body.data;
    expect(report.counts).toMatchObject({ created: 1, refused: 1 });
    expect(report.refusals).toEqual([
      expect.objectContaining({ line: 3, column: 3, header: 'oh16', reason: 'permission' }),
    ]);
    // The created record is in the cataloguer's project, like one made in the editor.
    const mine = await query<{ section_id: number }>(
      `SELECT section_id FROM matrix WHERE section_tipo = 'oh1' AND string->'oh14'->0->>'value' = 'CAT-1'`,
    );
    expect((await record('oh1', Number(mine[0]!.section_id)))?.relation.oh22).toEqual([
      expect.objectContaining({ section_tipo: 'dd153', section_id: 1 }),
    ]);
    expect(await recordCount('oh1')).toBe(
      Number(
        (await query<{ n: string }>(`SELECT count(*)::text AS n FROM matrix WHERE section_tipo = 'oh1'`))[0]!
          .n,
      ),
    );
    // No level 2 on the informants section: the whole file is refused before any row.
    const denied = await importFile(cataloguer, {
      content: csv('section_id;rsc85', ';Someone'),
      section_tipo: 'rsc197',
    });
    expect(denied.status).toBe(403);
  });

  it('all or nothing: one refused row and nothing is written', async () => {
    const before = await recordCount('oh1');
    const file = csv('section_id;oh14;oh29', ';AON-1;', ';AON-2;1931-13-01', ';AON-3;');
    const answer = await importFile(root, { content: file, file_name: 'oh1.csv', all_or_nothing: true });
    expect(answer.body.data).toMatchObject({ written: false, counts: { refused: 1 } });
    expect(await recordCount('oh1')).toBe(before);
    // The same file fixed goes in whole.
    const fixed = file.replace('1931-13-01', '1931-12-01');
    const again = await importFile(root, { content: fixed, file_name: 'oh1.csv', all_or_nothing: true });
    expect(again.body.data).toMatchObject({ written: true, counts: { created: 3, refused: 0 } });
    expect(await recordCount('oh1')).toBe(before + 3);
  });

  it('a dry run reports what the import would do and writes nothing', async () => {
    const beforeRecords = await recordCount('oh1');
    const beforeHistory = await historyCount();
    const imports = (await api(root, 'list_imports', {})).body.data.length;
    const file = csv('section_id;oh14;oh29', ';DRY-1;', '1;OH-001 dry;', '60;DRY-2;1931-02-30');
    const answer = await importFile(root, { content: file, file_name: 'oh1.csv', dry_run: true });
    expect(answer.body.data).toMatchObject({
      import_id: null,
      dry_run: true,
      written: false,
      counts: { created: 1, updated: 1, unchanged: 0, refused: 1 },
    });
    expect(await recordCount('oh1')).toBe(beforeRecords);
    expect(await historyCount()).toBe(beforeHistory);
    expect(values((await record('oh1', 1))?.string.oh14)).toEqual(['OH-001 bis']);
    expect((await api(root, 'list_imports', {})).body.data.length).toBe(imports);
  });

  it('the rights ceiling: an import cannot make a global administrator nor a profile above the importer', async () => {
    const users = csv(
      'section_id;dd132;dd244',
      ';newuser;',
      `;boss;${q('[{"section_tipo":"dd64","section_id":"1"}]')}`,
    );
    const answer = await importFile(accounts, {
      content: users,
      section_tipo: 'dd128',
      file_name: 'users.csv',
    });
    expect(answer.status).toBe(200);
    const report = answer.body.data;
    expect(report.counts).toMatchObject({ created: 1, refused: 1 });
    expect(report.refusals[0]).toMatchObject({ line: 3, header: 'dd244', reason: 'permission' });
    const bosses = await query(`SELECT 1 FROM matrix_users WHERE string->'dd132'->0->>'value' = 'boss'`);
    expect(bosses).toHaveLength(0);
    // A profile granting level 2 on the informants (the importer has none there) is refused;
    // one within the importer's rights goes in.
    const grant = (tipo: string, value: number) => ({
      tipo,
      section_tipo: tipo === 'dd132' ? 'dd128' : tipo,
      value,
    });
    const profiles = csv(
      'section_id;dd774',
      `;${q(JSON.stringify([grant('rsc197', 2)]))}`,
      `;${q(JSON.stringify([grant('oh1', 2)]))}`,
    );
    const second = await importFile(accounts, {
      content: profiles,
      section_tipo: 'dd234',
      file_name: 'profiles.csv',
    });
    expect(second.body.data.counts).toMatchObject({ created: 1, refused: 1 });
    expect(second.body.data.refusals[0]).toMatchObject({ line: 2, reason: 'permission' });
  });

  it('a spreadsheet with a mapping: informants matched by name (accents ignored), ambiguous and missing names refused', async () => {
    const mapping = {
      section_tipo: 'oh1',
      lang: 'lg-spa',
      columns: {
        Código: 'oh14',
        Informantes: { tipo: 'oh24', separator: '|', match: { by: 'key', component: 'rsc85' } },
      },
    };
    const file = csv('Código,Informantes', 'MAP-1,angela', 'MAP-2,Jordi', 'MAP-3,Nobody', 'MAP-4,Àngela | ');
    const answer = await importFile(root, { content: file, mapping, file_name: 'sheet.csv' });
    const report = answer.body.data;
    expect(report.kind).toBe('mapped_csv');
    expect(report.counts).toMatchObject({ created: 2, refused: 2 });
    expect(
      report.refusals.map((r: { line: number; column: number; reason: string }) => [
        r.line,
        r.column,
        r.reason,
      ]),
    ).toEqual([
      [3, 2, 'locator_target'],
      [4, 2, 'locator_target'],
    ]);
    expect(report.refusals[0].message).toContain('ambiguous');
    expect(report.refusals[0].message).toContain('2, 3');
    const linked = await query<{ relation: Record<string, unknown[]> }>(
      `SELECT relation FROM matrix WHERE section_tipo = 'oh1' AND string->'oh14'->0->>'value' IN ('MAP-1', 'MAP-4')`,
    );
    for (const r of linked) {
      expect(r.relation.oh24).toEqual([expect.objectContaining({ section_tipo: 'rsc197', section_id: 1 })]);
    }
  });

  it('Dédalo records (COPY text) into the thesaurus: labels, parents, children, kept items, stamps; again: unchanged', async () => {
    const datos = (d: Record<string, unknown>) => JSON.stringify(d);
    const lines = [
      `1\tts1\t${datos({
        components: {
          hierarchy25: { dato: { 'lg-cat': ['Andorra'], 'lg-spa': ['Andorra'] } },
          hierarchy31: { dato: { 'lg-nolan': [{ lat: 42.5, lon: 1.6 }] } },
        },
        relations: [
          { type: 'dd48', section_id: '2', section_tipo: 'ts1', from_component_tipo: 'hierarchy49' },
        ],
        created_date: '2017-03-01 09:00:00',
        created_by_userID: -1,
      })}`,
      `2\tts1\t${datos({
        components: { hierarchy25: { dato: { 'lg-cat': ['Canillo'] } } },
        relations: [
          { type: 'dd47', section_id: '1', section_tipo: 'ts1', from_component_tipo: 'hierarchy36' },
        ],
      })}`,
      `3\tts1\t${datos({
        components: { hierarchy25: { dato: { 'lg-cat': ['Orphan'] } } },
        relations: [
          { type: 'dd47', section_id: '77', section_tipo: 'ts1', from_component_tipo: 'hierarchy36' },
        ],
      })}`,
    ];
    const file = `${lines.join('\n')}\n`;
    const answer = await importFile(root, { content: file, file_name: 'ts.copy' });
    expect(answer.status).toBe(200);
    const report = answer.body.data;
    expect(report).toMatchObject({ kind: 'matrix_copy', counts: { created: 2, refused: 1 } });
    expect(report.refusals[0]).toMatchObject({ line: 3, reason: 'locator_target' });
    const term = await query<{
      string: Record<string, unknown[]>;
      relation: Record<string, unknown[]>;
      misc: Record<string, unknown[]>;
      created_at: Date;
    }>(
      `SELECT string, relation, misc, created_at FROM matrix_hierarchy WHERE section_tipo = 'ts1' AND section_id = 1`,
    );
    expect(term[0]!.string.hierarchy25).toEqual([
      { id: 1, lang: 'lg-cat', value: 'Andorra' },
      { id: 1, lang: 'lg-spa', value: 'Andorra' },
    ]);
    expect(term[0]!.relation.hierarchy49).toEqual([
      expect.objectContaining({ section_tipo: 'ts1', section_id: 2 }),
    ]);
    expect(term[0]!.misc.hierarchy31).toEqual([{ id: 1, lang: 'lg-nolan', value: { lat: 42.5, lon: 1.6 } }]);
    expect(new Date(term[0]!.created_at).toISOString()).toBe('2017-03-01T09:00:00.000Z');
    expect(report.notes[0]).toMatchObject({ section_id: 1, notes: [expect.stringContaining('hierarchy31')] });
    const child = await query<{ relation: Record<string, unknown[]> }>(
      `SELECT relation FROM matrix_hierarchy WHERE section_tipo = 'ts1' AND section_id = 2`,
    );
    expect(child[0]!.relation.hierarchy36).toEqual([
      expect.objectContaining({ section_tipo: 'ts1', section_id: 1 }),
    ]);
    const before = await historyCount();
    const again = await importFile(root, { content: file, file_name: 'ts.copy' });
    expect(again.body.data.counts).toEqual({ created: 0, updated: 0, unchanged: 2, refused: 1 });
    expect(await historyCount()).toBe(before);
  });

  it('History says which import wrote a value: its id and file; the list of imports says who, when and what', async () => {
    const file = csv('section_id;oh14', '1;OH-001 history');
    const report = (
      await importFile(root, { content: file, file_name: 'history-test.csv', section_tipo: 'oh1' })
    ).body.data;
    const history = await root.post({
      action: 'read',
      source: { tipo: 'oh1', section_tipo: 'oh1', model: 'section', mode: 'tm' },
      sqo: {
        section_tipo: ['oh1'],
        mode: 'tm',
        limit: 10,
        filter_by_locators: [{ section_tipo: 'oh1', section_id: 1 }],
      },
    });
    const newest = history.body.data.data.find(
      (d: { tipo: string; kind?: string }) => d.tipo === 'oh14' && d.kind,
    );
    expect(newest.import).toEqual({ id: report.import_id, undo: false, file_name: 'history-test.csv' });
    const list = (await api(root, 'list_imports', {})).body.data;
    expect(list[0]).toMatchObject({
      id: report.import_id,
      file_name: 'history-test.csv',
      kind: 'dedalo_csv',
      section_tipo: 'oh1',
      user_id: -1,
      username: 'root',
      via: 'api',
      status: 'done',
      counts: { created: 0, updated: 1, unchanged: 0, refused: 0 },
      undone_at: null,
    });
    // The cataloguer sees only their own imports, and not root's report.
    const theirs = (await api(cataloguer, 'list_imports', {})).body.data;
    expect(theirs.every((i: { user_id: number }) => i.user_id === 11)).toBe(true);
    expect((await api(cataloguer, 'get_import', { import_id: report.import_id })).status).toBe(404);
    expect(
      (await api(root, 'get_import', { import_id: report.import_id })).body.data.report.counts.updated,
    ).toBe(1);
  });

  it('undo puts updated records back and removes created ones; a record changed since is named (409) unless forced', async () => {
    await insertRecordValues(work.server.db, ontology, 'oh1', 70, { oh14: [text('UNDO-70')] }, [1]);
    const file = csv('section_id;oh14;oh29', '70;UNDO-70 changed;1950', ';UNDO-NEW;', '71;UNDO-71;');
    const report = (await importFile(root, { content: file, file_name: 'oh1.csv' })).body.data;
    expect(report.counts).toMatchObject({ created: 2, updated: 1 });
    const createdId = Number(
      (
        await query<{ section_id: number }>(
          `SELECT section_id FROM matrix WHERE section_tipo = 'oh1' AND string->'oh14'->0->>'value' = 'UNDO-NEW'`,
        )
      )[0]!.section_id,
    );
    // Someone saves record 71 after the import.
    const save = await cataloguer.post({
      action: 'save',
      source: { section_tipo: 'oh1', section_id: 71, tipo: 'oh14' },
      data: { changed_data: [{ action: 'set_data', value: ['UNDO-71 edited'] }] },
    });
    expect(save.status).toBe(200);
    const refused = await api(root, 'undo_import', { import_id: report.import_id });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('import.undo_conflict');
    expect(refused.body.error.message).toContain('oh1 71');
    expect(refused.body.error.message).toContain('cataloguer');
    expect(refused.body.error.details.records).toEqual([
      expect.objectContaining({
        section_tipo: 'oh1',
        section_id: 71,
        why: 'changed',
        tipo: 'oh14',
        username: 'cataloguer',
      }),
    ]);
    expect(values((await record('oh1', 70))?.string.oh14)).toEqual(['UNDO-70 changed']);
    // The importer who is not an administrator may not undo someone else's import.
    expect((await api(cataloguer, 'undo_import', { import_id: report.import_id })).status).toBe(404);
    const forced = await api(root, 'undo_import', { import_id: report.import_id, force: true });
    expect(forced.status).toBe(200);
    expect(forced.body.data).toMatchObject({ restored: 1, removed: 2 });
    const back = await record('oh1', 70);
    expect(values(back?.string.oh14)).toEqual(['UNDO-70']);
    expect(back?.date.oh29).toBeUndefined();
    expect(await record('oh1', createdId)).toBeUndefined();
    expect(await record('oh1', 71)).toBeUndefined();
    // The removed record's history says so: a snapshot row marked as the undo of the import.
    const snapshot = await query<{ kind: string; undo_of_import: string }>(
      `SELECT kind, undo_of_import::text FROM matrix_time_machine WHERE section_tipo = 'oh1' AND section_id = $1 ORDER BY id DESC LIMIT 1`,
      [createdId],
    );
    expect(snapshot[0]).toEqual({ kind: 'snapshot', undo_of_import: String(report.import_id) });
    const again = await api(root, 'undo_import', { import_id: report.import_id });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('undone already');
    expect(
      (await api(root, 'get_import', { import_id: report.import_id })).body.data.undone_at,
    ).not.toBeNull();
  });

  it('the importer (not an administrator) may undo their own import', async () => {
    const file = csv('section_id;oh14', ';SELF-UNDO');
    const report = (await importFile(cataloguer, { content: file, file_name: 'oh1.csv' })).body.data;
    expect(report.counts.created).toBe(1);
    const undo = await api(cataloguer, 'undo_import', { import_id: report.import_id });
    expect(undo.status).toBe(200);
    expect(undo.body.data.removed).toBe(1);
  });

  it('a file that cannot be imported (a mapping that is not JSON, no section) is a 400, and nothing is registered', async () => {
    const imports = (await api(root, 'list_imports', {})).body.data.length;
    const bad = await importFile(root, {
      content: 'section_id;oh14\n;caf\u00e9\n',
      section_tipo: 'oh1',
      mapping: '{',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('import.invalid_file');
    const noSection = await importFile(root, { content: 'section_id;oh14\n;x\n', file_name: 'data.csv' });
    expect(noSection.status).toBe(400);
    expect(noSection.body.error.message).toContain('name the section');
    expect((await api(root, 'list_imports', {})).body.data.length).toBe(imports);
  });

  it('hostile files: broken quoting and a header of a million columns are refused whole, with the line; formula cells are text', async () => {
    const before = await recordCount('oh1');
    const quoting = await importFile(root, {
      content: csv('section_id;oh14', ';"fine"', ';"never closed', ';after'),
      section_tipo: 'oh1',
    });
    expect(quoting.status).toBe(400);
    expect(quoting.body.error).toMatchObject({ code: 'import.invalid_file', details: { kind: 'syntax' } });
    expect(quoting.body.error.message).toMatch(/^line \d+: the CSV is malformed/);
    const wide = await importFile(root, {
      content: `${'a;'.repeat(1_000_000)}
;x
`,
      section_tipo: 'oh1',
    });
    expect(wide.status).toBe(400);
    expect(wide.body.error).toMatchObject({
      code: 'import.invalid_file',
      details: { kind: 'limit', line: 1 },
    });
    // The broken file's first row was in the same batch as the failure: nothing of it is kept.
    expect(await recordCount('oh1')).toBe(before);
    const formulas = await importFile(root, {
      content: csv('section_id;oh14', `;${q('=HYPERLINK("http://x")')}`, ';+1+2', ';@SUM(A1)'),
      section_tipo: 'oh1',
    });
    expect(formulas.body.error).toBeUndefined();
    expect(formulas.body.data.counts.created).toBe(3);
    const stored = await query<{ v: string }>(
      `SELECT string->'oh14'->0->>'value' AS v FROM matrix WHERE section_tipo = 'oh1' AND section_id > $1 ORDER BY section_id`,
      [0],
    );
    expect(stored.map((r) => r.v)).toEqual(
      expect.arrayContaining(['=HYPERLINK("http://x")', '+1+2', '@SUM(A1)']),
    );
  });

  it('a component another user is editing (their live lock) is not written: that row is refused', async () => {
    const lock = (action: string) =>
      cataloguer.post({
        dd_api: 'dd_utils_api',
        action: 'update_lock_components_state',
        prevent_lock: true,
        options: { section_tipo: 'oh1', section_id: 1, component_tipo: 'oh14', action },
      });
    expect((await lock('focus')).status).toBe(200);
    try {
      const file = csv('section_id;oh14', '1;LOCKED', ';FREE');
      const report = (await importFile(root, { content: file, file_name: 'oh1.csv' })).body.data;
      expect(report.counts).toMatchObject({ created: 1, refused: 1 });
      expect(report.refusals[0]).toMatchObject({ line: 2, column: 2, reason: 'conflict' });
      expect(values((await record('oh1', 1))?.string.oh14)).not.toEqual(['LOCKED']);
      expect(report.refusals[0].message).toContain('cataloguer');
    } finally {
      await lock('blur');
    }
  });

  it('a file staged with the multipart upload (any size) is imported by reference', async () => {
    const form = new FormData();
    form.append('key_dir', 'document');
    form.append('file_name', 'staged-oh1.csv');
    form.append(
      'file_to_upload',
      new Blob([csv('section_id;oh14', ';STAGED-1', ';STAGED-2')]),
      'staged-oh1.csv',
    );
    const res = await fetch(work.server.url, {
      method: 'POST',
      headers: {
        cookie: [...root.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-dedalo-csrf-token': root.csrfToken!,
      },
      body: form,
    });
    expect(res.status).toBe(200);
    const answer = await importFile(root, {
      upload: { key_dir: 'document', file_name: 'staged-oh1.csv' },
      section_tipo: 'oh1',
    });
    expect(answer.body.data).toMatchObject({ file_name: 'staged-oh1.csv', counts: { created: 2 } });
    // Another user's staging area is not theirs to name.
    const missing = await importFile(cataloguer, {
      upload: { key_dir: 'document', file_name: 'staged-oh1.csv' },
    });
    expect(missing.status).toBe(404);
    const both = await importFile(root, {
      content: 'x',
      upload: { key_dir: 'document', file_name: 'a.csv' },
    });
    expect(both.status).toBe(400);
  });
});
