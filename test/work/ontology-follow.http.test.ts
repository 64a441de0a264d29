/**
 * Everything follows the ontology without a restart: a section with components added by SQL to
 * dd_ontology while the server runs (one transaction, as an operator writes it) reaches the
 * permissions (an admin's profile grid lists it; a cataloguer sees nothing of it until their
 * profile grants it), the start menu, forms and lists, the search panel and SQO search, and the
 * rules its components carry (`mandatory`, `unique`); a component the publication map names
 * that leaves the ontology makes publishing refuse, before any write, naming it. On the real
 * server, over HTTP, on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { addNodes, removeNode, updateNode } from '../helpers/ontology-edits.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile } from '../helpers/work-permissions.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

// biome-ignore lint/suspicious/noExplicitAny: envelope items are read loosely
type Item = any;

const ontology = loadOntology();
const PASSWORD = 'follow test password';
const PROFILE_ID = 20;

/** The section the test adds: an area, a section, a mandatory + unique shelf mark, a note. */
const AREA = 'oh8800';
const SECTION = 'oh8801';
const SHELF_MARK = 'oh8802';
const NOTE = 'oh8803';
const NEW_NODES = [
  { tipo: AREA, parent: 'dd1', model: 'area', label: { 'lg-eng': 'Archive', 'lg-spa': 'Archivo' } },
  {
    tipo: SECTION,
    parent: AREA,
    model: 'section',
    label: { 'lg-eng': 'Recordings', 'lg-spa': 'Grabaciones' },
  },
  {
    tipo: SHELF_MARK,
    parent: SECTION,
    model: 'component_input_text',
    label: { 'lg-eng': 'Shelf mark', 'lg-spa': 'Signatura' },
    properties: { mandatory: true, unique: true },
  },
  {
    tipo: NOTE,
    parent: SECTION,
    model: 'component_input_text',
    label: { 'lg-eng': 'Note', 'lg-spa': 'Nota' },
    translatable: true,
  },
];

const start = (searchObj: Record<string, unknown> = {}) => ({
  action: 'start',
  options: { search_obj: searchObj, menu: true },
});
const elements = (sectionTipo: string) => ({
  action: 'get_section_elements_context',
  options: { section_tipo: sectionTipo },
});
const create = (sectionTipo: string) => ({ action: 'create', source: { section_tipo: sectionTipo } });
const save = (tipo: string, sectionId: number, changedData: unknown[], lang = 'lg-nolan') => ({
  action: 'save',
  source: { tipo, section_tipo: SECTION, section_id: sectionId, mode: 'edit', lang },
  data: { changed_data: changedData },
});
const listRead = (filter?: unknown) => ({
  action: 'read',
  source: {
    action: 'search',
    model: 'section',
    tipo: SECTION,
    section_tipo: SECTION,
    mode: 'list',
    lang: 'lg-eng',
  },
  sqo: { section_tipo: [SECTION], limit: 10, offset: 0, ...(filter ? { filter } : {}) },
});
const editRead = (id: number) => ({
  action: 'read',
  source: {
    action: 'search',
    model: 'section',
    tipo: SECTION,
    section_tipo: SECTION,
    section_id: id,
    mode: 'edit',
    lang: 'lg-eng',
  },
  sqo: {
    section_tipo: [SECTION],
    limit: 1,
    offset: 0,
    filter_by_locators: [{ section_tipo: SECTION, section_id: id }],
  },
});
const shelfMarkFilter = (q: string) => ({
  $and: [
    {
      q,
      q_operator: null,
      type: 'jsonb',
      lang: 'all',
      path: [
        {
          section_tipo: SECTION,
          component_tipo: SHELF_MARK,
          model: 'component_input_text',
          name: 'Shelf mark',
        },
      ],
    },
  ],
});

const menuTipos = (answer: { body: Item }): string[] =>
  answer.body.data.context.find((c: Item) => c.type === 'menu').tree.map((e: Item) => e.tipo);
const listedIds = (answer: { body: Item }): number[] =>
  answer.body.data.data.find((d: Item) => d.typo === 'sections').entries.map((e: Item) => e.section_id);
const stored = async (work: WorkServerHandle, id: number) => {
  const { rows } = await work.server.db.query<{ value: unknown }>(
    `SELECT string -> $3::text AS value FROM matrix WHERE section_tipo = $1 AND section_id = $2`,
    [SECTION, id, SHELF_MARK],
  );
  return rows[0]?.value ?? null;
};

describe.each(workEngineCases())('the ontology reaches everything without a restart ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let cata: WorkBrowser;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    // A cataloguer: level 2 on interviews only.
    await insertProfile(db, PROFILE_ID, accessItemsUnder(ontology, 'oh1', 2));
    await insertLoginUser(db, 30, {
      username: 'cata',
      password: PASSWORD,
      profile: PROFILE_ID,
      projects: [1],
    });
    root = await rootBrowser(work);
    cata = work.browser();
    expect((await cata.login('cata', PASSWORD)).status).toBe(200);
    // Both sessions have been served by the ontology as it stood before the change.
    expect(menuTipos(await root.post(start()))).not.toContain(SECTION);
    expect(menuTipos(await cata.post(start()))).toContain('oh1');
    await addNodes(db, NEW_NODES);
  }, 120_000);
  afterAll(async () => {
    await work?.stop();
  });

  it("an admin's profile grid lists the new section and its components (menu and elements context)", async () => {
    const menu = menuTipos(await root.post(start()));
    expect(menu).toEqual(expect.arrayContaining([AREA, SECTION]));
    // The grid's rows per section come from the section's elements context.
    const answer = await root.post(elements(SECTION));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.map((e: Item) => e.tipo)).toEqual(expect.arrayContaining([SHELF_MARK, NOTE]));
    expect(answer.body.data.find((e: Item) => e.tipo === SHELF_MARK).label).toBe('Shelf mark');
  });

  it('a cataloguer sees nothing of it and is refused until the profile grants it', async () => {
    expect(menuTipos(await cata.post(start()))).not.toContain(SECTION);
    expect(menuTipos(await cata.post(start()))).not.toContain(AREA);
    for (const body of [start({ t: SECTION }), create(SECTION), listRead(), elements(SECTION)]) {
      const answer = await cata.post(body);
      expect(answer.status, `${body.action}: ${JSON.stringify(answer.body)}`).toBe(403);
    }
    const rootRecord = (await root.post(create(SECTION))).body.data as number;
    const refused = await cata.post(
      save(NOTE, rootRecord, [{ action: 'insert', value: { value: 'x' } }], 'lg-eng'),
    );
    expect(refused.status).toBe(403);
  });

  it('once granted, the cataloguer creates, saves, lists and searches records of it', async () => {
    // The admin grants the section through the profile's grid (a save of dd774).
    const grant = await root.post({
      action: 'save',
      source: {
        tipo: 'dd774',
        section_tipo: 'dd234',
        section_id: PROFILE_ID,
        mode: 'edit',
        lang: 'lg-nolan',
      },
      data: {
        changed_data: [
          {
            action: 'set_data',
            value: [
              ...accessItemsUnder(ontology, 'oh1', 2),
              { tipo: AREA, section_tipo: AREA, value: 2 },
              { tipo: SECTION, section_tipo: SECTION, value: 2 },
              { tipo: SHELF_MARK, section_tipo: SECTION, value: 2 },
              { tipo: NOTE, section_tipo: SECTION, value: 2 },
            ],
          },
        ],
      },
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);

    const started = await cata.post(start({ t: SECTION }));
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(menuTipos(started)).toEqual(expect.arrayContaining([AREA, SECTION]));
    // The form's context: the section's show and search maps name the new components.
    const page = started.body.data.context.find((c: Item) => c.tipo === SECTION);
    const config = page.request_config[0];
    expect(config.show.ddo_map.map((d: Item) => d.tipo)).toEqual([SHELF_MARK, NOTE]);
    expect(config.search.ddo_map.map((d: Item) => d.tipo)).toEqual([SHELF_MARK, NOTE]);

    const created = await cata.post(create(SECTION));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data as number;
    expect(
      (await cata.post(save(SHELF_MARK, id, [{ action: 'insert', value: { value: 'SM-0042' } }]))).status,
    ).toBe(200);
    expect(
      (await cata.post(save(NOTE, id, [{ action: 'insert', value: { value: 'Side A' } }], 'lg-eng'))).status,
    ).toBe(200);

    // Read contexts: the edit read carries the component's context, with its properties.
    const read = await cata.post(editRead(id));
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const shelfContext = read.body.data.context.find((c: Item) => c.tipo === SHELF_MARK);
    expect(shelfContext).toMatchObject({
      label: 'Shelf mark',
      permissions: 2,
      properties: { mandatory: true, unique: true },
    });
    const item = read.body.data.data.find((d: Item) => d.tipo === SHELF_MARK && d.section_id === id);
    expect(item.entries.map((e: Item) => e.value)).toEqual(['SM-0042']);

    expect(listedIds(await cata.post(listRead()))).toContain(id);
    const found = await cata.post(listRead(shelfMarkFilter('SM-0042')));
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(listedIds(found)).toEqual([id]);
    expect(listedIds(await cata.post(listRead(shelfMarkFilter('SM-9999'))))).toEqual([]);

    // The search panel's fields.
    const panel = await cata.post(elements(SECTION));
    expect(panel.status).toBe(200);
    expect(panel.body.data.map((e: Item) => e.tipo)).toEqual(expect.arrayContaining([SHELF_MARK, NOTE]));
  });

  it('mandatory: a save that would empty the component is refused with 400 naming it; creating is allowed', async () => {
    const id = (await root.post(create(SECTION))).body.data as number;
    // A new record starts empty: creation is not refused.
    expect(id).toBeGreaterThan(0);
    expect(
      (await root.post(save(SHELF_MARK, id, [{ action: 'insert', value: { value: 'SM-0100' } }]))).status,
    ).toBe(200);
    for (const change of [
      { action: 'clear', value: null },
      { action: 'remove', id: 1, value: null },
      { action: 'set_data', value: [] },
      { action: 'update', id: 1, value: { id: 1, lang: 'lg-nolan', value: '   ' } },
    ]) {
      const answer = await root.post(save(SHELF_MARK, id, [change]));
      expect(answer.status, change.action).toBe(400);
      expect(answer.body.error.code).toBe('record.mandatory_empty');
      expect(answer.body.error.message).toContain(`${SHELF_MARK} (Shelf mark) is mandatory`);
      expect(answer.body.error.details).toEqual({ section_tipo: SECTION, component_tipo: SHELF_MARK });
    }
    expect(await stored(work, id)).toEqual([{ id: 1, lang: 'lg-nolan', value: 'SM-0100' }]);
    // A component that is not mandatory may be emptied.
    expect((await root.post(save(NOTE, id, [{ action: 'clear', value: null }], 'lg-eng'))).status).toBe(200);
  });

  it('unique: a value another record holds is refused with 409 naming that record; nothing is written', async () => {
    const first = (await root.post(create(SECTION))).body.data as number;
    const second = (await root.post(create(SECTION))).body.data as number;
    expect(
      (await root.post(save(SHELF_MARK, first, [{ action: 'insert', value: { value: 'SM-0200' } }]))).status,
    ).toBe(200);
    const { rows: before } = await work.server.db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM matrix_time_machine WHERE section_tipo = $1 AND section_id = $2',
      [SECTION, second],
    );
    // Compared after trimming, ignoring case.
    for (const value of ['SM-0200', ' sm-0200 ']) {
      const answer = await root.post(save(SHELF_MARK, second, [{ action: 'insert', value: { value } }]));
      expect(answer.status, value).toBe(409);
      expect(answer.body.error.code).toBe('record.duplicate_value');
      expect(answer.body.error.details).toEqual({
        section_tipo: SECTION,
        section_id: first,
        component_tipo: SHELF_MARK,
        value: 'SM-0200',
      });
      expect(answer.body.error.message).toContain(`already held by record ${SECTION} ${first}`);
    }
    expect(await stored(work, second)).toBeNull();
    const { rows: after } = await work.server.db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM matrix_time_machine WHERE section_tipo = $1 AND section_id = $2',
      [SECTION, second],
    );
    expect(after[0]!.n).toBe(before[0]!.n);
    // The record itself may keep (and re-save) its own value; another value is fine.
    expect(
      (
        await root.post(
          save(SHELF_MARK, first, [
            { action: 'update', id: 1, value: { id: 1, lang: 'lg-nolan', value: 'SM-0200' } },
          ]),
        )
      ).status,
    ).toBe(200);
    expect(
      (await root.post(save(SHELF_MARK, second, [{ action: 'insert', value: { value: 'SM-0201' } }]))).status,
    ).toBe(200);
  });

  it('unique under concurrency: two saves of one value to two records at once, exactly one wins', async () => {
    for (let round = 0; round < 8; round += 1) {
      const a = (await root.post(create(SECTION))).body.data as number;
      const b = (await root.post(create(SECTION))).body.data as number;
      const value = `RACE-${round}`;
      const answers = await Promise.all(
        [a, b].map((id) => root.post(save(SHELF_MARK, id, [{ action: 'insert', value: { value } }]))),
      );
      expect(answers.map((x) => x.status).sort(), `round ${round}`).toEqual([200, 409]);
      const { rows } = await work.server.db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM matrix WHERE section_tipo = $1 AND string -> $2::text @> $3::jsonb`,
        [SECTION, SHELF_MARK, JSON.stringify([{ value }])],
      );
      expect(rows[0]!.n).toBe('1');
    }
  });

  it('a rule removed from the ontology stops applying at once', async () => {
    const id = (await root.post(create(SECTION))).body.data as number;
    expect(
      (await root.post(save(SHELF_MARK, id, [{ action: 'insert', value: { value: 'SM-0300' } }]))).status,
    ).toBe(200);
    expect((await root.post(save(SHELF_MARK, id, [{ action: 'clear', value: null }]))).status).toBe(400);
    await updateNode(work.server.db, SHELF_MARK, { properties: { unique: true } });
    expect((await root.post(save(SHELF_MARK, id, [{ action: 'clear', value: null }]))).status).toBe(200);
    await updateNode(work.server.db, SHELF_MARK, { properties: { mandatory: true, unique: true } });
  });

  it('publishing refuses, naming it, a map component that left the ontology; works again once it is back', async () => {
    const diffuse = (section_id: number) => ({
      dd_api: 'dd_diffusion_api',
      action: 'diffuse',
      options: { section_tipo: 'oh1', section_id },
    });
    const interview = (await root.post(create('oh1'))).body.data as number;
    expect((await root.post(diffuse(interview))).status).toBe(200);
    const { rows } = await work.server.db.query<Record<string, unknown>>(
      `SELECT tipo, parent, term, model, order_number, relations, tld, properties, is_translatable, is_model
       FROM dd_ontology WHERE tipo = 'oh23'`,
    );
    await removeNode(work.server.db, 'oh23');
    try {
      for (const body of [diffuse(interview), { dd_api: 'dd_diffusion_api', action: 'get_diffusion_info' }]) {
        const refused = await root.post(body);
        expect(refused.status, JSON.stringify(refused.body)).toBe(409);
        expect(refused.body.error.code).toBe('diffusion.map_invalid');
        expect(refused.body.error.details.problems).toEqual([
          'tables[0].columns[2].component: oh23 is not in the ontology',
        ]);
        expect(refused.body.error.message).toContain('oh23 is not in the ontology');
      }
    } finally {
      const row = rows[0]!;
      await work.server.db.query(
        `INSERT INTO dd_ontology (tipo, parent, term, model, order_number, relations, tld, properties, is_translatable, is_model)
         VALUES ($1, $2, $3::text::jsonb, $4, $5, $6::text::jsonb, $7, $8::text::jsonb, $9, $10)`,
        [
          row.tipo,
          row.parent,
          JSON.stringify(row.term),
          row.model,
          row.order_number,
          row.relations === null ? null : JSON.stringify(row.relations),
          row.tld,
          row.properties === null ? null : JSON.stringify(row.properties),
          row.is_translatable,
          row.is_model,
        ],
      );
    }
    expect((await root.post(diffuse(interview))).status).toBe(200);
  });
});
