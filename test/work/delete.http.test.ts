import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { type MatrixRow, readRecord } from '../../src/work/store/record-rows.js';
import type { SqlClient, SqlQueryable } from '../../src/work/store/sql-client.js';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  insertLevelUsers,
  insertLoginUser,
  insertProfile,
  LEVEL_USERNAMES,
} from '../helpers/work-permissions.js';
import { date, insertRecordValues, locator, text } from '../helpers/work-records.js';
import {
  browsersOf,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();

const del = (
  sectionTipo: unknown,
  sectionId: unknown,
  mode?: string,
  extra: Record<string, unknown> = {},
) => ({
  action: 'delete',
  source: { section_tipo: sectionTipo, section_id: sectionId, ...(mode ? { delete_mode: mode } : {}) },
  ...extra,
});

const bySqo = (sectionTipo: string, sqo: unknown, mode = 'delete_record') => ({
  action: 'delete',
  source: { section_tipo: sectionTipo, delete_mode: mode },
  sqo,
});

const PASSWORD = 'delete test password';

/** Statements matching this fail inside transactions (set by a test, then cleared). */
let failWhen: ((sql: string) => boolean) | undefined;

/** The server's client, with a failure a test can inject into any transaction's statements. */
function failingDb(db: SqlClient): SqlClient {
  const guarded = (tx: SqlQueryable): SqlQueryable => ({
    query: (sql, params) => {
      if (failWhen?.(sql)) return Promise.reject(new Error('injected failure: the connection dropped'));
      return tx.query(sql, params);
    },
  });
  return {
    engine: db.engine,
    query: (sql, params) => db.query(sql, params),
    transaction: (fn) => db.transaction((tx) => fn(guarded(tx))),
    close: () => db.close(),
  };
}

const key = (section_tipo: string, section_id: number) => ({ section_tipo, section_id });

describe.each(workEngineCases())('delete ($engine)', (engine) => {
  let work: WorkServerHandle;
  let db: SqlClient;
  const as: Record<string, WorkBrowser> = {};

  const row = (sectionTipo: string, id: number): Promise<MatrixRow | undefined> =>
    readRecord(db, ontology.tableOf(sectionTipo)!, key(sectionTipo, id));

  const history = async (sectionTipo: string, id: number) =>
    (
      await db.query<{
        kind: string;
        tipo: string | null;
        lang: string | null;
        data: unknown;
        user_id: number;
      }>(
        `SELECT kind, tipo, lang, data, user_id FROM matrix_time_machine
         WHERE section_tipo = $1 AND section_id = $2 ORDER BY id`,
        [sectionTipo, id],
      )
    ).rows;

  const activityFor = async (where: string, id: number) =>
    (
      await db.query<{ misc: { dd551: { value: Record<string, unknown> }[] } }>(
        `SELECT misc FROM matrix_activity
         WHERE string -> 'dd545' -> 0 ->> 'value' = 'delete' AND string -> 'dd546' -> 0 ->> 'value' = $1
           AND misc -> 'dd551' -> 0 -> 'value' ->> 'section_id' = $2`,
        [where, String(id)],
      )
    ).rows.map((r) => r.misc.dd551[0]!.value);

  const interview = (id: number, values: Record<string, unknown[]>, projects: number[] = [1]) =>
    insertRecordValues(db, ontology, 'oh1', id, values, projects);

  beforeAll(async () => {
    work = await startTestWorkServer(engine, {}, { wrapDb: failingDb });
    db = work.server.db;
    await insertLevelUsers(db, PASSWORD, (level) => [
      ...accessItemsUnder(ontology, 'oh1', level),
      ...accessItemsUnder(ontology, 'rsc197', level),
    ]);
    Object.assign(as, await browsersOf(work, LEVEL_USERNAMES, PASSWORD));
  }, 180_000);
  afterAll(async () => {
    await work?.stop();
  });

  it('delete_data (the default) keeps the row and empties every component but the project filter', async () => {
    await interview(2300, {
      oh14: [text('KEEP-ME-NOT', 'lg-nolan', 2)],
      oh16: [text('Title', 'lg-eng', 4), text('Título', 'lg-spa', 4)],
      oh24: [locator('oh24', 'rsc197', 1)],
      oh29: [date(1950)],
    });
    const answer = await as.level2!.post(del('oh1', 2300));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual([2300]);
    expect(answer.body.notices).toBeUndefined();
    const after = (await row('oh1', 2300))!;
    expect(after.string).toEqual({});
    expect(after.date).toEqual({});
    expect(after.relation).toEqual({ oh22: [locator('oh22', 'dd153', 1, 'dd675')] });
    // Item counters stay: ids of the emptied components are never handed out again.
    expect(after.meta).toMatchObject({ oh14: 2, oh16: 4 });
    expect(after.modified_by).toBe(12);
    // A snapshot holds every value; each emptied component (per language) has its history row.
    const rows = await history('oh1', 2300);
    const snapshot = rows.find((r) => r.kind === 'snapshot');
    expect(JSON.stringify(snapshot?.data)).toContain('KEEP-ME-NOT');
    expect(
      rows
        .filter((r) => r.kind === 'component')
        .map((r) => `${r.tipo}/${r.lang}`)
        .sort(),
    ).toEqual(['oh14/lg-nolan', 'oh16/lg-eng', 'oh16/lg-spa', 'oh24/lg-nolan', 'oh29/lg-nolan']);
    expect(await activityFor('oh1', 2300)).toEqual([{ section_id: 2300, delete_mode: 'delete_data' }]);
    // The emptied record is still in the caller's projects: it can be filled again.
    const read = await as.level2!.post({
      action: 'read',
      source: { section_tipo: 'oh1', tipo: 'oh1', section_id: 2300, mode: 'edit' },
    });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
  });

  it('delete_record: snapshot first, inbound locators removed from other records, row removed', async () => {
    await insertRecordValues(db, ontology, 'rsc197', 2000, { rsc85: [text('Alicia', 'lg-spa')] });
    await insertRecordValues(db, ontology, 'rsc197', 2001, { rsc85: [text('Benito', 'lg-spa')] });
    await interview(2000, {
      oh14: [text('OH-2000')],
      oh24: [
        { ...locator('oh24', 'rsc197', 2000), id: 1 },
        { ...locator('oh24', 'rsc197', 2001), id: 2 },
      ],
    });
    // Imported data may hold the id as a string.
    await interview(2001, { oh24: [{ ...locator('oh24', 'rsc197', '2000'), id: 1 }] });

    const answer = await as.root!.post(del('rsc197', 2000, 'delete_record'));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual([2000]);
    expect(await row('rsc197', 2000)).toBeUndefined();
    expect(await row('rsc197', 2001)).toBeDefined();

    const oh2000 = (await row('oh1', 2000))!;
    expect(oh2000.relation.oh24).toEqual([{ ...locator('oh24', 'rsc197', 2001), id: 2 }]);
    expect(oh2000.string.oh14).toEqual([text('OH-2000')]);
    expect(oh2000.meta.oh24).toBe(2);
    expect((await row('oh1', 2001))!.relation.oh24).toBeUndefined();
    // Each rewritten component has its history row (the value written).
    expect((await history('oh1', 2000)).map((r) => [r.kind, r.tipo, r.data])).toEqual([
      ['component', 'oh24', [{ ...locator('oh24', 'rsc197', 2001), id: 2 }]],
    ]);
    expect((await history('oh1', 2001)).map((r) => [r.kind, r.tipo, r.data])).toEqual([
      ['component', 'oh24', []],
    ]);

    const snapshot = await history('rsc197', 2000);
    expect(snapshot).toHaveLength(1);
    expect(snapshot[0]).toMatchObject({ kind: 'snapshot', tipo: null, user_id: -1 });
    expect((snapshot[0]!.data as { string: unknown }).string).toEqual({ rsc85: [text('Alicia', 'lg-spa')] });
    expect(await activityFor('rsc197', 2000)).toEqual([{ section_id: 2000, delete_mode: 'delete_record' }]);

    // A second delete of the same id: it is gone.
    const again = await as.root!.post(del('rsc197', 2000, 'delete_record'));
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('resource.not_found');
  });

  it("the snapshot taken before delete_record is readable through read's history mode", async () => {
    await insertRecordValues(db, ontology, 'rsc197', 2050, { rsc85: [text('Carmela', 'lg-spa')] });
    expect((await as.root!.post(del('rsc197', 2050, 'delete_record'))).status).toBe(200);
    const answer = await as.root!.post({
      action: 'read',
      source: { section_tipo: 'rsc197', tipo: 'rsc197', section_id: 2050, mode: 'tm' },
      sqo: {
        section_tipo: ['rsc197'],
        mode: 'tm',
        filter_by_locators: [{ section_tipo: 'rsc197', section_id: 2050 }],
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(JSON.stringify(answer.body.data)).toContain('Carmela');
  });

  it('records with children are skipped under delete_record and listed in one notice; the call succeeds', async () => {
    // ts1/1 is the parent of ts1/2 and ts1/3; ts1/4 has no children.
    await insertRecordValues(db, ontology, 'ts1', 1, {
      hierarchy25: [text('Parent', 'lg-eng')],
      hierarchy49: [locator('hierarchy49', 'ts1', 2, 'dd48'), locator('hierarchy49', 'ts1', 3, 'dd48')],
    });
    await insertRecordValues(db, ontology, 'ts1', 5, {
      hierarchy49: [locator('hierarchy49', 'ts1', 6, 'dd48')],
    });
    for (const child of [2, 3]) {
      await insertRecordValues(db, ontology, 'ts1', child, {
        hierarchy36: [locator('hierarchy36', 'ts1', 1, 'dd47')],
      });
    }
    await insertRecordValues(db, ontology, 'ts1', 4, { hierarchy25: [text('Leaf', 'lg-eng')] });

    const answer = await as.admin!.post(
      bySqo('ts1', {
        section_tipo: ['ts1'],
        filter_by_locators: [1, 4, 5].map((id) => ({ section_tipo: 'ts1', section_id: id })),
      }),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual([4]);
    expect(answer.body.notices).toEqual([
      {
        code: 'record.delete_children_refused',
        message: 'Records with children were not deleted',
        label_key: 'error_record_delete_children_refused',
        retryable: false,
        details: { not_deleted: '1,5' },
      },
    ]);
    expect(await row('ts1', 1)).toBeDefined();
    expect(await row('ts1', 4)).toBeUndefined();
    expect(await history('ts1', 1)).toEqual([]);

    // By id, the same refusal is a notice too.
    const single = await as.root!.post(del('ts1', 1, 'delete_record'));
    expect(single.status).toBe(200);
    expect(single.body.data).toEqual([]);
    expect(single.body.notices[0].details).toEqual({ not_deleted: '1' });

    // Deleting the children removes them from the parent's children (in matrix_hierarchy)...
    for (const child of [2, 3]) {
      expect((await as.root!.post(del('ts1', child, 'delete_record'))).body.data).toEqual([child]);
    }
    expect((await row('ts1', 1))!.relation.hierarchy49).toBeUndefined();
    // ...and then the parent goes. delete_data is not refused for children: the row stays.
    expect((await as.root!.post(del('ts1', 5))).body.data).toEqual([5]);
    expect((await as.root!.post(del('ts1', 1, 'delete_record'))).body.data).toEqual([1]);
    expect(await row('ts1', 1)).toBeUndefined();
  });

  it('delete_data of a thesaurus term also takes it out of its parent and its children', async () => {
    await insertRecordValues(db, ontology, 'ts1', 50, {
      hierarchy49: [
        { ...locator('hierarchy49', 'ts1', 51, 'dd48'), id: 1 },
        { ...locator('hierarchy49', 'ts1', 53, 'dd48'), id: 2 },
      ],
    });
    await insertRecordValues(db, ontology, 'ts1', 51, {
      hierarchy36: [{ ...locator('hierarchy36', 'ts1', 50, 'dd47'), id: 1 }],
      hierarchy49: [{ ...locator('hierarchy49', 'ts1', 52, 'dd48'), id: 1 }],
    });
    await insertRecordValues(db, ontology, 'ts1', 52, {
      hierarchy36: [{ ...locator('hierarchy36', 'ts1', 51, 'dd47'), id: 1 }],
    });
    const answer = await as.root!.post(del('ts1', 51, 'delete_data'));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual([51]);
    expect((await row('ts1', 51))!.relation).toEqual({});
    expect((await row('ts1', 50))!.relation.hierarchy49).toEqual([
      { ...locator('hierarchy49', 'ts1', 53, 'dd48'), id: 2 },
    ]);
    expect((await row('ts1', 52))!.relation.hierarchy36).toBeUndefined();
    expect((await history('ts1', 50)).map((r) => [r.tipo, r.data])).toEqual([
      ['hierarchy49', [{ ...locator('hierarchy49', 'ts1', 53, 'dd48'), id: 2 }]],
    ]);
  });

  it('levels: 0 and 1 are refused with 403 perm.denied; 2, 3 and a global admin delete', async () => {
    await interview(2400, { oh14: [text('LEVELS')] });
    for (const name of ['level0', 'level1']) {
      for (const mode of ['delete_data', 'delete_record']) {
        const answer = await as[name]!.post(del('oh1', 2400, mode));
        expect(answer.status, `${name} ${mode}`).toBe(403);
        expect(answer.body.error.code).toBe('perm.denied');
      }
    }
    expect((await row('oh1', 2400))!.string.oh14).toEqual([text('LEVELS')]);
    let id = 2401;
    for (const name of ['level2', 'level3', 'admin']) {
      await interview(id, { oh14: [text(name)] });
      const answer = await as[name]!.post(del('oh1', id, 'delete_record'));
      expect(answer.status, `${name} ${JSON.stringify(answer.body)}`).toBe(200);
      expect(answer.body.data).toEqual([id]);
      expect(await row('oh1', id)).toBeUndefined();
      id += 1;
    }
  });

  it('a non-admin cannot delete a record outside their projects (403 perm.out_of_scope); a global admin can', async () => {
    await interview(2100, { oh14: [text('OTHER PROJECT')] }, [2]);
    for (const name of ['level2', 'level3']) {
      for (const body of [
        del('oh1', 2100, 'delete_record'),
        bySqo('oh1', {
          section_tipo: ['oh1'],
          filter_by_locators: [{ section_tipo: 'oh1', section_id: 2100 }],
        }),
      ]) {
        const answer = await as[name]!.post(body);
        expect(answer.status, name).toBe(403);
        expect(answer.body.error).toMatchObject({ code: 'perm.out_of_scope', category: 'permission' });
      }
    }
    expect((await row('oh1', 2100))!.string.oh14).toEqual([text('OTHER PROJECT')]);
    const admin = await as.admin!.post(del('oh1', 2100, 'delete_record'));
    expect(admin.status).toBe(200);
    expect(await row('oh1', 2100)).toBeUndefined();
  });

  it('bulk delete by sqo: a global admin deletes every match; a non-admin is refused and nothing goes', async () => {
    const ids = [2200, 2201, 2202, 2203, 2204];
    for (const id of ids) await interview(id, { oh14: [text(`BULK-${id}`)] });
    await interview(2210, { oh14: [text('NOT-IN-BULK')] });
    const sqo = {
      section_tipo: ['oh1'],
      filter: {
        $and: [{ q: 'BULK-', q_operator: null, path: [{ section_tipo: 'oh1', component_tipo: 'oh14' }] }],
      },
    };
    for (const name of ['level2', 'level3']) {
      const refused = await as[name]!.post(bySqo('oh1', sqo));
      expect(refused.status, name).toBe(403);
      expect(refused.body.error.code).toBe('perm.global_admin_required');
    }
    for (const id of ids) expect(await row('oh1', id)).toBeDefined();

    const answer = await as.admin!.post(bySqo('oh1', sqo));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect([...answer.body.data].sort()).toEqual(ids);
    for (const id of ids) expect(await row('oh1', id)).toBeUndefined();
    expect(await row('oh1', 2210)).toBeDefined();

    // An sqo selecting one record is not a bulk delete: a non-admin may use it in scope.
    const one = await as.level2!.post(
      bySqo('oh1', {
        section_tipo: ['oh1'],
        filter_by_locators: [{ section_tipo: 'oh1', section_id: 2210 }],
      }),
    );
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.data).toEqual([2210]);
    // Nothing matches: nothing deleted, no error.
    const none = await as.admin!.post(bySqo('oh1', sqo));
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
  });

  it('the sqo is limited to the gated section: another or an extra section is a 400', async () => {
    for (const sections of [['rsc197'], ['oh1', 'rsc197']]) {
      const answer = await as.admin!.post(bySqo('oh1', { section_tipo: sections }));
      expect(answer.status, JSON.stringify(sections)).toBe(400);
      expect(answer.body.error.code).toBe('search.invalid_sqo');
      expect(answer.body.error.message).toContain('sqo.section_tipo');
    }
    const tm = await as.admin!.post(bySqo('oh1', { section_tipo: ['oh1'], mode: 'tm' }));
    expect(tm.status).toBe(400);
  });

  it('the stock client bodies (steps 19 and 20): section_id and an sqo, the id wins', async () => {
    await interview(2500, { oh14: [text('STOCK')] });
    await interview(2501, { oh14: [text('STOCK-OTHER')] });
    const stock = (mode: string) => ({
      action: 'delete',
      source: {
        typo: 'source',
        type: 'section',
        action: 'delete',
        model: 'section',
        tipo: 'oh1',
        section_tipo: 'oh1',
        section_id: 2500,
        mode: 'edit',
        view: null,
        lang: 'lg-eng',
        delete_mode: mode,
      },
      // A stale sqo naming another record: section_id decides.
      sqo: {
        section_tipo: ['oh1'],
        filter_by_locators: [{ section_tipo: 'oh1', section_id: 2501 }],
        limit: 1,
        offset: 0,
      },
      options: { delete_diffusion_records: true },
    });
    const data = await as.level2!.post(stock('delete_data'));
    expect(data.status, JSON.stringify(data.body)).toBe(200);
    expect(data.body.data).toEqual([2500]);
    expect(data.body.data.length > 0).toBe(true);
    expect((await row('oh1', 2500))!.string).toEqual({});
    const record = await as.level2!.post(stock('delete_record'));
    expect(record.body.data).toEqual([2500]);
    expect(await row('oh1', 2500)).toBeUndefined();
    expect(await row('oh1', 2501)).toBeDefined();
  });

  it('source.tipo is accepted when section_tipo is absent', async () => {
    await interview(2600, { oh14: [text('BY TIPO')] });
    const answer = await as.level2!.post({ action: 'delete', source: { tipo: 'oh1', section_id: 2600 } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual([2600]);
  });

  it('a missing record is 404 resource.not_found; dd542 is 403 perm.section_not_writable', async () => {
    for (const name of ['root', 'level2']) {
      const answer = await as[name]!.post(del('oh1', 98_765, 'delete_record'));
      expect(answer.status, name).toBe(404);
      expect(answer.body.error.code).toBe('resource.not_found');
      expect(answer.body.error.message).toContain('98765');
    }
    expect((await as.level0!.post(del('oh1', 98_765))).status).toBe(403);
    const activityRows = Number(
      (await db.query<{ n: string }>('SELECT count(*)::text AS n FROM matrix_activity')).rows[0]!.n,
    );
    for (const mode of ['delete_data', 'delete_record']) {
      const answer = await as.root!.post(del('dd542', 1, mode));
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('perm.section_not_writable');
    }
    const bulk = await as.root!.post(bySqo('dd542', { section_tipo: ['dd542'] }));
    expect(bulk.body.error.code).toBe('perm.section_not_writable');
    expect(
      Number((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM matrix_activity')).rows[0]!.n),
    ).toBe(activityRows);
  });

  it('wrong fields are 400 naming the field', async () => {
    for (const [body, code, field] of [
      [{ action: 'delete' }, 'rqo.invalid_field', 'source.section_tipo'],
      [{ action: 'delete', source: { section_tipo: 'oh1' } }, 'rqo.invalid_field', 'source.section_id'],
      [del('oh1', 'abc'), 'rqo.invalid_field', 'source.section_id'],
      [del('oh1', 2.5), 'rqo.invalid_field', 'source.section_id'],
      [del('oh1', 2 ** 31), 'rqo.invalid_field', 'source.section_id'],
      [del('oh1', 0), 'rqo.invalid_field', 'source.section_id'],
      [del('dd128', -1, 'delete_record'), 'rqo.invalid_field', 'source.section_id'],
      [del('oh1', 1, 'purge'), 'rqo.invalid_field', 'source.delete_mode'],
      [
        del('oh1', 1, undefined, { source: { section_tipo: 'oh1', section_id: 1, delete_mode: 3 } }),
        'rqo.invalid_field',
        'source.delete_mode',
      ],
      [del(['oh1'], 1), 'rqo.invalid_field', 'source.section_tipo'],
      [del('oh14', 1), 'rqo.invalid_field', 'source.section_tipo'],
      [{ action: 'delete', source: { section_tipo: 'oh1' }, sqo: 'all' }, 'rqo.invalid_field', 'sqo'],
      [bySqo('oh1', { section_tipo: ['oh1'], limit: 5000 }), 'search.invalid_sqo', 'sqo.limit'],
      [bySqo('oh1', { section_tipo: ['oh1'], filter: 7 }), 'search.invalid_sqo', 'sqo.filter'],
    ] as const) {
      const answer = await as.root!.post(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code, JSON.stringify(body)).toBe(code);
      expect(answer.body.error.message, JSON.stringify(body)).toContain(field);
    }
    expect(await row('dd128', -1)).toBeDefined();
  });

  it("deleting a user or a profile changes that user's access at once", async () => {
    await insertProfile(db, 30, accessItemsUnder(ontology, 'oh1', 2));
    await insertLoginUser(db, 31, { username: 'doomed', password: PASSWORD, profile: 30, projects: [1] });
    await insertLoginUser(db, 32, { username: 'orphan', password: PASSWORD, profile: 30, projects: [1] });
    const doomed = work.browser();
    const orphan = work.browser();
    expect((await doomed.login('doomed', PASSWORD)).status).toBe(200);
    expect((await orphan.login('orphan', PASSWORD)).status).toBe(200);
    const createOh1 = { action: 'create', source: { section_tipo: 'oh1' } };
    expect((await doomed.post(createOh1)).status).toBe(200);
    expect((await orphan.post(createOh1)).status).toBe(200);

    expect((await as.root!.post(del('dd128', 31, 'delete_record'))).body.data).toEqual([31]);
    expect((await doomed.post(createOh1)).status).toBe(403);
    expect((await orphan.post(createOh1)).status).toBe(200);

    // The profile goes, and with it the locators of its users (dd1725).
    expect((await as.root!.post(del('dd234', 30, 'delete_record'))).body.data).toEqual([30]);
    expect((await row('dd128', 32))!.relation.dd1725).toBeUndefined();
    const refused = await orphan.post(createOh1);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('perm.denied');
  });

  // Late in the file: it may delete or empty whatever the earlier tests left.
  it('no source or sqo, however odd, gives a 5xx', async () => {
    await interview(2900, { oh14: [text('FUZZ')] });
    const tipo = fc.constantFrom('oh1', 'rsc197', 'ts1', 'dd128', 'dd542', 'oh14', 'zz1', '', 'constructor');
    const id = fc.oneof(
      fc.integer({ min: -3, max: 3000 }),
      fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1e20, 0.5, '12', '007', 'abc', null, true, [], {}),
    );
    const sqo = fc.oneof(
      fc.constant(undefined),
      fc.anything({ maxDepth: 3 }),
      fc.record(
        {
          section_tipo: fc.oneof(tipo, fc.array(tipo, { maxLength: 3 })),
          filter_by_locators: fc.array(fc.record({ section_tipo: tipo, section_id: id }), { maxLength: 3 }),
          limit: fc.oneof(fc.integer({ min: -1, max: 2000 }), fc.constant('10')),
          mode: fc.constantFrom('search', 'tm', 'related', 'edit', 'nope'),
          filter: fc.anything({ maxDepth: 3 }),
        },
        { requiredKeys: [] },
      ),
    );
    const source = fc.record(
      {
        section_tipo: fc.oneof(tipo, fc.anything({ maxDepth: 1 })),
        tipo,
        section_id: id,
        delete_mode: fc.oneof(
          fc.constantFrom('delete_data', 'delete_record', 'purge'),
          fc.anything({ maxDepth: 1 }),
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(source, sqo, fc.constantFrom('admin', 'level2'), async (src, q, who) => {
        const answer = await as[who]!.post({
          action: 'delete',
          source: src,
          ...(q === undefined ? {} : { sqo: q }),
        });
        expect(answer.status, JSON.stringify({ src, q, body: answer.body })).toBeLessThan(500);
        expect(typeof answer.body.ok).toBe('boolean');
      }),
      { numRuns: 80 },
    );
  });

  it('a failure inside the delete transaction leaves everything as it was', async () => {
    await insertRecordValues(db, ontology, 'rsc197', 2700, { rsc85: [text('Dolores', 'lg-spa')] });
    await interview(2700, { oh24: [locator('oh24', 'rsc197', 2700)] });
    const tables = ['matrix', 'matrix_time_machine', 'matrix_activity'];
    const counts = async () =>
      Promise.all(
        tables.map(async (t) =>
          Number((await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${t}`)).rows[0]!.n),
        ),
      );
    const before = await counts();
    const cases: [string, (sql: string) => boolean, unknown][] = [
      // After the snapshot and the rewrite of oh1/2700's oh24: the row removal fails.
      ['delete_record', (sql) => sql.startsWith('DELETE FROM matrix '), del('rsc197', 2700, 'delete_record')],
      // After the record is emptied: the activity row fails.
      ['delete_data', (sql) => sql.includes('INTO matrix_activity'), del('rsc197', 2700)],
    ];
    for (const [label, when, body] of cases) {
      failWhen = when;
      let answer: Awaited<ReturnType<WorkBrowser['post']>>;
      try {
        answer = await as.root!.post(body);
      } finally {
        failWhen = undefined;
      }
      expect(answer.status, label).toBe(500);
      expect(answer.body.error.code).toBe('internal.unexpected');
      expect((await row('rsc197', 2700))!.string.rsc85, label).toEqual([text('Dolores', 'lg-spa')]);
      expect((await row('oh1', 2700))!.relation.oh24, label).toEqual([locator('oh24', 'rsc197', 2700)]);
      expect(await history('rsc197', 2700), label).toEqual([]);
      expect(await history('oh1', 2700), label).toEqual([]);
      expect(await counts(), label).toEqual(before);
    }
    // Without the failure the same call goes through.
    expect((await as.root!.post(del('rsc197', 2700, 'delete_record'))).body.data).toEqual([2700]);
  });
});
