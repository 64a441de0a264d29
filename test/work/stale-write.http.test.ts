/**
 * "Nothing lost" over HTTP on both engines: every component a read answers carries its version
 * (the id of the history row of its last write, 0 when never saved through the work API); a
 * save naming an older version is refused with 409 `record.stale_write`, naming who changed it
 * and when and carrying the current value, and writes nothing (no history, no activity); a save
 * naming no version (the stock client) keeps last-write-wins; of two concurrent saves naming the
 * same version exactly one wins; writes made for the save (observers, inverse references) and
 * delete_data change the versions they touch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser } from '../helpers/work-permissions.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

// biome-ignore lint/suspicious/noExplicitAny: envelope items are read loosely
type Item = any;

interface SaveOptions {
  lang?: string;
  /** data.version; absent: the stock client's body (no version). */
  version?: unknown;
  model?: string;
}

const saveBody = (
  tipo: string,
  sectionTipo: string,
  sectionId: number,
  changes: unknown[],
  o: SaveOptions,
) => ({
  action: 'save',
  source: {
    typo: 'source',
    type: 'component',
    model: o.model ?? 'component_input_text',
    tipo,
    section_tipo: sectionTipo,
    section_id: sectionId,
    mode: 'edit',
    lang: o.lang ?? 'lg-nolan',
  },
  data: {
    typo: 'data',
    tipo,
    section_tipo: sectionTipo,
    section_id: sectionId,
    lang: o.lang ?? 'lg-nolan',
    changed_data: changes,
    ...(Object.hasOwn(o, 'version') ? { version: o.version } : {}),
  },
});

const getDataBody = (tipo: string, sectionTipo: string, sectionId: number, lang: string, model: string) => ({
  action: 'read',
  source: {
    typo: 'source',
    type: 'component',
    action: 'get_data',
    model,
    tipo,
    section_tipo: sectionTipo,
    section_id: sectionId,
    mode: 'edit',
    lang,
  },
});

const sectionRead = (sectionTipo: string, mode: 'edit' | 'list', sectionId?: number) => ({
  action: 'read',
  source: {
    typo: 'source',
    type: 'section',
    action: 'search',
    model: 'section',
    tipo: sectionTipo,
    section_tipo: sectionTipo,
    section_id: sectionId ?? null,
    mode,
    lang: 'lg-eng',
  },
  sqo: {
    section_tipo: [sectionTipo],
    limit: 10,
    offset: 0,
    ...(sectionId !== undefined
      ? { filter_by_locators: [{ section_tipo: sectionTipo, section_id: sectionId }] }
      : {}),
  },
});

const insert = (value: unknown) => ({ action: 'insert', id: null, value });
const text = (value: string, lang = 'lg-nolan') => insert({ id: null, lang, value });

function ok(answer: WorkAnswer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** ok(), answering the whole answer (for itemOf). */
function ok_(answer: WorkAnswer): WorkAnswer {
  ok(answer);
  return answer;
}

/** The component's data item in a read or save answer. */
const itemOf = (answer: WorkAnswer, tipo: string, sectionId: number): Item =>
  answer.body.data.data.find(
    (d: Item) => d.tipo === tipo && String(d.section_id) === String(sectionId) && d.typo !== 'sections',
  );

describe.each(workEngineCases())('stale writes ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let ana: WorkBrowser;
  let bob: WorkBrowser;
  const db = () => work.server.db;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    await insertLoginUser(db(), 1, {
      username: 'ana',
      password: 'ana password',
      fullName: 'Ana García',
      profile: 2,
      projects: [1],
    });
    await insertLoginUser(db(), 2, {
      username: 'bob',
      password: 'bob password',
      fullName: 'Bob Smith',
      profile: 2,
      projects: [1],
    });
    root = work.browser();
    ok(await root.login('root', TEST_ROOT_PASSWORD));
    ana = work.browser();
    ok(await ana.login('ana', 'ana password'));
    bob = work.browser();
    ok(await bob.login('bob', 'bob password'));
  });
  afterAll(async () => {
    await work?.stop();
  });

  const create = async (sectionTipo: string): Promise<number> => {
    const answer = await root.post({ action: 'create', source: { section_tipo: sectionTipo } });
    return ok(answer).data;
  };

  const save = (
    browser: WorkBrowser,
    tipo: string,
    sectionTipo: string,
    sectionId: number,
    changes: unknown[],
    o: SaveOptions = {},
  ) => browser.post(saveBody(tipo, sectionTipo, sectionId, changes, o));

  const getData = async (
    browser: WorkBrowser,
    tipo: string,
    sectionTipo: string,
    sectionId: number,
    lang = 'lg-nolan',
    model = 'component_input_text',
  ): Promise<Item> =>
    itemOf(ok_(await browser.post(getDataBody(tipo, sectionTipo, sectionId, lang, model))), tipo, sectionId);

  const stored = async (sectionTipo: string, sectionId: number, column: string, tipo: string) => {
    const table = sectionTipo === 'ts1' ? 'matrix_hierarchy' : 'matrix';
    const { rows } = await db().query<{ items: unknown }>(
      `SELECT ${column} -> $3 AS items FROM ${table} WHERE section_tipo = $1 AND section_id = $2`,
      [sectionTipo, sectionId, tipo],
    );
    return (rows[0]?.items ?? []) as Item[];
  };

  /** The newest history row of a component: its id is the component's version. */
  const lastHistory = async (sectionTipo: string, sectionId: number, tipo: string) => {
    const { rows } = await db().query<{ id: string; created_at: Date | string; n: string }>(
      `SELECT id::text AS id, created_at, count(*) OVER ()::text AS n FROM matrix_time_machine
       WHERE section_tipo = $1 AND section_id = $2 AND tipo = $3 ORDER BY id DESC LIMIT 1`,
      [sectionTipo, sectionId, tipo],
    );
    const row = rows[0];
    return row
      ? { id: Number(row.id), at: new Date(row.created_at).toISOString(), count: Number(row.n) }
      : { id: 0, at: '', count: 0 };
  };

  const saveActivities = async (sectionTipo: string, sectionId: number) => {
    const { rows } = await db().query<{ n: string }>(
      `SELECT count(*)::text AS n FROM matrix_activity
       WHERE string -> 'dd545' -> 0 ->> 'value' = 'save'
         AND misc -> 'dd551' -> 0 -> 'value' ->> 'section_tipo' = $1
         AND (misc -> 'dd551' -> 0 -> 'value' ->> 'section_id')::integer = $2`,
      [sectionTipo, sectionId],
    );
    return Number(rows[0]!.n);
  };

  it('a read carries each component’s version: 0 before any save, the id of its last history row after', async () => {
    const id = await create('oh1');
    const before = await getData(root, 'oh14', 'oh1', id);
    expect(before.version).toBe(0);

    const saved = ok_(await save(root, 'oh14', 'oh1', id, [text('WC-1')]));
    const echo = itemOf(saved, 'oh14', id);
    const history = await lastHistory('oh1', id, 'oh14');
    expect(history.id).toBeGreaterThan(0);
    expect(echo.version).toBe(history.id);
    expect((await getData(root, 'oh14', 'oh1', id)).version).toBe(history.id);

    // Section reads (edit and list): every component item carries an integer version.
    for (const mode of ['edit', 'list'] as const) {
      const read = ok_(await root.post(sectionRead('oh1', mode, id)));
      const items = read.body.data.data.filter((d: Item) => d.typo !== 'sections');
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(Number.isSafeInteger(item.version), JSON.stringify(item)).toBe(true);
      const oh14 = itemOf(read, 'oh14', id);
      if (oh14) expect(oh14.version).toBe(history.id);
    }
    const edit = ok_(await root.post(sectionRead('oh1', 'edit', id)));
    expect(itemOf(edit, 'oh14', id).version).toBe(history.id);
    expect(itemOf(edit, 'oh16', id).version).toBe(0);
  });

  it('a save naming the current version succeeds, and its echo carries the new version', async () => {
    const id = await create('oh1');
    const first = itemOf(ok_(await save(ana, 'oh14', 'oh1', id, [text('one')], { version: 0 })), 'oh14', id);
    expect(first.version).toBeGreaterThan(0);
    expect(first.entries).toEqual([{ id: 1, lang: 'lg-nolan', value: 'one' }]);
    const second = itemOf(
      ok_(
        await save(ana, 'oh14', 'oh1', id, [{ action: 'update', id: 1, value: { id: 1, value: 'two' } }], {
          version: first.version,
        }),
      ),
      'oh14',
      id,
    );
    expect(second.version).toBeGreaterThan(first.version);
    expect(second.version).toBe((await lastHistory('oh1', id, 'oh14')).id);
  });

  it('a save naming an older version is refused with 409 record.stale_write naming who and when, and writes nothing', async () => {
    const id = await create('oh1');
    // Ana and Bob both open the title (version 0); Ana saves first.
    const opened = await getData(bob, 'oh16', 'oh1', id, 'lg-eng');
    expect(opened.version).toBe(0);
    ok(await save(ana, 'oh16', 'oh1', id, [text('Ana’s title', 'lg-eng')], { lang: 'lg-eng', version: 0 }));
    const history = await lastHistory('oh1', id, 'oh16');
    const activities = await saveActivities('oh1', id);

    const refused = await save(bob, 'oh16', 'oh1', id, [text('Bob’s title', 'lg-eng')], {
      lang: 'lg-eng',
      version: opened.version,
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.ok).toBe(false);
    expect(refused.body.error).toMatchObject({
      code: 'record.stale_write',
      category: 'conflict',
      retryable: false,
    });
    const message: string = refused.body.error.message;
    expect(message).toContain('oh16 of oh1');
    expect(message).toContain('Ana García (ana)');
    expect(message).toContain(history.at);
    expect(message).toContain(`(${opened.version})`);
    expect(message).toContain(`current version ${history.id}`);
    const current = await getData(bob, 'oh16', 'oh1', id, 'lg-eng');
    expect(refused.body.error.details).toEqual({
      section_tipo: 'oh1',
      section_id: id,
      tipo: 'oh16',
      lang: 'lg-eng',
      your_version: 0,
      current_version: history.id,
      changed_by: { user_id: 1, username: 'ana', full_username: 'Ana García' },
      changed_at: history.at,
      current_value: current,
    });
    expect(current.version).toBe(history.id);
    expect(current.entries).toEqual([{ id: 1, lang: 'lg-eng', value: 'Ana’s title' }]);

    // Nothing of Bob's save exists: value, history and activity are as Ana left them.
    expect(await stored('oh1', id, 'string', 'oh16')).toEqual([
      { id: 1, lang: 'lg-eng', value: 'Ana’s title' },
    ]);
    expect(await lastHistory('oh1', id, 'oh16')).toEqual(history);
    expect(await saveActivities('oh1', id)).toBe(activities);

    // Bob, having seen Ana's version, saves on top of it.
    const retried = itemOf(
      ok_(
        await save(
          bob,
          'oh16',
          'oh1',
          id,
          [{ action: 'update', id: 1, value: { id: 1, lang: 'lg-eng', value: 'Both' } }],
          {
            lang: 'lg-eng',
            version: current.version,
          },
        ),
      ),
      'oh16',
      id,
    );
    expect(retried.entries).toEqual([{ id: 1, lang: 'lg-eng', value: 'Both' }]);
    expect(retried.version).toBeGreaterThan(current.version);
  });

  it('a save naming no version (the stock client) still wins, as before', async () => {
    const id = await create('oh1');
    ok(await save(ana, 'oh14', 'oh1', id, [text('ana')], { version: 0 }));
    const stock = await save(bob, 'oh14', 'oh1', id, [{ action: 'set_data', value: [{ value: 'bob' }] }]);
    const echo = itemOf(ok_(stock), 'oh14', id);
    expect(echo.entries.map((e: Item) => e.value)).toEqual(['bob']);
    expect(echo.version).toBe((await lastHistory('oh1', id, 'oh14')).id);
    expect((await stored('oh1', id, 'string', 'oh14')).map((e) => e.value)).toEqual(['bob']);
  });

  it('data.version of the wrong type is the invalid-field refusal, writing nothing', async () => {
    const id = await create('oh1');
    for (const version of ['3', -1, 1.5, true, {}, [1]]) {
      const answer = await save(ana, 'oh14', 'oh1', id, [text('x')], { version });
      expect(answer.status, JSON.stringify(version)).toBe(400);
      expect(answer.body.error.code).toBe('rqo.invalid_field');
      expect(answer.body.error.message).toContain('data.version');
    }
    // null counts as absent (a client that has no version to name).
    ok(await save(ana, 'oh14', 'oh1', id, [text('y')], { version: null }));
    expect((await stored('oh1', id, 'string', 'oh14')).map((e) => e.value)).toEqual(['y']);
  });

  it('two concurrent saves naming the same version: exactly one wins, the other gets 409 and writes nothing', async () => {
    for (let round = 0; round < 3; round += 1) {
      const id = await create('oh1');
      const { version } = await getData(ana, 'oh14', 'oh1', id);
      // Values of their own each round: the interview code is unique among interviews.
      const answers = await Promise.all([
        save(ana, 'oh14', 'oh1', id, [text(`from ana ${round}`)], { version }),
        save(bob, 'oh14', 'oh1', id, [text(`from bob ${round}`)], { version }),
      ]);
      const statuses = answers.map((a) => a.status);
      expect([...statuses].sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409]);
      const winner = statuses[0] === 200 ? `from ana ${round}` : `from bob ${round}`;
      const loser = answers.find((a) => a.status === 409)!;
      expect(loser.body.error.code).toBe('record.stale_write');
      expect(loser.body.error.details.current_value.entries.map((e: Item) => e.value)).toEqual([winner]);
      expect((await stored('oh1', id, 'string', 'oh14')).map((e) => e.value)).toEqual([winner]);
      const history = await lastHistory('oh1', id, 'oh14');
      expect(history.count).toBe(1);
      expect(loser.body.error.details.current_version).toBe(history.id);
      expect(await saveActivities('oh1', id)).toBe(1);
    }
  });

  it('observers and inverse references change the versions of the components they write', async () => {
    // A computed observer: the full name follows name and surname.
    const person = await create('rsc197');
    const fullBefore = await getData(root, 'rsc9001', 'rsc197', person);
    expect(fullBefore.version).toBe(0);
    ok(await save(root, 'rsc85', 'rsc197', person, [text('Ada')]));
    const fullAfter = await getData(root, 'rsc9001', 'rsc197', person);
    expect(fullAfter.version).toBe((await lastHistory('rsc197', person, 'rsc9001')).id);
    expect(fullAfter.version).toBeGreaterThan(0);

    // An inverse reference: saving the child's parent changes the parent's children.
    const [parent, child] = [await create('ts1'), await create('ts1')];
    const rel = 'component_relation_children';
    const children = await getData(root, 'hierarchy49', 'ts1', parent, 'lg-nolan', rel);
    expect(children.version).toBe(0);
    ok(
      await save(root, 'hierarchy36', 'ts1', child, [insert({ section_tipo: 'ts1', section_id: parent })], {
        model: 'component_relation_parent',
        version: 0,
      }),
    );
    const mirrored = await getData(root, 'hierarchy49', 'ts1', parent, 'lg-nolan', rel);
    expect(mirrored.version).toBe((await lastHistory('ts1', parent, 'hierarchy49')).id);
    expect(mirrored.version).toBeGreaterThan(0);
    // A client still holding the parent's children at version 0 would overwrite the new child.
    const other = await create('ts1');
    const stale = await save(
      root,
      'hierarchy49',
      'ts1',
      parent,
      [insert({ section_tipo: 'ts1', section_id: other })],
      {
        model: rel,
        version: children.version,
      },
    );
    expect(stale.status, JSON.stringify(stale.body)).toBe(409);
    expect(stale.body.error.details.current_value.entries.map((l: Item) => l.section_id)).toEqual([child]);
    expect((await stored('ts1', parent, 'relation', 'hierarchy49')).map((l) => l.section_id)).toEqual([
      child,
    ]);
  });

  it('delete_data changes the versions of the components it empties', async () => {
    const id = await create('oh1');
    const saved = itemOf(ok_(await save(root, 'oh14', 'oh1', id, [text('to be emptied')])), 'oh14', id);
    ok(
      await root.post({
        action: 'delete',
        source: { section_tipo: 'oh1', section_id: id, delete_mode: 'delete_data' },
      }),
    );
    const emptied = await getData(root, 'oh14', 'oh1', id);
    expect(emptied.entries).toEqual([]);
    expect(emptied.version).toBeGreaterThan(saved.version);
    expect(emptied.version).toBe((await lastHistory('oh1', id, 'oh14')).id);
    const stale = await save(ana, 'oh14', 'oh1', id, [text('resurrected')], { version: saved.version });
    expect(stale.status).toBe(409);
    expect(stale.body.error.details.current_value.entries).toEqual([]);
  });

  it('a duplicate starts its copied components at version 0, and its parent’s children change version', async () => {
    const [parent, term] = [await create('ts1'), await create('ts1')];
    ok(
      await save(root, 'hierarchy36', 'ts1', term, [insert({ section_tipo: 'ts1', section_id: parent })], {
        model: 'component_relation_parent',
      }),
    );
    const rel = 'component_relation_children';
    const before = await getData(root, 'hierarchy49', 'ts1', parent, 'lg-nolan', rel);
    const copy = ok(
      await root.post({ action: 'duplicate', source: { section_tipo: 'ts1', section_id: term } }),
    ).data;
    const copied = await getData(root, 'hierarchy36', 'ts1', copy, 'lg-nolan', 'component_relation_parent');
    // Its value came from the source, but nobody has saved it in the copy yet.
    expect(copied.entries.map((l: Item) => l.section_id)).toEqual([parent]);
    expect(copied.version).toBe(0);
    const after = await getData(root, 'hierarchy49', 'ts1', parent, 'lg-nolan', rel);
    expect(after.entries.map((l: Item) => l.section_id)).toEqual([term, copy]);
    expect(after.version).toBeGreaterThan(before.version);
    expect(after.version).toBe((await lastHistory('ts1', parent, 'hierarchy49')).id);
  });
});
