import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { recordComponentHistory } from '../../src/work/store/history.js';
import { readRecord } from '../../src/work/store/record-rows.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLevelUsers, LEVEL_USERNAMES } from '../helpers/work-permissions.js';
import { date, insertRecordValues, locator, text } from '../helpers/work-records.js';
import {
  browsersOf,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();

const duplicate = (sectionTipo: unknown, sectionId: unknown) => ({
  action: 'duplicate',
  source: { section_tipo: sectionTipo, section_id: sectionId },
});

const PASSWORD = 'duplicate test password';

/** An interview of project 1 with a value in every kind of column, item ids above 1. */
const SOURCE_ID = 1000;
/** An interview of project 2 only: outside every level user's projects. */
const OTHER_PROJECT_ID = 1001;
const PERSON_ID = 1000;

const SOURCE_VALUES = {
  oh14: [text('OH-0001', 'lg-nolan', 3)],
  oh16: [text('Title', 'lg-eng', 5), text('Título', 'lg-spa', 5), text('Second', 'lg-eng', 7)],
  oh24: [{ ...locator('oh24', 'rsc197', PERSON_ID), id: 2 }],
  oh29: [date(1936, 7, 18, 4)],
};

describe.each(workEngineCases())('duplicate ($engine)', (engine) => {
  let work: WorkServerHandle;
  const as: Record<string, WorkBrowser> = {};
  const key = (section_tipo: string, section_id: number) => ({ section_tipo, section_id });

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    await insertLevelUsers(db, PASSWORD, (level) => accessItemsUnder(ontology, 'oh1', level));
    await insertRecordValues(db, ontology, 'rsc197', PERSON_ID, { rsc85: [text('Alicia', 'lg-spa')] });
    await insertRecordValues(db, ontology, 'oh1', SOURCE_ID, SOURCE_VALUES, [1]);
    await insertRecordValues(db, ontology, 'oh1', OTHER_PROJECT_ID, { oh14: [text('OTHER')] }, [2]);
    // A history row of the source: a duplicate does not copy history.
    await recordComponentHistory(db, {
      key: key('oh1', SOURCE_ID),
      tipo: 'oh14',
      lang: 'lg-nolan',
      items: SOURCE_VALUES.oh14,
      userId: -1,
      when: new Date(),
    });
    Object.assign(as, await browsersOf(work, LEVEL_USERNAMES, PASSWORD));
  }, 180_000);
  afterAll(async () => {
    await work?.stop();
  });

  const historyCount = async (sectionTipo: string, sectionId: number) => {
    const { rows } = await work.server.db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM matrix_time_machine WHERE section_tipo = $1 AND section_id = $2',
      [sectionTipo, sectionId],
    );
    return Number(rows[0]!.n);
  };

  it('copies every component but the unique code (oh14) with its item ids and counters under a new id from the counter', async () => {
    const answer = await as.root!.post(duplicate('oh1', SOURCE_ID));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const newId = answer.body.data;
    expect(Number.isInteger(newId)).toBe(true);
    // The fixtures were inserted by hand, so oh1 had no counter row: the first id handed out
    // follows the highest stored one (store/counters.ts), never an id that exists.
    const { rows } = await work.server.db.query<{ max: number }>(
      "SELECT max(section_id) AS max FROM matrix WHERE section_tipo = 'oh1' AND section_id <> $1",
      [newId],
    );
    expect(newId).toBe(rows[0]!.max + 1);
    const db = work.server.db;
    const source = (await readRecord(db, 'matrix', key('oh1', SOURCE_ID)))!;
    const copy = (await readRecord(db, 'matrix', key('oh1', newId)))!;
    for (const column of ['relation', 'date', 'number', 'media', 'misc', 'meta'] as const) {
      expect(copy[column], column).toEqual(source[column]);
    }
    // The interview code is unique (default ontology): the copy starts without it, so it does
    // not hold the source's code; everything else of the string column is copied.
    const { oh14: _code, ...restOfStrings } = source.string;
    expect(copy.string).toEqual(restOfStrings);
    expect(copy.string.oh14).toBeUndefined();
    expect(copy.string.oh16).toEqual(SOURCE_VALUES.oh16);
    expect(copy.meta).toMatchObject({ oh14: 3, oh16: 7, oh24: 2, oh29: 4 });
    // New creation metadata, not the source's.
    expect(copy.created_by).toBe(-1);
    expect(new Date(copy.created_at).getTime()).toBe(work.clock.now().getTime());
    expect(copy.modified_at).toBeNull();
    // The source is untouched and its history stays its own.
    expect(await historyCount('oh1', SOURCE_ID)).toBe(1);
    expect(await historyCount('oh1', newId)).toBe(0);
    // The copy reads like the source through the API.
    const read = await as.root!.post({
      action: 'read',
      source: {
        section_tipo: 'oh1',
        tipo: 'oh14',
        model: 'component_input_text',
        section_id: newId,
        mode: 'edit',
      },
    });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(JSON.stringify(read.body.data)).not.toContain('OH-0001');
  });

  it("the stock client body (step 15) works, and the activity row 'new' names the source", async () => {
    const answer = await as.level2!.post({
      action: 'duplicate',
      source: {
        typo: 'source',
        type: 'section',
        action: 'duplicate',
        model: 'section',
        tipo: 'oh1',
        section_tipo: 'oh1',
        section_id: SOURCE_ID,
        mode: 'edit',
        view: null,
        lang: 'lg-eng',
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toBeGreaterThan(0);
    const { rows } = await work.server.db.query<{
      r: { dd543: { section_id: number }[] };
      m: { dd551: { value: unknown }[] };
    }>(
      `SELECT relation AS r, misc AS m FROM matrix_activity
       WHERE string -> 'dd545' -> 0 ->> 'value' = 'new' AND string -> 'dd546' -> 0 ->> 'value' = 'oh1'
         AND misc -> 'dd551' -> 0 -> 'value' ->> 'section_id' = $1`,
      [String(answer.body.data)],
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.r.dd543[0]!.section_id)).toBe(12);
    expect(rows[0]!.m.dd551[0]!.value).toEqual({ section_id: answer.body.data, duplicated_from: SOURCE_ID });
  });

  it('levels: 0 and 1 are refused with 403 perm.denied; 2, 3 and a global admin duplicate', async () => {
    for (const name of ['level0', 'level1']) {
      const answer = await as[name]!.post(duplicate('oh1', SOURCE_ID));
      expect(answer.status, name).toBe(403);
      expect(answer.body.error.code).toBe('perm.denied');
    }
    for (const name of ['level2', 'level3', 'admin']) {
      const answer = await as[name]!.post(duplicate('oh1', SOURCE_ID));
      expect(answer.status, `${name} ${JSON.stringify(answer.body)}`).toBe(200);
    }
  });

  it('a non-admin cannot duplicate a record outside their projects (403 perm.out_of_scope); a global admin can', async () => {
    const { rows: before } = await work.server.db.query('SELECT 1 FROM matrix WHERE section_tipo = $1', [
      'oh1',
    ]);
    for (const name of ['level2', 'level3']) {
      const answer = await as[name]!.post(duplicate('oh1', OTHER_PROJECT_ID));
      expect(answer.status, name).toBe(403);
      expect(answer.body.error).toMatchObject({ code: 'perm.out_of_scope', category: 'permission' });
    }
    const { rows: after } = await work.server.db.query('SELECT 1 FROM matrix WHERE section_tipo = $1', [
      'oh1',
    ]);
    expect(after.length).toBe(before.length);
    const admin = await as.admin!.post(duplicate('oh1', OTHER_PROJECT_ID));
    expect(admin.status).toBe(200);
    // The copy keeps the source's projects (a copy, not a new record of the admin's projects).
    const copy = await readRecord(work.server.db, 'matrix', key('oh1', admin.body.data));
    expect(copy!.relation.oh22).toEqual([locator('oh22', 'dd153', 2, 'dd675')]);
  });

  it('a missing record is 404 resource.not_found; a level-0 caller gets 403 before learning that', async () => {
    for (const name of ['root', 'level2']) {
      const answer = await as[name]!.post(duplicate('oh1', 99_999));
      expect(answer.status, name).toBe(404);
      expect(answer.body.error.code).toBe('resource.not_found');
      expect(answer.body.error.message).toContain('99999');
    }
    expect((await as.level0!.post(duplicate('oh1', 99_999))).status).toBe(403);
  });

  it('the activity section dd542 refuses with 403 perm.section_not_writable', async () => {
    const answer = await as.root!.post(duplicate('dd542', 1));
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('perm.section_not_writable');
  });

  it('wrong fields are 400 rqo.invalid_field naming the field', async () => {
    for (const [body, field] of [
      [{ action: 'duplicate' }, 'source.section_tipo'],
      [{ action: 'duplicate', source: { section_tipo: 'oh1' } }, 'source.section_id'],
      [duplicate('oh1', null), 'source.section_id'],
      [duplicate('oh1', 'abc'), 'source.section_id'],
      [duplicate('oh1', 1.5), 'source.section_id'],
      [duplicate('oh1', 99_999_999_999), 'source.section_id'], // beyond the 32-bit column
      [duplicate('oh1', { id: 1 }), 'source.section_id'],
      [duplicate(7, SOURCE_ID), 'source.section_tipo'],
      [duplicate('oh14', SOURCE_ID), 'source.section_tipo'],
      [{ action: 'duplicate', source: [] }, 'source'],
    ] as const) {
      const answer = await as.root!.post(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('rqo.invalid_field');
      expect(answer.body.error.message).toContain(field);
    }
  });

  it('a duplicated thesaurus term keeps its parent, who lists the copy among its children; children are not copied', async () => {
    const db = work.server.db;
    await insertRecordValues(db, ontology, 'ts1', 100, {
      hierarchy25: [text('Parent', 'lg-eng')],
      hierarchy49: [{ ...locator('hierarchy49', 'ts1', 101, 'dd48'), id: 1 }],
    });
    await insertRecordValues(db, ontology, 'ts1', 101, {
      hierarchy25: [text('Child', 'lg-eng')],
      hierarchy36: [{ ...locator('hierarchy36', 'ts1', 100, 'dd47'), id: 1 }],
      hierarchy49: [{ ...locator('hierarchy49', 'ts1', 102, 'dd48'), id: 1 }],
    });
    await insertRecordValues(db, ontology, 'ts1', 102, {
      hierarchy36: [{ ...locator('hierarchy36', 'ts1', 101, 'dd47'), id: 1 }],
    });
    const answer = await as.root!.post(duplicate('ts1', 101));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const copyId = answer.body.data;
    const copy = (await readRecord(db, 'matrix_hierarchy', key('ts1', copyId)))!;
    expect(copy.string.hierarchy25).toEqual([text('Child', 'lg-eng')]);
    expect(copy.relation.hierarchy36).toEqual([{ ...locator('hierarchy36', 'ts1', 100, 'dd47'), id: 1 }]);
    expect(copy.relation.hierarchy49).toBeUndefined();
    const parent = (await readRecord(db, 'matrix_hierarchy', key('ts1', 100)))!;
    expect(parent.relation.hierarchy49).toEqual([
      { ...locator('hierarchy49', 'ts1', 101, 'dd48'), id: 1 },
      { ...locator('hierarchy49', 'ts1', copyId, 'dd48'), id: 2 },
    ]);
    // The grandchild still has one parent, the source.
    const grandchild = (await readRecord(db, 'matrix_hierarchy', key('ts1', 102)))!;
    expect(grandchild.relation.hierarchy36).toEqual([
      { ...locator('hierarchy36', 'ts1', 101, 'dd47'), id: 1 },
    ]);
  });

  it('a duplicated user keeps profile and projects but not the username or password; the original still logs in', async () => {
    const db = work.server.db;
    const answer = await as.root!.post(duplicate('dd128', 12));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const copy = (await readRecord(db, 'matrix_users', key('dd128', answer.body.data)))!;
    const original = (await readRecord(db, 'matrix_users', key('dd128', 12)))!;
    expect(copy.relation).toEqual(original.relation);
    expect(copy.string.dd132).toBeUndefined();
    expect(copy.string.dd133).toBeUndefined();
    expect(original.string.dd132).toBeDefined();
    expect((await work.browser().login('level2', PASSWORD)).status).toBe(200);
  });
});
