/**
 * dd_core_api.read and the context actions over HTTP, on PGlite and PostgreSQL: section lists and
 * edit reads shaped as the stock client reads them (the bodies test/work/stock-client.http.test.ts
 * replays), portal targets resolved one level, translatable slices, permissions (levels, project
 * scope), passwords never read, and a fixed number of statements per page whatever its size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { recordComponentHistory } from '../../src/work/store/history.js';
import type { SqlClient, SqlQueryable } from '../../src/work/store/sql-client.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile, insertProject } from '../helpers/work-permissions.js';
import { insertRecordValues, locator, text } from '../helpers/work-records.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();

/** Counts every statement the server runs, so a test can compare two reads. */
function countingDb(counter: { n: number; sql: string[] }) {
  return (db: SqlClient): SqlClient => {
    const wrap = (q: SqlQueryable): SqlQueryable => ({
      query: (sql, params) => {
        counter.n += 1;
        counter.sql.push(sql);
        return q.query(sql, params);
      },
    });
    return {
      engine: db.engine,
      query: wrap(db).query,
      transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
      close: () => db.close(),
    };
  };
}

const listRead = (sqo: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  action: 'read',
  source: {
    typo: 'source',
    type: 'section',
    action: 'search',
    model: 'section',
    tipo: 'oh1',
    section_tipo: 'oh1',
    section_id: null,
    mode: 'list',
    lang: 'lg-eng',
  },
  sqo: { section_tipo: ['oh1'], limit: 10, offset: 0, ...sqo },
  ...extra,
});

const editRead = (id: number, lang = 'lg-eng') => ({
  action: 'read',
  source: {
    typo: 'source',
    type: 'section',
    action: 'search',
    model: 'section',
    tipo: 'oh1',
    section_tipo: 'oh1',
    section_id: id,
    mode: 'edit',
    lang,
  },
  sqo: {
    section_tipo: ['oh1'],
    limit: 1,
    offset: 0,
    filter_by_locators: [{ section_tipo: 'oh1', section_id: id }],
  },
});

// biome-ignore lint/suspicious/noExplicitAny: envelope items are read loosely
type Item = any;
const itemsOf = (body: Item, tipo: string): Item[] =>
  body.data.data.filter((d: Item) => d.tipo === tipo && d.typo !== 'sections');
const sectionsItem = (body: Item) => body.data.data.find((d: Item) => d.typo === 'sections');

describe.each(workEngineCases())('read ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  const statements = { n: 0, sql: [] as string[] };

  beforeAll(async () => {
    work = await startTestWorkServer(engine, {}, { wrapDb: countingDb(statements) });
    const db = work.server.db;
    await insertProject(db, 2);
    for (const [id, name, surname] of [
      [1, 'Ana', 'Ruiz'],
      [2, 'Joan', 'Puig'],
      [3, 'Élodie', 'Martin'],
    ] as const) {
      await insertRecordValues(db, ontology, 'rsc197', id, { rsc85: [text(name)], rsc86: [text(surname)] });
    }
    for (let id = 1; id <= 12; id += 1) {
      await insertRecordValues(
        db,
        ontology,
        'oh1',
        id,
        {
          oh14: [text(`C-${String(id).padStart(2, '0')}`)],
          ...(id <= 3 ? { oh16: [text(`Title ${id}`, 'lg-eng', 1), text(`Título ${id}`, 'lg-spa', 1)] } : {}),
          ...(id === 1
            ? {
                oh24: [
                  { ...locator('oh24', 'rsc197', 1), id: 1 },
                  { ...locator('oh24', 'rsc197', 2), id: 2 },
                ],
              }
            : {}),
          ...(id === 2 ? { oh24: [{ ...locator('oh24', 'rsc197', 3), id: 1 }] } : {}),
        },
        [id === 12 ? 2 : 1],
      );
    }
    // Profile 3: read-only (level 1) on interviews and people; profile 4: nothing.
    await insertProfile(db, 3, [
      ...accessItemsUnder(ontology, 'oh1', 1),
      ...accessItemsUnder(ontology, 'rsc197', 1),
    ]);
    await insertProfile(db, 4, []);
    await insertLoginUser(db, 5, {
      username: 'cata',
      fullName: 'Carla Tàpies',
      password: 'cataloguer password',
      profile: 2,
      projects: [1],
    });
    await insertLoginUser(db, 6, {
      username: 'reader',
      password: 'reader password',
      profile: 3,
      projects: [1, 2],
    });
    await insertLoginUser(db, 7, {
      username: 'nobody',
      password: 'nobody password',
      profile: 4,
      projects: [1],
    });
    root = await rootBrowser(work);
  });
  afterAll(async () => {
    await work?.stop();
  });

  const as = async (username: string, password: string) => {
    const b = work.browser();
    const answer = await b.login(username, password);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return b;
  };

  it('a list read answers the page as the stock client reads it (step 5)', async () => {
    const answer = await root.post(
      listRead(
        {},
        {
          show: {
            ddo_map: [
              {
                tipo: 'oh14',
                section_tipo: 'oh1',
                parent: 'self',
                mode: 'list',
                model: 'component_input_text',
                label: 'Code',
              },
              {
                tipo: 'oh16',
                section_tipo: 'oh1',
                parent: 'self',
                mode: 'list',
                model: 'component_input_text',
                label: 'Title',
              },
              {
                tipo: 'oh24',
                section_tipo: 'oh1',
                parent: 'self',
                mode: 'list',
                model: 'component_portal',
                label: 'Informants',
              },
              {
                tipo: 'rsc85',
                section_tipo: 'rsc197',
                parent: 'oh24',
                mode: 'list',
                model: 'component_input_text',
                label: 'Name',
              },
            ],
            sqo_config: { operator: '$and', limit: 10, offset: 0, full_count: false },
          },
        },
      ),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const sections = sectionsItem(answer.body);
    expect(answer.body.data.data[0]).toBe(sections);
    expect(sections.tipo).toBe('oh1');
    expect(sections.entries.map((e: Item) => e.section_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(sections.entries.map((e: Item) => e.paginated_key)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

    const section = answer.body.data.context.find((c: Item) => c.tipo === 'oh1');
    expect(section).toMatchObject({
      typo: 'ddo',
      type: 'section',
      model: 'section',
      permissions: 3,
      mode: 'list',
    });
    expect(section.request_config[0]).toMatchObject({ api_engine: 'dedalo', type: 'main' });
    expect(section.request_config[0].sqo.section_tipo).toEqual([{ tipo: 'oh1', label: 'Interviews' }]);

    const codes = itemsOf(answer.body, 'oh14');
    expect(codes.map((i: Item) => i.entries[0].value)).toEqual(
      ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10'].map((n) => `C-${n}`),
    );
    // Empty components are [] (WC-001); translatable ones carry the data language only.
    const titles = itemsOf(answer.body, 'oh16');
    expect(titles.find((i: Item) => i.section_id === 1).entries).toEqual([
      { id: 1, lang: 'lg-eng', value: 'Title 1' },
    ]);
    expect(titles.find((i: Item) => i.section_id === 5).entries).toEqual([]);

    const portal = itemsOf(answer.body, 'oh24').find((i: Item) => i.section_id === 1);
    expect(portal.pagination).toEqual({ total: 2, limit: 10, offset: 0 });
    expect(portal.entries.map((l: Item) => [l.section_tipo, l.section_id, l.paginated_key])).toEqual([
      ['rsc197', 1, 0],
      ['rsc197', 2, 1],
    ]);
    // The portal's targets come along, with their own context, under the portal.
    const names = itemsOf(answer.body, 'rsc85');
    expect(
      names.map((i: Item) => [i.section_tipo, i.section_id, i.entries[0].value, i.parent_tipo]).sort(),
    ).toEqual([
      ['rsc197', 1, 'Ana', 'oh24'],
      ['rsc197', 2, 'Joan', 'oh24'],
      ['rsc197', 3, 'Élodie', 'oh24'],
    ]);
    expect(names.find((i: Item) => i.section_id === 3).parent_section_id).toBe(2);
    expect(answer.body.data.context.find((c: Item) => c.tipo === 'rsc85')).toMatchObject({
      section_tipo: 'rsc197',
      parent: 'oh24',
      permissions: 3,
    });
  });

  it('an edit read lists every component in ontology order, empty ones as [] (step 6)', async () => {
    const answer = await root.post(editRead(4));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(sectionsItem(answer.body).entries).toEqual([
      { section_tipo: 'oh1', section_id: 4, paginated_key: 0 },
    ]);
    const own = answer.body.data.data.filter((d: Item) => d.section_tipo === 'oh1' && d.typo !== 'sections');
    expect(own.map((d: Item) => d.tipo)).toEqual(ontology.sectionComponents('oh1').map((c) => c.tipo));
    expect(own.find((d: Item) => d.tipo === 'oh23').entries).toEqual([]);
    expect(own.find((d: Item) => d.tipo === 'oh14')).toMatchObject({
      section_id: 4,
      mode: 'edit',
      lang: 'lg-nolan',
    });
    expect(answer.body.data.context.find((c: Item) => c.tipo === 'oh16')).toMatchObject({
      translatable: true,
      lang: 'lg-eng',
    });
  });

  it('reads translatable values in the requested language', async () => {
    const answer = await root.post(editRead(2, 'lg-spa'));
    expect(itemsOf(answer.body, 'oh16')[0]).toMatchObject({
      lang: 'lg-spa',
      entries: [{ value: 'Título 2' }],
    });
  });

  it('filters with the stock search panel sqo (step 9) and counts a page independently of its size', async () => {
    const filter = {
      $and: [
        {
          q: 'c-1',
          q_operator: null,
          type: 'jsonb',
          lang: 'all',
          path: [
            { section_tipo: 'oh1', component_tipo: 'oh14', model: 'component_input_text', name: 'Code' },
          ],
        },
      ],
    };
    const answer = await root.post(listRead({ filter }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(sectionsItem(answer.body).entries.map((e: Item) => e.section_id)).toEqual([10, 11, 12]);

    const before = statements.n;
    await root.post(listRead({ limit: 2 }));
    const small = statements.n - before;
    const middle = statements.n;
    await root.post(listRead({ limit: 12 }));
    const large = statements.n - middle;
    expect(large).toBe(small);
  });

  it("reads the session and the ontology version in one statement, the request's first", async () => {
    const before = statements.sql.length;
    const answer = await root.post(listRead({ limit: 2 }));
    expect(answer.status).toBe(200);
    const sent = statements.sql.slice(before);
    const versionReads = sent.filter((sql) => /\bontology_version\b/.test(sql));
    expect(versionReads).toHaveLength(1);
    expect(sent[0]).toBe(versionReads[0]);
    expect(sent[0]).toMatch(/\bFROM sessions\b/);
  });

  it("reads the list's records without the columns no list column shows (meta, dates)", async () => {
    const before = statements.sql.length;
    const answer = await root.post(listRead({ limit: 3 }));
    expect(answer.status).toBe(200);
    const rowReads = statements.sql
      .slice(before)
      .filter((sql) => /FROM matrix WHERE section_tipo = \$1 AND section_id = ANY/.test(sql));
    expect(rowReads.length).toBeGreaterThan(0);
    for (const sql of rowReads) {
      expect(sql).not.toMatch(/\b(meta|created_at|modified_at)\b/);
      expect(sql).toMatch(/\bversions\b/);
    }
    // The page still shows every list column's values (the code, a string column, here).
    const codes = (answer.body.data.data as Item[]).filter((i) => i.tipo === 'oh14');
    expect(codes.length).toBe(3);
    expect(codes.every((i) => Array.isArray(i.entries) && i.entries.length === 1)).toBe(true);
  });

  it('refuses a limit over 1000 and bad fields with a 400 naming them', async () => {
    const over = await root.post(listRead({ limit: 1001 }));
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('search.invalid_sqo');
    expect(over.body.error.message).toContain('limit');
    for (const bad of [
      { action: 'read', source: {} },
      { action: 'read', source: { section_tipo: 'oh1', mode: 'sideways' } },
      { action: 'read', source: { section_tipo: 'oh1', lang: 'lg-xxx' } },
      { action: 'read', source: { section_tipo: 'oh1' }, show: { ddo_map: [{ tipo: 'not a tipo' }] } },
      {
        action: 'read',
        source: { section_tipo: 'oh1', section_id: 'x', model: 'component_input_text', tipo: 'oh14' },
      },
    ]) {
      const answer = await root.post(bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
    }
    const unknown = await root.post({ action: 'read', source: { section_tipo: 'zz9' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('element.unknown_tipo');
  });

  it('reads one portal page with its targets (step 12)', async () => {
    const answer = await root.post({
      action: 'read',
      source: {
        typo: 'source',
        type: 'component',
        action: 'get_data',
        model: 'component_portal',
        tipo: 'oh24',
        section_tipo: 'oh1',
        section_id: 1,
        mode: 'edit',
        lang: 'lg-nolan',
      },
      sqo: {
        section_tipo: ['rsc197'],
        limit: 1,
        offset: 1,
        filter_by_locators: [{ section_tipo: 'oh1', section_id: 1 }],
      },
      show: {
        ddo_map: [
          {
            tipo: 'rsc85',
            section_tipo: 'rsc197',
            parent: 'oh24',
            mode: 'list',
            model: 'component_input_text',
          },
        ],
        sqo_config: { limit: 1, offset: 1 },
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const portal = itemsOf(answer.body, 'oh24')[0];
    expect(portal.pagination).toEqual({ total: 2, limit: 1, offset: 1 });
    expect(portal.entries).toEqual([
      expect.objectContaining({ section_tipo: 'rsc197', section_id: 2, paginated_key: 1 }),
    ]);
    expect(itemsOf(answer.body, 'rsc85').map((i: Item) => i.entries[0].value)).toEqual(['Joan']);
    expect(answer.body.data.context.map((c: Item) => c.tipo).sort()).toEqual(['oh24', 'rsc85']);
  });

  it('resolves locators the client holds without saving them (resolve_data)', async () => {
    const answer = await root.post({
      action: 'read',
      source: {
        action: 'resolve_data',
        model: 'component_portal',
        tipo: 'oh24',
        section_tipo: 'oh1',
        section_id: 5,
        mode: 'search',
        value: [locator('oh24', 'rsc197', 3)],
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(itemsOf(answer.body, 'rsc85').map((i: Item) => i.entries[0].value)).toEqual(['Élodie']);
    const stored = await root.post(editRead(5));
    expect(itemsOf(stored.body, 'oh24')[0].entries).toEqual([]);
  });

  it('enforces read levels and project scope', async () => {
    const nobody = await as('nobody', 'nobody password');
    const refused = await nobody.post(listRead());
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('perm.denied');

    const cata = await as('cata', 'cataloguer password');
    const page = await cata.post(listRead({ limit: 20 }));
    expect(page.status).toBe(200);
    // Record 12 is in project 2 only: outside the cataloguer's projects.
    expect(sectionsItem(page.body).entries.map((e: Item) => e.section_id)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    ]);
    expect(page.body.data.context.find((c: Item) => c.tipo === 'oh1').permissions).toBe(2);
    const outside = await cata.post({
      action: 'read',
      source: { section_tipo: 'oh1', tipo: 'oh14', section_id: 12, mode: 'edit' },
    });
    expect(outside.status).toBe(403);
    expect(outside.body.error.code).toBe('perm.out_of_scope');

    const reader = await as('reader', 'reader password');
    const all = await reader.post(listRead({ limit: 20 }));
    expect(sectionsItem(all.body).entries).toHaveLength(12);
    expect(all.body.data.context.find((c: Item) => c.tipo === 'oh1').permissions).toBe(1);
    // The cataloguer profile has no access to users: neither the section nor a filter through it.
    const users = await cata.post({ action: 'read', source: { section_tipo: 'dd128' } });
    expect(users.status).toBe(403);
    const through = await cata.post(listRead({ section_tipo: ['oh1', 'dd128'] }));
    expect(through.status).toBe(403);
  });

  it('never reads a password, not even as root', async () => {
    const answer = await root.post({
      action: 'read',
      source: { section_tipo: 'dd128', section_id: -1, mode: 'edit' },
      sqo: { section_tipo: ['dd128'], filter_by_locators: [{ section_tipo: 'dd128', section_id: -1 }] },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(JSON.stringify(answer.body)).not.toContain('$argon2id');
  });

  it('lists the records that point at a record (get_relation_list)', async () => {
    const answer = await root.post({
      action: 'read',
      source: { action: 'get_relation_list', section_tipo: 'rsc197', section_id: 1 },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.data[0].entries).toEqual([
      { section_tipo: 'oh1', section_id: 1, from_component_tipo: 'oh24' },
    ]);
  });

  it('reads a component history in the time-machine shape (step 16)', async () => {
    await recordComponentHistory(work.server.db, {
      key: { section_tipo: 'oh1', section_id: 3 },
      tipo: 'oh14',
      lang: 'lg-nolan',
      items: [text('C-03 old')],
      userId: -1,
      when: new Date('2026-01-02T03:04:05Z'),
    });
    const answer = await root.post({
      id: 'tm_oh1_3_oh14',
      action: 'read',
      source: {
        typo: 'source',
        type: 'section',
        action: 'search',
        model: 'section',
        tipo: 'oh1',
        section_tipo: 'oh1',
        section_id: 3,
        mode: 'tm',
        lang: 'lg-eng',
      },
      sqo: {
        id: 'tmp',
        mode: 'tm',
        section_tipo: ['oh1'],
        filter_by_locators: [{ section_tipo: 'oh1', section_id: 3, tipo: 'oh14', lang: 'lg-nolan' }],
        limit: 10,
        offset: 0,
        order: [{ direction: 'DESC', path: [{ component_tipo: 'id' }] }],
      },
      show: { ddo_map: [{ tipo: 'dd201', section_tipo: 'oh1', parent: 'oh1' }] },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const entries = sectionsItem(answer.body).entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ section_tipo: 'oh1', section_id: 3, matrix_id: expect.any(Number) });
    expect(itemsOf(answer.body, 'oh14')[0].entries).toEqual([text('C-03 old')]);
    expect(itemsOf(answer.body, 'dd201')[0].entries[0].start).toMatchObject({ year: 2026, month: 1, day: 2 });
    expect(itemsOf(answer.body, 'dd197')[0].entries[0]).toMatchObject({
      section_tipo: 'dd128',
      section_id: -1,
    });
  });

  it('says who made each change by name: full name, else username', async () => {
    const save = (userId: number, value: string, second: number) =>
      recordComponentHistory(work.server.db, {
        key: { section_tipo: 'oh1', section_id: 4 },
        tipo: 'oh14',
        lang: 'lg-nolan',
        items: [text(value)],
        userId,
        when: new Date(`2026-01-02T03:04:0${second}Z`),
      });
    await save(-1, 'by root', 1);
    await save(5, 'by cata', 2);
    await save(6, 'by reader', 3);
    const answer = await root.post({
      action: 'read',
      source: { tipo: 'oh1', section_tipo: 'oh1', model: 'section', mode: 'tm' },
      sqo: {
        mode: 'tm',
        section_tipo: ['oh1'],
        filter_by_locators: [{ section_tipo: 'oh1', section_id: 4 }],
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const who = itemsOf(answer.body, 'dd197').map((item: Item) => item.entries[0]);
    expect(itemsOf(answer.body, 'oh14').map((item: Item) => item.entries[0].value)).toEqual([
      'by reader',
      'by cata',
      'by root',
    ]);
    expect(who).toEqual([
      expect.objectContaining({ section_tipo: 'dd128', section_id: 6, label: 'reader', username: 'reader' }),
      expect.objectContaining({
        section_tipo: 'dd128',
        section_id: 5,
        label: 'Carla Tàpies',
        username: 'cata',
      }),
      expect.objectContaining({ section_tipo: 'dd128', section_id: -1, label: 'Root', username: 'root' }),
    ]);
  });

  it('answers element contexts and the search panel fields', async () => {
    const section = await root.post({ action: 'get_element_context', source: { tipo: 'oh1' } });
    expect(section.status).toBe(200);
    expect(section.body.data).toHaveLength(1);
    expect(section.body.data[0]).toMatchObject({
      tipo: 'oh1',
      type: 'section',
      mode: 'list',
      permissions: 3,
    });
    const portal = await root.post({
      action: 'get_element_context',
      source: { tipo: 'oh24', section_tipo: 'oh1', mode: 'edit' },
    });
    expect(portal.body.data[0]).toMatchObject({
      model: 'component_portal',
      target_sections: [{ tipo: 'rsc197', label: 'People' }],
    });
    expect((await root.post({ action: 'get_element_context', source: { tipo: 'zz99' } })).body.data).toEqual(
      [],
    );
    expect(
      (await root.post({ action: 'get_element_context', source: { model: 'tool_export' } })).body.data,
    ).toEqual([]);

    const panel = await root.post({
      action: 'get_section_elements_context',
      options: { ar_section_tipo: ['dd128'], skip_permissions: true },
    });
    expect(panel.status).toBe(200);
    const tipos = panel.body.data.map((c: Item) => c.tipo);
    expect(tipos).toContain('dd132');
    expect(tipos).not.toContain('dd133');
    const cata = await as('cata', 'cataloguer password');
    const refused = await cata.post({
      action: 'get_section_elements_context',
      options: { ar_section_tipo: ['dd128'], skip_permissions: true },
    });
    expect(refused.status).toBe(403);
    const own = await cata.post({
      action: 'get_section_elements_context',
      options: { ar_section_tipo: ['oh1'] },
    });
    expect(
      own.body.data.filter((c: Item) => c.type === 'component').every((c: Item) => c.permissions === 2),
    ).toBe(true);
  });

  it('puts the session csrf_token on every answer, a refusal included', async () => {
    const ok = await root.post(listRead({ limit: 1 }));
    expect(ok.body.csrf_token).toBe(root.csrfToken);
    const wrong = await root.post(listRead({ limit: 1 }), { csrf: 'not the token' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({
      ok: false,
      csrf_token: root.csrfToken,
      error: { code: 'auth.csrf_failed', retryable: true },
    });
  });
});
