import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { createRecordIn } from '../../src/work/records/create-record.js';
import { readCounter } from '../../src/work/store/counters.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLevelUsers, LEVEL_USERNAMES } from '../helpers/work-permissions.js';
import { insertRecordValues } from '../helpers/work-records.js';
import {
  browsersOf,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();

const create = (sectionTipo: unknown, extra: Record<string, unknown> = {}) => ({
  action: 'create',
  source: { section_tipo: sectionTipo },
  ...extra,
});

const PASSWORD = 'create test password';

interface ActivityRow {
  user: number;
  what: string;
  where: string;
  data: Record<string, unknown>;
}

describe.each(workEngineCases())('create ($engine)', (engine) => {
  let work: WorkServerHandle;
  const as: Record<string, WorkBrowser> = {};

  const rowsOf = async (sectionTipo: string) =>
    (
      await work.server.db.query<{
        section_id: number;
        relation: Record<string, unknown[]>;
        created_by: number;
        created_at: Date | string;
      }>(
        `SELECT section_id, relation, created_by, created_at FROM ${ontology.tableOf(sectionTipo)}
         WHERE section_tipo = $1 ORDER BY section_id`,
        [sectionTipo],
      )
    ).rows;

  const activity = async (what: string, where: string): Promise<ActivityRow[]> => {
    const { rows } = await work.server.db.query<{
      r: Record<string, { value?: unknown; section_id?: unknown }[]>;
      s: Record<string, { value?: unknown }[]>;
      m: Record<string, { value?: unknown }[]>;
    }>(
      `SELECT relation AS r, string AS s, misc AS m FROM matrix_activity
       WHERE string -> 'dd545' -> 0 ->> 'value' = $1 AND string -> 'dd546' -> 0 ->> 'value' = $2
       ORDER BY section_id`,
      [what, where],
    );
    return rows.map((row) => ({
      user: Number(row.r.dd543?.[0]?.section_id),
      what: String(row.s.dd545?.[0]?.value),
      where: String(row.s.dd546?.[0]?.value),
      data: (row.m.dd551?.[0]?.value ?? {}) as Record<string, unknown>,
    }));
  };

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    await insertLevelUsers(db, PASSWORD, (level) => accessItemsUnder(ontology, 'oh1', level));
    Object.assign(as, await browsersOf(work, LEVEL_USERNAMES, PASSWORD));
  }, 180_000);
  afterAll(async () => {
    await work?.stop();
  });

  it('answers consecutive integer section_ids, one row each with creation metadata', async () => {
    const ids: unknown[] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await as.root!.post(create('rsc170'));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.ok).toBe(true);
      ids.push(answer.body.data);
    }
    expect(ids).toEqual([1, 2, 3]);
    const rows = await rowsOf('rsc170');
    expect(rows.map((r) => r.section_id)).toEqual([1, 2, 3]);
    for (const row of rows) {
      expect(row.created_by).toBe(-1);
      expect(new Date(row.created_at).getTime()).toBe(work.clock.now().getTime());
    }
    // rsc170 has no project filter: nothing else is written.
    expect(rows[0]!.relation).toEqual({});
  });

  it('the stock client body (step 4) creates a record and the edit read finds it', async () => {
    const answer = await as.root!.post({
      action: 'create',
      source: {
        typo: 'source',
        type: 'section',
        action: 'create',
        model: 'section',
        tipo: 'rsc197',
        section_tipo: 'rsc197',
        section_id: null,
        mode: 'list',
        view: 'default',
        lang: 'lg-eng',
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(Number.isInteger(answer.body.data)).toBe(true);
    expect(answer.body.data).toBeGreaterThan(0);
    expect((await rowsOf('rsc197')).map((r) => r.section_id)).toContain(answer.body.data);
  });

  it('20 concurrent creates get 20 distinct ids and 20 rows', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => as.root!.post(create('rsc167'))));
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    const ids = answers.map((a) => a.body.data as number).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await rowsOf('rsc167')).map((r) => r.section_id)).toEqual(ids);
    expect(await readCounter(work.server.db, 'rsc167')).toBe(20);
  });

  it("stamps the creator's projects as the project filter (root: the default project)", async () => {
    const byUser = await as.level2!.post(create('oh1'));
    expect(byUser.status, JSON.stringify(byUser.body)).toBe(200);
    const byRoot = await as.root!.post(create('oh1'));
    expect(byRoot.status).toBe(200);
    const rows = await rowsOf('oh1');
    const filterOf = (id: number) => rows.find((r) => r.section_id === id)?.relation.oh22;
    expect(filterOf(byUser.body.data)).toEqual([
      { type: 'dd675', section_tipo: 'dd153', section_id: 1, from_component_tipo: 'oh22' },
      { type: 'dd675', section_tipo: 'dd153', section_id: 3, from_component_tipo: 'oh22' },
    ]);
    expect(filterOf(byRoot.body.data)).toEqual([
      { type: 'dd675', section_tipo: 'dd153', section_id: 1, from_component_tipo: 'oh22' },
    ]);
    expect(rows.find((r) => r.section_id === byUser.body.data)?.created_by).toBe(12);
    // The creator can now open it: it is inside their projects.
    const read = await as.level2!.post({
      action: 'read',
      source: { section_tipo: 'oh1', tipo: 'oh1', section_id: byUser.body.data, mode: 'edit' },
    });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
  });

  it("writes one activity row 'new' per create, naming the user, the section and the id", async () => {
    const answer = await as.level3!.post(create('oh1'));
    expect(answer.status).toBe(200);
    const rows = await activity('new', 'oh1');
    expect(rows).toContainEqual({
      user: 13,
      what: 'new',
      where: 'oh1',
      data: { section_id: answer.body.data },
    });
    expect(rows.filter((r) => r.data.section_id === answer.body.data)).toHaveLength(1);
  });

  it('levels: 0 and 1 are refused with 403 perm.denied; 2, 3 and a global admin create', async () => {
    const before = (await rowsOf('oh1')).length;
    for (const name of ['level0', 'level1']) {
      const answer = await as[name]!.post(create('oh1'));
      expect(answer.status, name).toBe(403);
      expect(answer.body.error).toMatchObject({ code: 'perm.denied', category: 'permission' });
    }
    expect((await rowsOf('oh1')).length).toBe(before);
    for (const name of ['level2', 'level3', 'admin']) {
      const answer = await as[name]!.post(create('oh1'));
      expect(answer.status, `${name} ${JSON.stringify(answer.body)}`).toBe(200);
      expect(Number.isInteger(answer.body.data)).toBe(true);
    }
    // The global admin (projects [4]) stamps their own project.
    const rows = await rowsOf('oh1');
    expect(rows.at(-1)!.relation.oh22).toEqual([
      { type: 'dd675', section_tipo: 'dd153', section_id: 4, from_component_tipo: 'oh22' },
    ]);
    // Level 2 on oh1 says nothing about other sections.
    const other = await as.level3!.post(create('rsc197'));
    expect(other.status).toBe(403);
  });

  it('the consultation-only activity section dd542 refuses with 403 perm.section_not_writable', async () => {
    const before = await readCounter(work.server.db, 'dd542');
    const answer = await as.root!.post(create('dd542'));
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: 'perm.section_not_writable', category: 'permission' });
    expect(answer.body.error.message).toContain('dd542');
    expect(await readCounter(work.server.db, 'dd542')).toBe(before);
  });

  it('wrong fields are 400 rqo.invalid_field naming the field; an unknown tipo is a 404', async () => {
    for (const body of [
      { action: 'create' },
      { action: 'create', source: 'oh1' },
      create(undefined),
      create(''),
      create(17),
      create(['oh1']),
      create('oh14'), // a component, not a section
    ]) {
      const answer = await as.root!.post(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('rqo.invalid_field');
      expect(answer.body.error.message).toMatch(/source/);
    }
    const unknown = await as.root!.post(create('zz99'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('element.unknown_tipo');
    const noSession = await work.post(create('oh1'));
    expect(noSession.status).toBe(401);
  });

  it('an idempotency_key retry answers the first id and creates nothing more', async () => {
    const body = create('rsc170', { idempotency_key: 'create-retry-1' });
    const first = await as.root!.post(body);
    const again = await as.root!.post(body);
    expect(first.status).toBe(200);
    expect(again.body.data).toBe(first.body.data);
    expect((await rowsOf('rsc170')).filter((r) => r.section_id === first.body.data)).toHaveLength(1);
    expect(await readCounter(work.server.db, 'rsc170')).toBe(first.body.data);
  });

  it('a rolled-back transaction gives its id back; the next create gets it', async () => {
    const db = work.server.db;
    const counter = await readCounter(db, 'rsc197');
    let allocated = 0;
    await expect(
      db.transaction(async (tx) => {
        allocated = await createRecordIn(tx, ontology, {
          sectionTipo: 'rsc197',
          userId: -1,
          projectIds: [],
          now: new Date(),
        });
        throw new Error('injected failure after the insert');
      }),
    ).rejects.toThrow('injected failure');
    expect(allocated).toBe(counter + 1);
    expect(await readCounter(db, 'rsc197')).toBe(counter);
    expect((await rowsOf('rsc197')).map((r) => r.section_id)).not.toContain(allocated);
    const next = await as.root!.post(create('rsc197'));
    expect(next.body.data).toBe(counter + 1);
  });

  it('a counter behind existing records is a 409 resource.conflict, and nothing is written', async () => {
    const db = work.server.db;
    const counter = await readCounter(db, 'rsc170');
    // A record inserted by hand (an import) at the id the counter hands out next.
    await insertRecordValues(db, ontology, 'rsc170', counter + 1, {});
    const activityBefore = (await activity('new', 'rsc170')).length;
    const answer = await as.root!.post(create('rsc170'));
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('resource.conflict');
    expect(answer.body.error.message).toContain('counter');
    expect(await readCounter(db, 'rsc170')).toBe(counter);
    expect((await activity('new', 'rsc170')).length).toBe(activityBefore);
  });
});
