/**
 * A cataloguer's day as the stock Dédalo browser client sends it (22 steps:
 * the request bodies that client writes), replayed in order against the real server on
 * PGlite and PostgreSQL, asserting what the client reads from each answer. Steps 17-18 (component
 * locks) are sent because `plain_vars.DEDALO_LOCK_COMPONENTS` is true.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the client reads the envelope loosely too
type Any = any;

const source = (extra: Record<string, unknown>) => ({
  typo: 'source',
  view: 'default',
  lang: 'lg-eng',
  ...extra,
});
const d = (answer: { body: Any }) => answer.body.data;
const item = (answer: { body: Any }, tipo: string, st: string, id: number) =>
  d(answer).data.find(
    (el: Any) =>
      el.tipo === tipo &&
      el.section_tipo === st &&
      String(el.section_id) === String(id) &&
      el.typo !== 'sections',
  );

const listShow = {
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
};

describe.each(workEngineCases())("the stock client's day ($engine)", (engine) => {
  let work: WorkServerHandle;
  let client: WorkBrowser;
  let id = 0;
  let person = 0;
  let duplicate = 0;
  let linkId = 0;
  const code = 'WC-1a2b3c';

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    client = work.browser();
  });
  afterAll(async () => {
    await work?.stop();
  });

  /** Each answer carries the csrf token; the client keeps it (it would refresh from any envelope). */
  const post = async (body: unknown) => {
    const answer = await client.post({ idempotency_key: crypto.randomUUID(), ...(body as object) });
    if (answer.body.csrf_token) client.csrfToken = answer.body.csrf_token;
    return answer;
  };

  it('1-3. start, login, start with the menu', async () => {
    const anonymous = await post({
      action: 'start',
      prevent_lock: true,
      options: { search_obj: { t: 'oh1', m: 'list' }, menu: true },
    });
    expect(anonymous.status).toBe(200);
    const login = d(anonymous).context.find((c: Any) => c.model === 'login');
    expect(login.tipo).toBe('dd229');
    expect(login.properties.login_items.map((i: Any) => i.tipo)).toEqual(
      expect.arrayContaining(['dd255', 'dd259']),
    );
    expect(anonymous.body.environment.page_globals.is_logged).toBe(false);

    const answer = await client.login('root', TEST_ROOT_PASSWORD);
    expect(answer.body).toMatchObject({ ok: true, data: true, csrf_token: expect.any(String) });

    const started = await post({
      action: 'start',
      prevent_lock: true,
      options: { search_obj: { t: 'oh1', m: 'list' }, menu: true },
    });
    expect(started.status).toBe(200);
    const menu = d(started).context.find((c: Any) => c.model === 'menu');
    expect(menu.tipo).toBe('dd85');
    const section = d(started).context.find((c: Any) => c.tipo === 'oh1');
    expect(section).toMatchObject({
      type: 'section',
      model: 'section',
      section_tipo: 'oh1',
      mode: 'list',
      permissions: 3,
    });
    const main = section.request_config.find((r: Any) => r.api_engine === 'dedalo' && r.type === 'main');
    expect(main.show.ddo_map.length).toBeGreaterThan(0);
    expect(
      d(started)
        .data.find((el: Any) => el.tipo === 'dd85')
        .tree_datalist.map((e: Any) => e.tipo),
    ).toContain('oh1');
    const env = started.body.environment;
    expect(env.page_globals.dedalo_application_langs).toContainEqual({ label: 'English', value: 'lg-eng' });
    expect(env.page_globals.dedalo_projects_default_langs.length).toBeGreaterThan(0);
    expect(env.plain_vars.DEDALO_LOCK_COMPONENTS).toBe(true);
  });

  it('4. creates a record (the New button)', async () => {
    const answer = await post({
      action: 'create',
      source: source({
        type: 'section',
        action: 'create',
        model: 'section',
        tipo: 'oh1',
        section_tipo: 'oh1',
        section_id: null,
        mode: 'list',
      }),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(Number.isInteger(d(answer))).toBe(true);
    expect(d(answer)).toBeGreaterThan(0);
    id = d(answer);
  });

  it('5-6. reads the list, then the record in edit mode', async () => {
    const list = await post({
      id: 'section_oh1_oh1_list_lg-eng',
      action: 'read',
      source: source({
        type: 'section',
        action: 'search',
        model: 'section',
        tipo: 'oh1',
        section_tipo: 'oh1',
        section_id: null,
        mode: 'list',
      }),
      sqo: { section_tipo: ['oh1'], limit: 10, offset: 0 },
      show: listShow,
    });
    expect(list.status).toBe(200);
    expect(d(list).context.find((el: Any) => el.section_tipo === 'oh1')).toBeDefined();
    const sections = d(list).data.find((el: Any) => el.tipo === 'oh1' && el.typo === 'sections');
    expect(sections.entries).toContainEqual({ section_tipo: 'oh1', section_id: id, paginated_key: 0 });
    expect(item(list, 'oh14', 'oh1', id).entries).toEqual([]);

    const edit = await post({
      action: 'read',
      source: source({
        type: 'section',
        action: 'search',
        model: 'section',
        tipo: 'oh1',
        section_tipo: 'oh1',
        section_id: id,
        mode: 'edit',
      }),
      sqo: {
        section_tipo: ['oh1'],
        limit: 1,
        offset: 0,
        filter_by_locators: [{ section_tipo: 'oh1', section_id: id }],
      },
    });
    expect(edit.status).toBe(200);
    expect(item(edit, 'oh16', 'oh1', id)).toMatchObject({ mode: 'edit', entries: [] });
    expect(d(edit).context.find((c: Any) => c.tipo === 'oh16')).toMatchObject({
      translatable: true,
      lang: 'lg-eng',
    });
  });

  it('7-8. saves a literal (insert, then update by id) and a translatable title', async () => {
    const save = (tipo: string, lang: string, change: unknown) =>
      post({
        action: 'save',
        source: {
          typo: 'source',
          type: 'component',
          action: null,
          model: 'component_input_text',
          tipo,
          section_tipo: 'oh1',
          section_id: id,
          mode: 'edit',
          view: null,
          lang,
        },
        data: {
          typo: 'data',
          tipo,
          section_tipo: 'oh1',
          section_id: id,
          mode: 'edit',
          lang,
          from_component_tipo: tipo,
          entries: [],
          changed_data: [change],
        },
      });
    const inserted = await save('oh14', 'lg-nolan', {
      action: 'insert',
      id: null,
      value: { id: null, lang: 'lg-nolan', value: code },
    });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    const echo = item(inserted, 'oh14', 'oh1', id);
    expect(echo.entries).toEqual([{ id: expect.any(Number), lang: 'lg-nolan', value: code }]);
    const itemId = echo.entries[0].id;
    const updated = await save('oh14', 'lg-nolan', {
      action: 'update',
      id: itemId,
      value: { id: itemId, lang: 'lg-nolan', value: `${code}-b` },
    });
    expect(item(updated, 'oh14', 'oh1', id).entries).toEqual([
      { id: itemId, lang: 'lg-nolan', value: `${code}-b` },
    ]);

    await save('oh16', 'lg-spa', {
      action: 'insert',
      id: null,
      value: { id: null, lang: 'lg-spa', value: 'Título' },
    });
    const title = await save('oh16', 'lg-eng', {
      action: 'insert',
      id: null,
      value: { id: null, lang: 'lg-eng', value: 'Title' },
    });
    expect(title.status).toBe(200);
    // A translatable echo carries only the lg-eng slice.
    expect(item(title, 'oh16', 'oh1', id).entries).toEqual([
      { id: expect.any(Number), lang: 'lg-eng', value: 'Title' },
    ]);
  });

  it('9-10. searches with a text filter and counts', async () => {
    const filter = {
      $and: [
        {
          q: `${code}-b`,
          q_operator: null,
          type: 'jsonb',
          lang: 'all',
          path: [
            { section_tipo: 'oh1', component_tipo: 'oh14', model: 'component_input_text', name: 'Code' },
          ],
        },
      ],
    };
    const found = await post({
      action: 'read',
      source: source({
        type: 'section',
        action: 'search',
        model: 'section',
        tipo: 'oh1',
        section_tipo: 'oh1',
        section_id: null,
        mode: 'list',
      }),
      sqo: { section_tipo: ['oh1'], limit: 10, offset: 0, filter },
      show: listShow,
    });
    expect(found.status).toBe(200);
    expect(
      d(found)
        .data.find((el: Any) => el.typo === 'sections')
        .entries.map((e: Any) => e.section_id),
    ).toEqual([id]);
    const counted = await post({
      action: 'count',
      prevent_lock: true,
      sqo: { section_tipo: ['oh1'], filter },
      source: source({
        type: 'section',
        action: null,
        model: 'section',
        tipo: 'oh1',
        section_tipo: 'oh1',
        section_id: null,
        mode: 'list',
      }),
    });
    expect(counted.status).toBe(200);
    expect(d(counted).total).toBe(1);
  });

  const portalSave = (changed: unknown) =>
    post({
      action: 'save',
      source: {
        typo: 'source',
        type: 'component',
        model: 'component_portal',
        tipo: 'oh24',
        section_tipo: 'oh1',
        section_id: id,
        mode: 'edit',
        lang: 'lg-nolan',
      },
      data: {
        typo: 'data',
        tipo: 'oh24',
        section_tipo: 'oh1',
        section_id: id,
        mode: 'edit',
        lang: 'lg-nolan',
        pagination: { limit: 10 },
        changed_data: [changed],
      },
    });

  it('11-12. links an existing person and reads the portal page', async () => {
    const created = await post({
      action: 'create',
      source: source({
        type: 'section',
        action: 'create',
        model: 'section',
        tipo: 'rsc197',
        section_tipo: 'rsc197',
        section_id: null,
        mode: 'list',
      }),
    });
    person = d(created);
    const linked = await portalSave({
      action: 'insert',
      id: null,
      value: { section_tipo: 'rsc197', section_id: person, type: 'dd151', from_component_tipo: 'oh24' },
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    const portal = d(linked).data.find((el: Any) => el.tipo === 'oh24');
    expect(portal.pagination.total).toBe(1);
    expect(portal.entries[0]).toMatchObject({
      section_tipo: 'rsc197',
      section_id: person,
      id: expect.any(Number),
      paginated_key: 0,
    });
    linkId = portal.entries[0].id;
    expect(d(linked).context.length).toBeGreaterThan(0);

    const page = await post({
      id: `component_portal_oh24_oh1_${id}_edit_lg-nolan`,
      action: 'read',
      source: {
        typo: 'source',
        type: 'component',
        action: 'get_data',
        model: 'component_portal',
        tipo: 'oh24',
        section_tipo: 'oh1',
        section_id: id,
        mode: 'edit',
        view: null,
        lang: 'lg-nolan',
      },
      sqo: {
        section_tipo: ['rsc197'],
        limit: 5,
        offset: 0,
        filter_by_locators: [{ section_tipo: 'oh1', section_id: id }],
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
        sqo_config: { limit: 5, offset: 0 },
      },
    });
    expect(page.status).toBe(200);
    expect(d(page).data.find((el: Any) => el.tipo === 'oh24').pagination).toEqual({
      total: 1,
      limit: 5,
      offset: 0,
    });
    expect(item(page, 'rsc85', 'rsc197', person)).toMatchObject({ entries: [] });
    expect(d(page).context.find((c: Any) => c.tipo === 'rsc85')).toBeDefined();
  });

  it('13-14. creates and links a new person, then unlinks one', async () => {
    const added = await portalSave({ action: 'add_new_element', id: null, value: 'rsc197' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const created = added.body.created_section_id ?? d(added).created_section_id;
    expect(Number.isInteger(created)).toBe(true);
    const portal = d(added).data.find((el: Any) => el.tipo === 'oh24');
    expect(portal.pagination.total).toBe(2);
    expect(portal.entries.map((l: Any) => l.section_id)).toContain(created);

    const unlinked = await portalSave({ action: 'remove', id: linkId, value: null });
    expect(unlinked.status).toBe(200);
    expect(
      d(unlinked)
        .data.find((el: Any) => el.tipo === 'oh24')
        .entries.map((l: Any) => l.section_id),
    ).toEqual([created]);
  });

  it('15. duplicates the record', async () => {
    const answer = await post({
      action: 'duplicate',
      source: source({
        type: 'section',
        action: 'duplicate',
        model: 'section',
        tipo: 'oh1',
        section_tipo: 'oh1',
        section_id: id,
        mode: 'edit',
        view: null,
      }),
    });
    expect(answer.status).toBe(200);
    expect(d(answer)).toBeGreaterThan(id);
    duplicate = d(answer);
  });

  it("16. reads a component's history", async () => {
    const answer = await post({
      id: `tm_oh1_${id}_oh14`,
      action: 'read',
      source: {
        typo: 'source',
        type: 'section',
        action: 'search',
        model: 'section',
        tipo: 'oh1',
        section_tipo: 'oh1',
        section_id: id,
        mode: 'tm',
        view: null,
        lang: 'lg-eng',
      },
      sqo: {
        id: 'tmp',
        mode: 'tm',
        section_tipo: ['oh1'],
        filter_by_locators: [{ section_tipo: 'oh1', section_id: id, tipo: 'oh14', lang: 'lg-nolan' }],
        limit: 10,
        offset: 0,
        order: [{ direction: 'DESC', path: [{ component_tipo: 'id' }] }],
      },
      show: {
        ddo_map: [
          { tipo: 'dd201', model: 'component_date' },
          { tipo: 'dd197', model: 'component_select' },
          { tipo: 'oh14', model: 'component_input_text' },
        ],
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rows = d(answer).data.find((el: Any) => el.typo === 'sections').entries;
    expect(rows).toHaveLength(2);
    const values = d(answer)
      .data.filter((el: Any) => el.tipo === 'oh14')
      .map((el: Any) => el.entries[0]?.value);
    expect(values).toEqual([`${code}-b`, code]);
    expect(
      d(answer)
        .data.filter((el: Any) => el.tipo === 'dd197')
        .every((el: Any) => el.entries[0].section_id === -1),
    ).toBe(true);
  });

  it('17-18. takes the lock of a field on focus, releases it on blur and on navigation', async () => {
    const lockCall = (options: Record<string, unknown>) =>
      post({
        dd_api: 'dd_utils_api',
        action: 'update_lock_components_state',
        prevent_lock: true,
        options,
      });
    const focus = await lockCall({
      component_tipo: 'oh16',
      section_tipo: 'oh1',
      section_id: id,
      action: 'focus',
    });
    expect(focus.status, JSON.stringify(focus.body)).toBe(200);
    // The client reads the extension key in_use (true would disable the field and show a modal).
    expect(focus.body.in_use).toBe(false);
    const blur = await lockCall({
      component_tipo: 'oh16',
      section_tipo: 'oh1',
      section_id: id,
      action: 'blur',
    });
    expect(blur.status).toBe(200);
    expect(blur.body.in_use).toBe(false);
    const leave = await lockCall({
      component_tipo: null,
      section_tipo: 'oh1',
      section_id: null,
      action: 'delete_user_section_locks',
    });
    expect(leave.status, JSON.stringify(leave.body)).toBe(200);
  });

  it('19-20. deletes the duplicate (delete_data) and the record (delete_record)', async () => {
    const del = (sectionId: number, mode: string) =>
      post({
        action: 'delete',
        source: source({
          type: 'section',
          action: 'delete',
          model: 'section',
          tipo: 'oh1',
          section_tipo: 'oh1',
          section_id: sectionId,
          mode: 'edit',
          view: null,
          delete_mode: mode,
        }),
        sqo: {
          section_tipo: ['oh1'],
          filter_by_locators: [{ section_tipo: 'oh1', section_id: sectionId }],
          limit: 1,
          offset: 0,
        },
        options: { delete_diffusion_records: true },
      });
    const emptied = await del(duplicate, 'delete_data');
    expect(emptied.status, JSON.stringify(emptied.body)).toBe(200);
    expect(d(emptied)).toEqual([duplicate]);
    const removed = await del(id, 'delete_record');
    expect(d(removed)).toEqual([id]);
    const count = await post({
      action: 'count',
      sqo: { section_tipo: ['oh1'], filter_by_locators: [{ section_tipo: 'oh1', section_id: id }] },
    });
    expect(d(count).total).toBe(0);
  });

  it('21-22. changes the data language, then quits', async () => {
    const changed = await post({
      action: 'change_lang',
      dd_api: 'dd_utils_api',
      options: { dedalo_data_lang: 'lg-spa', dedalo_application_lang: null },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const started = await post({
      action: 'start',
      options: { search_obj: { t: 'oh1', m: 'list' }, menu: true },
    });
    expect(started.body.environment.page_globals.dedalo_data_lang).toBe('lg-spa');
    expect(d(started).context.find((c: Any) => c.tipo === 'oh1').lang).toBe('lg-spa');

    const quit = await post({ dd_api: 'dd_utils_api', action: 'quit', options: {} });
    expect(quit.body.ok).toBe(true);
    const after = await post({
      action: 'start',
      options: { search_obj: { t: 'oh1', m: 'list' }, menu: true },
    });
    expect(d(after).context.find((c: Any) => c.model === 'login')).toBeDefined();
  });

  it('a retried write with the same idempotency_key runs once', async () => {
    await client.login('root', TEST_ROOT_PASSWORD);
    const body = { action: 'create', idempotency_key: 'retry-me-1', source: { section_tipo: 'rsc197' } };
    const first = await client.post(body);
    const second = await client.post(body);
    expect(second.body.data).toBe(first.body.data);
    const third = await client.post({ ...body, idempotency_key: 'retry-me-2' });
    expect(third.body.data).toBe(first.body.data + 1);
  });
});
