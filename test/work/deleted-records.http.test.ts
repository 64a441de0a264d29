/**
 * Deleted records over HTTP on PGlite and PostgreSQL: `get_deleted_records` lists what
 * `delete_record` removed (newest first, with who and a line of text), `restore_record` puts a
 * record back with its components, item counters, history and an activity row in one
 * transaction, within the caller's level and projects, and refuses an id taken again. Also the
 * searches the cataloguing list makes: interviews by the words of their transcription (through
 * the audiovisual portal) and ordered by a column through a portal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { readRecord } from '../../src/work/store/record-rows.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLevelUsers, LEVEL_USERNAMES } from '../helpers/work-permissions.js';
import { insertRecordValues, locator, text } from '../helpers/work-records.js';
import {
  browsersOf,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();
const PASSWORD = 'deleted records test password';

const remove = (section_tipo: string, section_id: number) => ({
  action: 'delete',
  source: { section_tipo, section_id, delete_mode: 'delete_record' },
});
const restore = (section_tipo: unknown, section_id: unknown) => ({
  action: 'restore_record',
  source: { section_tipo, section_id },
});
const deleted = (section_tipo: unknown, extra: Record<string, unknown> = {}) => ({
  action: 'get_deleted_records',
  options: { section_tipo, ...extra },
});

describe.each(workEngineCases())('deleted records and restore ($engine)', (engine) => {
  let work: WorkServerHandle;
  const as: Record<string, WorkBrowser> = {};

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    await insertLevelUsers(db, PASSWORD, (level) => [
      ...accessItemsUnder(ontology, 'oh1', level),
      ...accessItemsUnder(ontology, 'rsc197', level),
    ]);
    await insertRecordValues(db, ontology, 'rsc197', 50, { rsc85: [text('Joan', 'lg-nolan', 4)] });
    // Interview 100 (project 1): a title in two languages, an informant, item ids above 1.
    await insertRecordValues(
      db,
      ontology,
      'oh1',
      100,
      {
        oh14: [text('OH-100', 'lg-nolan', 2)],
        oh16: [text('Weaver family', 'lg-eng', 3), text('Familia tejedora', 'lg-spa', 5)],
        oh24: [{ ...locator('oh24', 'rsc197', 50), id: 6 }],
      },
      [1],
    );
    // Interview 101 of project 2 only: outside the level users' projects (1 and 3).
    await insertRecordValues(db, ontology, 'oh1', 101, { oh14: [text('OH-101')] }, [2]);
    await insertRecordValues(db, ontology, 'oh1', 102, { oh14: [text('OH-102')] }, [1]);
    Object.assign(as, await browsersOf(work, LEVEL_USERNAMES, PASSWORD));
    for (const id of [100, 101, 102]) {
      const answer = await as.root!.post(remove('oh1', id));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      work.clock.advance(1000);
    }
  }, 180_000);

  afterAll(async () => {
    await work?.stop();
  });

  it('lists the deleted records newest first, with who deleted them and a line of their texts', async () => {
    const answer = await as.root!.post(deleted('oh1'));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.total).toBe(3);
    const records = answer.body.data.records as {
      section_id: number;
      summary: string;
      deleted_by: unknown;
    }[];
    expect(records.map((r) => r.section_id)).toEqual([102, 101, 100]);
    expect(records[2]!.summary).toBe('OH-100 · Weaver family');
    expect(records[2]!.deleted_by).toMatchObject({ user_id: -1, username: 'root' });
    // Paging.
    const page = await as.root!.post(deleted('oh1', { limit: 1, offset: 1 }));
    expect(page.body.data.records.map((r: { section_id: number }) => r.section_id)).toEqual([101]);
    // A non-admin sees those of their projects only; below the create level, nothing at all.
    const level2 = await as.level2!.post(deleted('oh1'));
    expect(level2.body.data.records.map((r: { section_id: number }) => r.section_id)).toEqual([102, 100]);
    expect(level2.body.data.total).toBe(2);
    const level1 = await as.level1!.post(deleted('oh1'));
    expect(level1.status).toBe(403);
    const bad = await as.root!.post(deleted('oh1', { limit: 1000 }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('options.limit must be an integer from 0 to 100');
  });

  it('restores a record with its components, counters, history and activity, and lists it no more', async () => {
    const before = await work.server.db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM matrix_activity WHERE string->'dd545'->0->>'value' = 'restore'",
    );
    const answer = await as.level2!.post(restore('oh1', 100));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toBe(100);
    const row = (await readRecord(work.server.db, 'matrix', { section_tipo: 'oh1', section_id: 100 }))!;
    expect(row.string.oh16).toEqual([
      text('Weaver family', 'lg-eng', 3),
      text('Familia tejedora', 'lg-spa', 5),
    ]);
    expect(row.relation.oh24).toEqual([{ ...locator('oh24', 'rsc197', 50), id: 6 }]);
    expect(row.meta).toMatchObject({ oh14: 2, oh16: 5, oh24: 6 });
    // Each component's version is its restore's history row.
    const history = await work.server.db.query<{ id: string; tipo: string; user_id: number }>(
      "SELECT id::text, tipo, user_id FROM matrix_time_machine WHERE kind = 'component' AND section_tipo = 'oh1' AND section_id = 100",
    );
    expect(history.rows.map((r) => r.tipo).sort()).toEqual(['oh14', 'oh16', 'oh22', 'oh24']);
    for (const h of history.rows) expect(row.versions?.[h.tipo]).toBe(Number(h.id));
    const after = await work.server.db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM matrix_activity WHERE string->'dd545'->0->>'value' = 'restore'",
    );
    expect(Number(after.rows[0]!.n)).toBe(Number(before.rows[0]!.n) + 1);
    // It reads like before through the API, and is no longer among the deleted.
    const read = await as.level2!.post({
      action: 'read',
      source: {
        section_tipo: 'oh1',
        tipo: 'oh16',
        model: 'component_input_text',
        section_id: 100,
        mode: 'edit',
      },
    });
    expect(JSON.stringify(read.body.data)).toContain('Weaver family');
    const list = await as.root!.post(deleted('oh1'));
    expect(list.body.data.records.map((r: { section_id: number }) => r.section_id)).toEqual([102, 101]);
    // Restoring again: the id is taken (by the restored record).
    const again = await as.root!.post(restore('oh1', 100));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('record.restore_id_taken');
  });

  it('stays within the rights: level, projects, never-deleted ids, consultation-only and bad input', async () => {
    const outside = await as.level3!.post(restore('oh1', 101));
    expect(outside.status).toBe(403);
    expect(outside.body.error.code).toBe('perm.out_of_scope');
    const low = await as.level1!.post(restore('oh1', 102));
    expect(low.status).toBe(403);
    const never = await as.root!.post(restore('oh1', 999));
    expect(never.status).toBe(404);
    const activity = await as.root!.post(restore('dd542', 1));
    expect(activity.status).toBe(403);
    const badId = await as.root!.post(restore('oh1', 'x'));
    expect(badId.status).toBe(400);
    const notSection = await as.root!.post(restore('oh16', 1));
    expect(notSection.status).toBe(400);
    // None of the refusals wrote anything: 101 and 102 are still deleted.
    for (const id of [101, 102]) {
      expect(
        await readRecord(work.server.db, 'matrix', { section_tipo: 'oh1', section_id: id }),
      ).toBeUndefined();
    }
  });

  it('refuses an id taken again since the deletion, and writes nothing', async () => {
    await insertRecordValues(work.server.db, ontology, 'oh1', 102, { oh14: [text('NEW-102')] }, [1]);
    const answer = await as.root!.post(restore('oh1', 102));
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('record.restore_id_taken');
    const row = (await readRecord(work.server.db, 'matrix', { section_tipo: 'oh1', section_id: 102 }))!;
    expect(row.string.oh14).toEqual([text('NEW-102')]);
    // A taken id is not offered as deleted.
    const list = await as.root!.post(deleted('oh1'));
    expect(list.body.data.records.map((r: { section_id: number }) => r.section_id)).toEqual([101]);
  });
});

describe.each(workEngineCases())('the list searches of the cataloguing client ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    await insertRecordValues(db, ontology, 'rsc167', 1, {
      rsc36: [text('<p>[TC_00:00:01.000_TC] Mi padre era Joan Buxèda, tejedor.</p>', 'lg-spa')],
    });
    await insertRecordValues(db, ontology, 'rsc167', 2, { rsc36: [text('<p>El puerto.</p>', 'lg-spa')] });
    await insertRecordValues(db, ontology, 'rsc197', 1, { rsc85: [text('Zoe')] });
    await insertRecordValues(db, ontology, 'rsc197', 2, { rsc85: [text('Àlex')] });
    await insertRecordValues(db, ontology, 'oh1', 1, {
      oh25: [locator('oh25', 'rsc167', 1)],
      oh24: [locator('oh24', 'rsc197', 1)],
    });
    await insertRecordValues(db, ontology, 'oh1', 2, {
      oh25: [locator('oh25', 'rsc167', 2)],
      oh24: [locator('oh24', 'rsc197', 2)],
    });
    await insertRecordValues(db, ontology, 'oh1', 3, {});
    root = (await browsersOf(work, [], PASSWORD)).root!;
  }, 180_000);

  afterAll(async () => {
    await work?.stop();
  });

  const ids = (answer: {
    body: { data: { data: { typo?: string; entries: { section_id: number }[] }[] } };
  }) => answer.body.data.data.find((d) => d.typo === 'sections')!.entries.map((e) => e.section_id);

  const list = (sqo: Record<string, unknown>) =>
    root.post({
      action: 'read',
      source: { tipo: 'oh1', section_tipo: 'oh1', model: 'section', mode: 'list', action: 'search' },
      sqo: { section_tipo: ['oh1'], ...sqo },
    });

  it('finds interviews by the words of their transcription, accents ignored', async () => {
    const answer = await list({
      filter: {
        $and: [
          {
            q: 'buxeda',
            lang: 'all',
            path: [
              { section_tipo: 'oh1', component_tipo: 'oh25' },
              { section_tipo: 'rsc167', component_tipo: 'rsc36' },
            ],
          },
        ],
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(ids(answer)).toEqual([1]);
    // The media file itself cannot be searched by words: a precise 400, as the panel no longer asks.
    const media = await list({
      filter: {
        $and: [
          {
            q: 'buxeda',
            path: [
              { section_tipo: 'oh1', component_tipo: 'oh25' },
              { section_tipo: 'rsc167', component_tipo: 'rsc35' },
            ],
          },
        ],
      },
    });
    expect(media.status).toBe(400);
  });

  it('orders by a column through a portal (the informant name), both directions, empty last', async () => {
    const order = (direction: string) => [
      {
        direction,
        path: [
          { section_tipo: 'oh1', component_tipo: 'oh24' },
          { section_tipo: 'rsc197', component_tipo: 'rsc85' },
        ],
      },
    ];
    expect(ids(await list({ order: order('ASC') }))).toEqual([2, 1, 3]);
    expect(ids(await list({ order: order('DESC') }))).toEqual([1, 2, 3]);
    expect(
      ids(
        await list({
          order: [{ direction: 'DESC', path: [{ section_tipo: 'oh1', component_tipo: 'section_id' }] }],
        }),
      ),
    ).toEqual([3, 2, 1]);
  });
});
