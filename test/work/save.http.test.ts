/**
 * dd_core_api.save over HTTP on both engines: every change action on a literal, a translatable
 * literal, a relation and a date; validation refusals that write nothing; history and activity
 * rows per save; observers (computed full name, parent/children mirrors); concurrent saves; a
 * failure injected inside the transaction; the stock client's save bodies (as
 * test/work/stock-client.http.test.ts replays them).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlClient, SqlQueryable } from '../../src/work/store/sql-client.js';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

/** Set by a test: statements matching it fail inside transactions (a dropped connection, say). */
let failInsideTransaction: RegExp | undefined;
/** The SQLSTATE the injected failure carries (a deadlock, say); none: a dropped connection. */
let injectedCode: string | undefined;

function failureInjector(db: SqlClient): SqlClient {
  const tx = (inner: SqlQueryable): SqlQueryable => ({
    query: (sql, params) => {
      if (failInsideTransaction?.test(sql)) {
        const err = Object.assign(new Error('injected failure'), injectedCode ? { code: injectedCode } : {});
        return Promise.reject(err);
      }
      return inner.query(sql, params);
    },
  });
  return {
    engine: db.engine,
    query: (sql, params) => db.query(sql, params),
    transaction: (fn) => db.transaction((inner) => fn(tx(inner))),
    close: () => db.close(),
  };
}

interface SaveOptions {
  lang?: string;
  mode?: string;
  data?: Record<string, unknown>;
  model?: string;
}

/** The stock client's save body (step 7): source, and its data item with changed_data. */
const saveBody = (
  tipo: string,
  sectionTipo: string,
  sectionId: number,
  changedData: unknown[],
  o: SaveOptions = {},
) => ({
  action: 'save',
  source: {
    typo: 'source',
    type: 'component',
    action: null,
    model: o.model ?? 'component_input_text',
    tipo,
    section_tipo: sectionTipo,
    section_id: sectionId,
    mode: o.mode ?? 'edit',
    view: null,
    lang: o.lang ?? 'lg-nolan',
  },
  data: {
    typo: 'data',
    tipo,
    section_tipo: sectionTipo,
    section_id: sectionId,
    mode: 'edit',
    lang: o.lang ?? 'lg-nolan',
    from_component_tipo: tipo,
    // The client's whole item: the server must ignore it and trust changed_data only.
    entries: [{ id: 999, lang: 'lg-nolan', value: 'stale client copy' }],
    ...o.data,
    changed_data: changedData,
  },
});

describe.each(workEngineCases())('save ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  const db = () => work.server.db;

  beforeAll(async () => {
    work = await startTestWorkServer(engine, {}, { wrapDb: failureInjector });
    root = await rootBrowser(work);
  });
  afterAll(async () => {
    await work?.stop();
  });

  const create = async (sectionTipo: string, browser = root): Promise<number> => {
    const answer = await browser.post({
      action: 'create',
      source: {
        typo: 'source',
        type: 'section',
        model: 'section',
        tipo: sectionTipo,
        section_tipo: sectionTipo,
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data;
  };

  const save = (
    tipo: string,
    sectionTipo: string,
    sectionId: number,
    changedData: unknown[],
    o: SaveOptions = {},
    browser = root,
  ) => browser.post(saveBody(tipo, sectionTipo, sectionId, changedData, o));

  const ok = (answer: WorkAnswer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };

  /** The echo's data item of the saved component (the client finds it the same way). */
  const echoItem = (answer: WorkAnswer, tipo: string, sectionId: number) =>
    answer.body.data.data.find(
      (d: { tipo: string; section_id: unknown }) =>
        d.tipo === tipo && String(d.section_id) === String(sectionId),
    );

  /** The stored items of a component, straight from the row. */
  const stored = async (sectionTipo: string, sectionId: number, column: string, tipo: string) => {
    const table =
      { dd128: 'matrix_users', dd234: 'matrix_profiles', ts1: 'matrix_hierarchy' }[sectionTipo] ?? 'matrix';
    const { rows } = await db().query<{ items: unknown; meta: unknown }>(
      `SELECT ${column} -> $3 AS items, meta -> $3 AS meta FROM ${table} WHERE section_tipo = $1 AND section_id = $2`,
      [sectionTipo, sectionId, tipo],
    );
    // biome-ignore lint/suspicious/noExplicitAny: rows are JSON
    return { items: (rows[0]?.items ?? []) as any[], meta: rows[0]?.meta };
  };

  const historyCount = async (sectionTipo: string, sectionId: number, tipo: string) => {
    const { rows } = await db().query<{ n: string }>(
      `SELECT count(*)::text AS n FROM matrix_time_machine WHERE section_tipo = $1 AND section_id = $2 AND tipo = $3`,
      [sectionTipo, sectionId, tipo],
    );
    return Number(rows[0]!.n);
  };

  const saveActivities = async (sectionTipo: string, sectionId: number, tipo: string) => {
    const { rows } = await db().query<{ n: string }>(
      `SELECT count(*)::text AS n FROM matrix_activity
       WHERE string -> 'dd545' -> 0 ->> 'value' = 'save' AND string -> 'dd546' -> 0 ->> 'value' = $3
         AND misc -> 'dd551' -> 0 -> 'value' ->> 'section_tipo' = $1
         AND (misc -> 'dd551' -> 0 -> 'value' ->> 'section_id')::integer = $2`,
      [sectionTipo, sectionId, tipo],
    );
    return Number(rows[0]!.n);
  };

  it('a literal (oh14): insert, update by id and by key, remove, set_data, clear; one history and activity row per save', async () => {
    const id = await create('oh1');
    const first = await save('oh14', 'oh1', id, [
      { action: 'insert', id: null, value: { id: null, lang: 'lg-nolan', value: 'WC-1a2b3c' } },
    ]);
    ok(first);
    expect(echoItem(first, 'oh14', id).entries).toEqual([{ id: 1, lang: 'lg-nolan', value: 'WC-1a2b3c' }]);
    expect((await stored('oh1', id, 'string', 'oh14')).items).toEqual([
      { id: 1, lang: 'lg-nolan', value: 'WC-1a2b3c' },
    ]);

    ok(
      await save('oh14', 'oh1', id, [
        { action: 'update', id: 1, value: { id: 1, lang: 'lg-nolan', value: 'WC-2' } },
      ]),
    );
    ok(
      await save('oh14', 'oh1', id, [
        { action: 'insert', id: null, value: { id: null, lang: 'lg-nolan', value: 'B' } },
      ]),
    );
    // An older client: key (the index) where id would be, and a bare value.
    ok(await save('oh14', 'oh1', id, [{ action: 'update', key: 1, value: 'B2' }]));
    expect((await stored('oh1', id, 'string', 'oh14')).items).toEqual([
      { id: 1, lang: 'lg-nolan', value: 'WC-2' },
      { id: 2, lang: 'lg-nolan', value: 'B2' },
    ]);

    ok(await save('oh14', 'oh1', id, [{ action: 'remove', id: 1, value: null }]));
    // A removed id is never minted again.
    ok(
      await save('oh14', 'oh1', id, [
        { action: 'insert', id: null, value: { id: null, lang: 'lg-nolan', value: 'C' } },
      ]),
    );
    const afterRemove = await stored('oh1', id, 'string', 'oh14');
    expect(afterRemove.items.map((i) => i.id)).toEqual([2, 3]);
    expect(afterRemove.meta).toBe(3);

    const set = await save('oh14', 'oh1', id, [
      {
        action: 'set_data',
        value: [
          { id: 3, lang: 'lg-nolan', value: 'C!' },
          { id: null, lang: 'lg-nolan', value: 'D' },
        ],
      },
    ]);
    expect(echoItem(set, 'oh14', id).entries).toEqual([
      { id: 3, lang: 'lg-nolan', value: 'C!' },
      { id: 4, lang: 'lg-nolan', value: 'D' },
    ]);
    ok(await save('oh14', 'oh1', id, [{ action: 'sort_data', value: { source_key: 1, target_key: 0 } }]));
    expect((await stored('oh1', id, 'string', 'oh14')).items.map((i) => i.value)).toEqual(['D', 'C!']);

    const cleared = await save('oh14', 'oh1', id, [{ action: 'clear', value: null }]);
    expect(echoItem(cleared, 'oh14', id).entries).toEqual([]);
    expect((await stored('oh1', id, 'string', 'oh14')).items).toEqual([]);
    ok(
      await save('oh14', 'oh1', id, [
        { action: 'insert', value: { id: null, lang: 'lg-nolan', value: 'E' } },
      ]),
    );
    // The stock client's "remove everything": id null, no key.
    ok(await save('oh14', 'oh1', id, [{ action: 'remove', id: null, value: null }]));
    expect((await stored('oh1', id, 'string', 'oh14')).items).toEqual([]);

    // 11 saves: 11 history rows (each the whole new value) and 11 'save' activity rows.
    expect(await historyCount('oh1', id, 'oh14')).toBe(11);
    expect(await saveActivities('oh1', id, 'oh14')).toBe(11);
    const { rows } = await db().query<{ data: unknown }>(
      `SELECT data FROM matrix_time_machine WHERE section_tipo = 'oh1' AND section_id = $1 AND tipo = 'oh14' ORDER BY id LIMIT 1`,
      [id],
    );
    expect(rows[0]!.data).toEqual([{ id: 1, lang: 'lg-nolan', value: 'WC-1a2b3c' }]);
  });

  it('a translatable literal (oh16): each language is its own slice; the echo carries only that slice', async () => {
    const id = await create('oh1');
    const eng = await save(
      'oh16',
      'oh1',
      id,
      [{ action: 'insert', id: null, value: { id: null, lang: 'lg-eng', value: 'The title' } }],
      { lang: 'lg-eng' },
    );
    expect(echoItem(eng, 'oh16', id)).toMatchObject({
      lang: 'lg-eng',
      entries: [{ id: 1, lang: 'lg-eng', value: 'The title' }],
    });
    // The Spanish translation of item 1 shares its id.
    const spa = await save(
      'oh16',
      'oh1',
      id,
      [{ action: 'update', id: 1, value: { id: 1, lang: 'lg-spa', value: 'El título' } }],
      { lang: 'lg-spa' },
    );
    expect(echoItem(spa, 'oh16', id).entries).toEqual([{ id: 1, lang: 'lg-spa', value: 'El título' }]);
    ok(
      await save(
        'oh16',
        'oh1',
        id,
        [{ action: 'update', id: 1, value: { id: 1, lang: 'lg-eng', value: 'Title' } }],
        { lang: 'lg-eng' },
      ),
    );
    expect((await stored('oh1', id, 'string', 'oh16')).items).toEqual(
      expect.arrayContaining([
        { id: 1, lang: 'lg-eng', value: 'Title' },
        { id: 1, lang: 'lg-spa', value: 'El título' },
      ]),
    );
    // Removing "everything" in English leaves the Spanish slice.
    const removed = await save('oh16', 'oh1', id, [{ action: 'remove', id: null, value: null }], {
      lang: 'lg-eng',
    });
    expect(echoItem(removed, 'oh16', id).entries).toEqual([]);
    expect((await stored('oh1', id, 'string', 'oh16')).items).toEqual([
      { id: 1, lang: 'lg-spa', value: 'El título' },
    ]);

    // A translatable component needs a data language; an unknown language is refused.
    const noLang = await save('oh16', 'oh1', id, [{ action: 'insert', value: { value: 'x' } }]);
    expect(noLang.status).toBe(400);
    expect(noLang.body.error.code).toBe('rqo.invalid_field');
    const badLang = await save('oh16', 'oh1', id, [{ action: 'insert', value: { value: 'x' } }], {
      lang: 'lg-xxx',
    });
    expect(badLang.body.error.code).toBe('lang.not_allowed');
    // An untranslatable component stores lg-nolan whatever the data language.
    ok(
      await save('oh14', 'oh1', id, [{ action: 'insert', value: { id: null, lang: 'lg-eng', value: 'X' } }], {
        lang: 'lg-eng',
      }),
    );
    expect((await stored('oh1', id, 'string', 'oh14')).items).toEqual([
      { id: 1, lang: 'lg-nolan', value: 'X' },
    ]);
  });

  it('a portal (oh24 -> rsc197): link, already linked, sort, unlink by id and by key, set_data, add_new_element', async () => {
    const id = await create('oh1');
    const people = [await create('rsc197'), await create('rsc197'), await create('rsc197')];
    const link = (person: number) => ({
      action: 'insert',
      id: null,
      value: { section_tipo: 'rsc197', section_id: person, type: 'dd151', from_component_tipo: 'oh24' },
    });
    const portal = { model: 'component_portal', data: { pagination: { limit: 2 } } };

    const first = await save('oh24', 'oh1', id, [link(people[0]!)], portal);
    const item = echoItem(first, 'oh24', id);
    expect(item.pagination).toMatchObject({ total: 1, limit: 2, offset: 0 });
    expect(item.entries[0]).toMatchObject({
      id: 1,
      section_tipo: 'rsc197',
      section_id: people[0],
      type: 'dd151',
    });
    // Linking the same person again changes nothing: the client reads the unchanged total.
    const again = await save('oh24', 'oh1', id, [link(people[0]!)], portal);
    expect(echoItem(again, 'oh24', id).pagination.total).toBe(1);

    ok(await save('oh24', 'oh1', id, [link(people[1]!)], portal));
    const third = await save('oh24', 'oh1', id, [link(people[2]!)], portal);
    // The echo shows the last page, where the new locator is.
    expect(echoItem(third, 'oh24', id).pagination).toMatchObject({ total: 3, limit: 2, offset: 2 });
    const ids = async () => (await stored('oh1', id, 'relation', 'oh24')).items.map((l) => l.section_id);
    expect(await ids()).toEqual(people);

    ok(
      await save(
        'oh24',
        'oh1',
        id,
        [{ action: 'sort_data', value: { source_key: 2, target_key: 0 } }],
        portal,
      ),
    );
    expect(await ids()).toEqual([people[2], people[0], people[1]]);
    ok(
      await save(
        'oh24',
        'oh1',
        id,
        [
          {
            action: 'sort_by_column',
            value: [people[0], people[1], people[2]].map((p) => ({ section_tipo: 'rsc197', section_id: p })),
          },
        ],
        portal,
      ),
    );
    expect(await ids()).toEqual(people);

    // Unlink by locator id (the TS client) and by key (the PHP-era client's paginated_key).
    const byId = (await stored('oh1', id, 'relation', 'oh24')).items[1].id;
    ok(await save('oh24', 'oh1', id, [{ action: 'remove', id: byId, value: null }], portal));
    expect(await ids()).toEqual([people[0], people[2]]);
    ok(await save('oh24', 'oh1', id, [{ action: 'remove', key: 0, value: null }], portal));
    expect(await ids()).toEqual([people[2]]);

    ok(
      await save(
        'oh24',
        'oh1',
        id,
        [
          {
            action: 'set_data',
            value: people.map((p) => ({ section_tipo: 'rsc197', section_id: String(p) })),
          },
        ],
        portal,
      ),
    );
    const afterSet = (await stored('oh1', id, 'relation', 'oh24')).items;
    expect(afterSet.map((l) => l.section_id)).toEqual(people);
    // Ids minted from the counter, never reused; the kept locator kept its id; section_id an integer.
    expect(new Set(afterSet.map((l) => l.id)).size).toBe(3);
    expect(afterSet.every((l) => typeof l.section_id === 'number' && l.from_component_tipo === 'oh24')).toBe(
      true,
    );

    const added = await save(
      'oh24',
      'oh1',
      id,
      [{ action: 'add_new_element', id: null, value: 'rsc197' }],
      portal,
    );
    ok(added);
    expect(Number.isInteger(added.body.created_section_id)).toBe(true);
    const created = added.body.created_section_id as number;
    expect(echoItem(added, 'oh24', id).pagination).toMatchObject({ total: 4, limit: 2, offset: 2 });
    expect(await ids()).toEqual([...people, created]);
    const { rowCount } = await db().query(
      `SELECT 1 FROM matrix WHERE section_tipo = 'rsc197' AND section_id = $1`,
      [created],
    );
    expect(rowCount).toBe(1);

    const wrongTarget = await save(
      'oh24',
      'oh1',
      id,
      [{ action: 'add_new_element', value: 'rsc170' }],
      portal,
    );
    expect(wrongTarget.status).toBe(400);
    expect(wrongTarget.body.error.code).toBe('validation.locator_target');
    expect(wrongTarget.body.error.message).toContain('oh24');
  });

  it('sort_by_column orders a portal by a column of its targets (empty values last)', async () => {
    const id = await create('oh1');
    const people: number[] = [];
    for (const name of ['Zoe', '', 'Ana', 'Marta']) {
      const person = await create('rsc197');
      if (name) ok(await save('rsc85', 'rsc197', person, [{ action: 'insert', value: { value: name } }]));
      people.push(person);
    }
    ok(
      await save('oh24', 'oh1', id, [
        { action: 'set_data', value: people.map((p) => ({ section_tipo: 'rsc197', section_id: p })) },
      ]),
    );
    ok(
      await save('oh24', 'oh1', id, [
        { action: 'sort_by_column', value: { tipo: 'rsc85', direction: 'ASC' } },
      ]),
    );
    const order = (await stored('oh1', id, 'relation', 'oh24')).items.map((l) => l.section_id);
    expect(order).toEqual([people[2], people[3], people[0], people[1]]);
    const badColumn = await save('oh24', 'oh1', id, [{ action: 'sort_by_column', value: { tipo: 'oh14' } }]);
    expect(badColumn.status).toBe(400);
    expect(badColumn.body.error.message).toContain('oh14');
  });

  it('a date (oh29): real calendar values only, time computed; an invalid date writes nothing', async () => {
    const id = await create('oh1');
    const saved = await save(
      'oh29',
      'oh1',
      id,
      [
        {
          action: 'insert',
          id: null,
          value: { id: null, lang: 'lg-nolan', start: { year: 1931, month: 4, day: 14 } },
        },
      ],
      { model: 'component_date' },
    );
    ok(saved);
    const items = (await stored('oh1', id, 'date', 'oh29')).items;
    expect(items).toEqual([
      {
        id: 1,
        lang: 'lg-nolan',
        start: { year: 1931, month: 4, day: 14, time: (1931 * 372 + 3 * 31 + 13) * 86400 },
      },
    ]);
    ok(
      await save(
        'oh29',
        'oh1',
        id,
        [
          {
            action: 'update',
            id: 1,
            value: { start: { year: 1931 }, end: { year: 1939, month: 4, day: 1, hour: 12 } },
          },
        ],
        { model: 'component_date' },
      ),
    );
    const range = (await stored('oh1', id, 'date', 'oh29')).items[0];
    expect(range.start.time).toBe(1931 * 372 * 86400);
    expect(range.end.time).toBe((1939 * 372 + 3 * 31) * 86400 + 12 * 3600);

    const history = await historyCount('oh1', id, 'oh29');
    for (const start of [
      { year: 2023, month: 2, day: 29 },
      { year: 2024, month: 13 },
      { month: 1 },
      { year: 'soon' },
      { year: 2020, day: 3 },
    ]) {
      const refused = await save('oh29', 'oh1', id, [{ action: 'insert', value: { start } }], {
        model: 'component_date',
      });
      expect(refused.status, JSON.stringify(start)).toBe(400);
      expect(refused.body.error.code).toBe('validation.invalid_date_format');
      expect(refused.body.error.message).toContain('oh29');
    }
    const backwards = await save('oh29', 'oh1', id, [
      { action: 'insert', value: { start: { year: 2000 }, end: { year: 1999 } } },
    ]);
    expect(backwards.body.error.code).toBe('validation.invalid_date_format');
    expect((await stored('oh1', id, 'date', 'oh29')).items).toEqual([range]);
    expect(await historyCount('oh1', id, 'oh29')).toBe(history);
  });

  it('refuses bad values, unknown records and wrong types with a 4xx naming the field, writing nothing', async () => {
    const id = await create('oh1');
    ok(await save('oh14', 'oh1', id, [{ action: 'insert', value: { value: 'kept' } }]));
    const before = await db().query(
      'SELECT string, relation, meta FROM matrix WHERE section_tipo = $1 AND section_id = $2',
      ['oh1', id],
    );
    const historyBefore = await historyCount('oh1', id, 'oh14');
    const cases: [string, Record<string, unknown>, number, string][] = [
      [
        'locator to a missing record',
        saveBody('oh24', 'oh1', id, [
          { action: 'insert', value: { section_tipo: 'rsc197', section_id: 999999 } },
        ]),
        400,
        'validation.locator_target',
      ],
      [
        'locator into a section the portal does not link',
        saveBody('oh24', 'oh1', id, [{ action: 'insert', value: { section_tipo: 'oh1', section_id: id } }]),
        400,
        'validation.locator_target',
      ],
      [
        'number as text',
        saveBody('oh14', 'oh1', id, [{ action: 'insert', value: { value: 42 } }]),
        400,
        'validation.invalid_value',
      ],
      [
        'changed_data not an array',
        saveBody('oh14', 'oh1', id, {} as unknown as unknown[]),
        400,
        'rqo.invalid_field',
      ],
      [
        'unknown change action',
        saveBody('oh14', 'oh1', id, [{ action: 'explode', value: 1 }]),
        400,
        'rqo.invalid_field',
      ],
      [
        'id not an integer',
        saveBody('oh14', 'oh1', id, [{ action: 'update', id: 'one', value: 'x' }]),
        400,
        'rqo.invalid_field',
      ],
      [
        'update of an item that does not exist',
        saveBody('oh14', 'oh1', id, [{ action: 'update', id: 77, value: 'x' }]),
        409,
        'resource.conflict',
      ],
      [
        'sort with keys out of range',
        saveBody('oh14', 'oh1', id, [{ action: 'sort_data', value: { source_key: 0, target_key: 9 } }]),
        400,
        'validation.invalid_value',
      ],
      [
        'a later bad change in the same save',
        saveBody('oh14', 'oh1', id, [
          { action: 'insert', value: { value: 'ok' } },
          { action: 'insert', value: { value: [] } },
        ]),
        400,
        'validation.invalid_value',
      ],
      [
        'record that does not exist',
        saveBody('oh14', 'oh1', 987654, [{ action: 'insert', value: { value: 'x' } }]),
        404,
        'resource.not_found',
      ],
      [
        'a component of another section',
        saveBody('rsc85', 'oh1', id, [{ action: 'insert', value: { value: 'x' } }]),
        400,
        'rqo.invalid_field',
      ],
      [
        'section_id missing',
        { action: 'save', source: { tipo: 'oh14', section_tipo: 'oh1' }, data: { changed_data: [] } },
        400,
        'rqo.invalid_field',
      ],
      [
        'too many changes',
        saveBody(
          'oh14',
          'oh1',
          id,
          Array.from({ length: 1001 }, () => ({ action: 'clear' })),
        ),
        400,
        'rqo.invalid_field',
      ],
      [
        'clear then a sort without keys',
        saveBody('oh14', 'oh1', id, [{ action: 'clear' }, { action: 'sort_data', value: null }]),
        400,
        'validation.invalid_value',
      ],
    ];
    for (const [name, body, status, code] of cases) {
      const answer = await root.post(body);
      expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(status);
      expect(answer.body.error.code, name).toBe(code);
    }
    const user = await create('dd128');
    const select = await save('dd1725', 'dd128', user, [
      { action: 'insert', value: { section_tipo: 'dd234', section_id: 404 } },
    ]);
    expect(select.status).toBe(400);
    expect(select.body.error).toMatchObject({ code: 'validation.invalid_value' });
    expect(select.body.error.message).toContain('datalist');
    const email = await save('dd134', 'dd128', user, [
      { action: 'insert', value: { value: 'not an email' } },
    ]);
    expect(email.body.error.code).toBe('validation.invalid_value');
    expect(email.body.error.message).toContain('dd134');
    // The activity log is consultation-only.
    const activity = await save('dd545', 'dd542', 1, [{ action: 'insert', value: { value: 'x' } }]);
    expect(activity.status).toBe(403);
    expect(activity.body.error.code).toBe('perm.section_not_writable');

    const after = await db().query(
      'SELECT string, relation, meta FROM matrix WHERE section_tipo = $1 AND section_id = $2',
      ['oh1', id],
    );
    expect(after.rows).toEqual(before.rows);
    expect(await historyCount('oh1', id, 'oh14')).toBe(historyBefore);
    expect(await historyCount('oh1', id, 'oh24')).toBe(0);
  });

  it('no client input gives a 5xx: odd values are 4xx refusals and write nothing', async () => {
    const id = await create('oh1');
    const deep = Array.from({ length: 200 }).reduce<unknown>((inner) => [inner], 'x');
    const odd: [string, unknown][] = [
      ['a NUL character', saveBody('oh14', 'oh1', id, [{ action: 'insert', value: { value: 'a\u0000b' } }])],
      [
        'a NUL character in a key',
        saveBody('oh14', 'oh1', id, [{ action: 'insert', value: { 'a\u0000': 1 } }]),
      ],
      [
        'a record id beyond 32 bits in a locator',
        saveBody('oh24', 'oh1', id, [
          { action: 'insert', value: { section_tipo: 'rsc197', section_id: 99_999_999_999 } },
        ]),
      ],
      ['a record id beyond 32 bits', saveBody('oh14', 'oh1', 99_999_999_999, [{ action: 'clear' }])],
      ['deep nesting', saveBody('oh14', 'oh1', id, [{ action: 'insert', value: deep }])],
      ['a change that is null', saveBody('oh14', 'oh1', id, [null])],
      ['source.tipo a number', saveBody(14 as unknown as string, 'oh1', id, [{ action: 'clear' }])],
      [
        'source.lang a number',
        {
          ...saveBody('oh14', 'oh1', id, [{ action: 'clear' }]),
          source: { tipo: 'oh14', section_tipo: 'oh1', section_id: id, lang: 5 },
        },
      ],
      [
        'pagination.limit 0',
        saveBody('oh24', 'oh1', id, [{ action: 'clear' }], { data: { pagination: { limit: 0 } } }),
      ],
      [
        'data not an object',
        { action: 'save', source: { tipo: 'oh14', section_tipo: 'oh1', section_id: id }, data: 'x' },
      ],
      [
        'a date with an object year',
        saveBody('oh29', 'oh1', id, [{ action: 'insert', value: { start: { year: { $gt: 1 } } } }]),
      ],
      [
        'set_data not an array',
        saveBody('oh24', 'oh1', id, [{ action: 'set_data', value: { section_tipo: 'rsc197' } }]),
      ],
      ['a media value', saveBody('rsc35', 'rsc167', 1, [{ action: 'insert', value: { value: 'x' } }])],
    ];
    for (const [name, body] of odd) {
      const answer = await root.post(body);
      expect(answer.status, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBeGreaterThanOrEqual(
        400,
      );
      expect(answer.status, name).toBeLessThan(500);
    }
    // Random change objects on every kind of component: never a 5xx.
    const tipos = ['oh14', 'oh16', 'oh24', 'oh29', 'oh22'];
    const change = fc.record({
      action: fc.constantFrom(
        'insert',
        'update',
        'remove',
        'set_data',
        'clear',
        'sort_data',
        'sort_by_column',
        'add_new_element',
        'nope',
      ),
      id: fc.option(fc.oneof(fc.nat(4), fc.string()), { nil: undefined }),
      key: fc.option(fc.integer({ min: -1, max: 4 }), { nil: undefined }),
      value: fc.jsonValue({ maxDepth: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...tipos),
        fc.array(change, { minLength: 1, maxLength: 3 }),
        async (tipo, changes) => {
          const answer = await save(tipo, 'oh1', id, changes, { lang: 'lg-eng' });
          expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('add_new_element retried with the same idempotency_key creates one record', async () => {
    const id = await create('oh1');
    const body = {
      ...saveBody('oh24', 'oh1', id, [{ action: 'add_new_element', id: null, value: 'rsc197' }], {
        model: 'component_portal',
      }),
      idempotency_key: `add-${id}`,
    };
    const first = ok(await root.post(body));
    const retry = ok(await root.post(body));
    expect(retry.created_section_id).toBe(first.created_section_id);
    expect((await stored('oh1', id, 'relation', 'oh24')).items).toHaveLength(1);
    expect(await historyCount('oh1', id, 'oh24')).toBe(1);
  });

  it('search mode persists nothing and echoes the value', async () => {
    const id = await create('oh1');
    const answer = await save('oh14', 'oh1', id, [{ action: 'insert', value: '*WC*' }], { mode: 'search' });
    expect(echoItem(ok(answer) && answer, 'oh14', id)).toMatchObject({ mode: 'search', entries: ['*WC*'] });
    expect((await stored('oh1', id, 'string', 'oh14')).items).toEqual([]);
    expect(await historyCount('oh1', id, 'oh14')).toBe(0);
  });

  it('observers: the computed full name follows name and surname in the same transaction, with its own history', async () => {
    const person = await create('rsc197');
    ok(await save('rsc85', 'rsc197', person, [{ action: 'insert', value: { value: 'Ada' } }]));
    expect((await stored('rsc197', person, 'string', 'rsc9001')).items).toEqual([
      { id: 1, lang: 'lg-nolan', value: 'Ada' },
    ]);
    ok(await save('rsc86', 'rsc197', person, [{ action: 'insert', value: { value: 'Lovelace' } }]));
    expect((await stored('rsc197', person, 'string', 'rsc9001')).items).toEqual([
      { id: 1, lang: 'lg-nolan', value: 'Ada Lovelace' },
    ]);
    expect(await historyCount('rsc197', person, 'rsc9001')).toBe(2);
    const direct = await save('rsc9001', 'rsc197', person, [{ action: 'insert', value: { value: 'x' } }]);
    expect(direct.status).toBe(400);
    expect(direct.body.error.message).toContain('rsc85');
    // What a client renders from: the computed component is offered read-only (root may write
    // the name it is made of), so no cataloguer is handed a field whose saves are refused.
    const read = ok(
      await root.post({
        action: 'read',
        source: {
          section_tipo: 'rsc197',
          tipo: 'rsc197',
          model: 'section',
          mode: 'edit',
          lang: 'lg-eng',
          section_id: person,
        },
        sqo: {
          section_tipo: ['rsc197'],
          limit: 1,
          offset: 0,
          filter_by_locators: [{ section_tipo: 'rsc197', section_id: person }],
        },
      }),
    );
    const permissionsOf = (tipo: string) =>
      read.data.context.find((c: { tipo: string }) => c.tipo === tipo)?.permissions as number | undefined;
    expect(permissionsOf('rsc85')).toBeGreaterThanOrEqual(2);
    expect(permissionsOf('rsc9001')).toBe(1);
  });

  it('inverse references: a term’s parent and the parent’s children mirror each other', async () => {
    const [parent, child, other] = [await create('ts1'), await create('ts1'), await create('ts1')];
    const rel = { model: 'component_relation_parent' };
    ok(
      await save(
        'hierarchy36',
        'ts1',
        child,
        [{ action: 'insert', value: { section_tipo: 'ts1', section_id: parent } }],
        rel,
      ),
    );
    expect((await stored('ts1', child, 'relation', 'hierarchy36')).items).toEqual([
      { id: 1, type: 'dd47', section_tipo: 'ts1', section_id: parent, from_component_tipo: 'hierarchy36' },
    ]);
    expect((await stored('ts1', parent, 'relation', 'hierarchy49')).items).toEqual([
      { id: 1, type: 'dd48', section_tipo: 'ts1', section_id: child, from_component_tipo: 'hierarchy49' },
    ]);
    expect(await historyCount('ts1', parent, 'hierarchy49')).toBe(1);

    // The other way round: adding a child sets its parent.
    ok(
      await save('hierarchy49', 'ts1', parent, [
        { action: 'insert', value: { section_tipo: 'ts1', section_id: other } },
      ]),
    );
    expect((await stored('ts1', other, 'relation', 'hierarchy36')).items).toMatchObject([
      { section_id: parent, type: 'dd47' },
    ]);

    // Unlinking removes the mirror too.
    ok(await save('hierarchy36', 'ts1', child, [{ action: 'clear' }], rel));
    expect((await stored('ts1', parent, 'relation', 'hierarchy49')).items.map((l) => l.section_id)).toEqual([
      other,
    ]);
    const self = await save('hierarchy36', 'ts1', child, [
      { action: 'insert', value: { section_tipo: 'ts1', section_id: child } },
    ]);
    expect(self.status).toBe(400);
  });

  it('two sessions saving the same component at once lose nothing: 10 values, 10 ids, 10 history rows', async () => {
    const id = await create('oh1');
    const other = await rootBrowser(work);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        save(
          'oh14',
          'oh1',
          id,
          [{ action: 'insert', id: null, value: { id: null, lang: 'lg-nolan', value: `v${n}` } }],
          {},
          n % 2 ? other : root,
        ),
      ),
    );
    for (const a of answers) ok(a);
    const items = (await stored('oh1', id, 'string', 'oh14')).items;
    expect(items.map((i) => i.value).sort()).toEqual(Array.from({ length: 10 }, (_, n) => `v${n}`).sort());
    expect(new Set(items.map((i) => i.id)).size).toBe(10);
    expect(await historyCount('oh1', id, 'oh14')).toBe(10);
  });

  it('a failure inside the transaction (the history insert) leaves the row as it was, with no history or activity row', async () => {
    const id = await create('oh1');
    ok(await save('oh14', 'oh1', id, [{ action: 'insert', value: { value: 'before' } }]));
    const row = await db().query(
      'SELECT string, meta, modified_at FROM matrix WHERE section_tipo = $1 AND section_id = $2',
      ['oh1', id],
    );
    failInsideTransaction = /INSERT INTO matrix_time_machine/;
    try {
      const failed = await save('oh14', 'oh1', id, [{ action: 'update', id: 1, value: { value: 'after' } }]);
      expect(failed.status).toBe(500);
      expect(failed.body.ok).toBe(false);
    } finally {
      failInsideTransaction = undefined;
    }
    const after = await db().query(
      'SELECT string, meta, modified_at FROM matrix WHERE section_tipo = $1 AND section_id = $2',
      ['oh1', id],
    );
    expect(after.rows).toEqual(row.rows);
    expect(await historyCount('oh1', id, 'oh14')).toBe(1);
    expect(await saveActivities('oh1', id, 'oh14')).toBe(1);
    // The database is usable afterwards.
    ok(await save('oh14', 'oh1', id, [{ action: 'update', id: 1, value: { value: 'after' } }]));
  });

  it('a write the database aborts to break a deadlock answers a retryable 409 record.write_conflict and keeps nothing', async () => {
    const id = await create('oh1');
    ok(await save('oh14', 'oh1', id, [{ action: 'insert', value: { value: 'before the deadlock' } }]));
    failInsideTransaction = /INSERT INTO matrix_time_machine/;
    injectedCode = '40P01';
    try {
      const aborted = await save('oh14', 'oh1', id, [
        { action: 'update', id: 1, value: { value: 'after the deadlock' } },
      ]);
      expect(aborted.status).toBe(409);
      expect(aborted.body.error).toMatchObject({ code: 'record.write_conflict', retryable: true });
    } finally {
      failInsideTransaction = undefined;
      injectedCode = undefined;
    }
    expect(await historyCount('oh1', id, 'oh14')).toBe(1);
    const read = await db().query<{ value: string }>(
      "SELECT string->'oh14'->0->>'value' AS value FROM matrix WHERE section_tipo = $1 AND section_id = $2",
      ['oh1', id],
    );
    expect(read.rows[0]?.value).toBe('before the deadlock');
  });
});
