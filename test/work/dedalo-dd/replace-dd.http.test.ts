/**
 * Dédalo's own core TLD `dd` replacing the `dd` rows the default content borrowed, on a running
 * archive, over HTTP on both engines: the server loads it on the next request; root and a normal
 * user log in; permissions (profiles' dd774, global admin dd244, active dd131, projects) follow
 * Dédalo's definitions of the same tipos; users and profiles are edited (the password hashed);
 * the activity log is written and read; component locks name their holder; sections the default
 * content never had are listed, edited and saved.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSEEN_LIST, UNSEEN_LIST_VALUE } from '../../fixtures/dedalo-dd/dedalo-dd-nodes.js';
import { replaceTld } from '../../helpers/replace-tld.js';
import { workEngineCases } from '../../helpers/work-engines.js';
import { insertLoginUser, insertProfile } from '../../helpers/work-permissions.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../../helpers/work-server.js';

const DUMP = readFileSync(new URL('../../fixtures/dedalo-dd/dd.jer_dd.sql', import.meta.url), 'utf8');

// biome-ignore lint/suspicious/noExplicitAny: envelope items are read loosely
type Item = any;

const start = (options: Record<string, unknown> = {}) => ({ action: 'start', options });
const menuTipos = (answer: WorkAnswer): string[] =>
  answer.body.data.context.find((c: Item) => c.type === 'menu')?.tree?.map((e: Item) => e.tipo) ?? [];

const listRead = (sectionTipo: string, lang = 'lg-eng') => ({
  action: 'read',
  source: {
    typo: 'source',
    type: 'section',
    action: 'search',
    model: 'section',
    tipo: sectionTipo,
    section_tipo: sectionTipo,
    section_id: null,
    mode: 'list',
    lang,
  },
  sqo: { section_tipo: [sectionTipo], limit: 50, offset: 0 },
});

const editRead = (sectionTipo: string, id: number, lang = 'lg-eng') => ({
  action: 'read',
  source: {
    typo: 'source',
    type: 'section',
    action: 'search',
    model: 'section',
    tipo: sectionTipo,
    section_tipo: sectionTipo,
    section_id: id,
    mode: 'edit',
    lang,
  },
  sqo: {
    section_tipo: [sectionTipo],
    limit: 1,
    offset: 0,
    filter_by_locators: [{ section_tipo: sectionTipo, section_id: id }],
  },
});

const saveBody = (
  tipo: string,
  sectionTipo: string,
  sectionId: number,
  changes: unknown[],
  lang = 'lg-nolan',
) => ({
  action: 'save',
  source: { type: 'component', tipo, section_tipo: sectionTipo, section_id: sectionId, mode: 'edit', lang },
  data: { changed_data: changes },
});

const valuesOf = (answer: WorkAnswer, tipo: string, sectionId: number): unknown[] =>
  answer.body.data.data
    .filter((d: Item) => d.tipo === tipo && Number(d.section_id) === sectionId)
    .flatMap((d: Item) => d.entries ?? [])
    .map((v: Item) => (typeof v === 'object' && v !== null && 'value' in v ? v.value : v));

const ok = (answer: WorkAnswer) => {
  expect(answer.status, JSON.stringify(answer.body).slice(0, 800)).toBe(200);
  return answer;
};

describe.each(workEngineCases())("Dédalo's core TLD dd replacing the default one ($engine)", (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    // Written under the default content: a profile that may edit the unseen list, a user with it.
    await insertProfile(db, 7, [
      { tipo: UNSEEN_LIST, section_tipo: UNSEEN_LIST, value: 2 },
      { tipo: UNSEEN_LIST_VALUE, section_tipo: UNSEEN_LIST, value: 2 },
      { tipo: 'dd137', section_tipo: 'dd137', value: 1 },
    ]);
    await insertLoginUser(db, 5, {
      username: 'editor',
      password: 'editor password',
      profile: 7,
      projects: [1],
    });
    await insertLoginUser(db, 6, {
      username: 'gone',
      password: 'gone password',
      profile: 7,
      projects: [1],
      active: false,
    });
    const before = await rootBrowser(work);
    expect(menuTipos(ok(await before.post(start({ search_obj: { t: 'oh1' }, menu: true }))))).toContain(
      'dd207',
    );
    const { report } = await replaceTld(db, DUMP, 'dd');
    // Our admin area dd207 is not in Dédalo's dd: what hung from it (the Ontology area) moves
    // under the root instead of leaving the ontology broken.
    expect(report.removed.tipos).toContain('dd207');
    expect(report.reattached_to_root).toEqual(
      expect.arrayContaining([{ tipo: 'ontology1', parent: 'dd207' }]),
    );
    root = await rootBrowser(work);
  });
  afterAll(async () => {
    await work?.stop();
  });

  it("the next request runs on Dédalo's dd: its areas and sections in the menu, the other TLDs still hanging from dd1", async () => {
    const menu = menuTipos(ok(await root.post(start({ search_obj: { t: 'oh1' }, menu: true }))));
    expect(menu).toEqual(
      expect.arrayContaining(['dd242', 'dd128', 'dd234', 'dd153', 'dd542', 'dd1324', 'dd655']),
    );
    expect(menu).toEqual(expect.arrayContaining([UNSEEN_LIST, 'dd64', 'oh1', 'rsc197', 'dd100', 'ts1']));
    expect(menu).not.toContain('dd207');
    // Elements of models this archive does not implement are not menu entries.
    expect(menu).not.toContain('dd627');
    // Maintenance is Dédalo's dd88 too (its widgets are elements this archive does not implement).
    expect(menu).toContain('dd88');
    ok(await root.post(start({ search_obj: { t: 'dd88' } })));
  });

  it('a section never seen before is listed, created, edited and saved by a global admin', async () => {
    const created = ok(await root.post({ action: 'create', source: { section_tipo: UNSEEN_LIST } }));
    const id = Number(created.body.data);
    ok(
      await root.post(
        saveBody(
          UNSEEN_LIST_VALUE,
          UNSEEN_LIST,
          id,
          [{ action: 'insert', value: { value: 'Doctora' } }],
          'lg-eng',
        ),
      ),
    );
    ok(await root.post(saveBody('dd1714', UNSEEN_LIST, id, [{ action: 'insert', value: { value: 3 } }])));
    const edit = ok(await root.post(editRead(UNSEEN_LIST, id)));
    expect(valuesOf(edit, UNSEEN_LIST_VALUE, id)).toEqual(['Doctora']);
    expect(valuesOf(edit, 'dd1714', id)).toEqual([3]);
    const section = edit.body.data.context.find((c: Item) => c.tipo === UNSEEN_LIST);
    expect(section).toMatchObject({ label: 'Forms of address', permissions: 3 });
    const list = ok(await root.post(listRead(UNSEEN_LIST)));
    expect(valuesOf(list, UNSEEN_LIST_VALUE, id)).toEqual(['Doctora']);
    // The Spanish label of the section (Spanish first, as Dédalo writes it) for a user whose
    // interface is in Spanish: labels follow the application language.
    const changeLang = (lang: string) =>
      root.post({ dd_api: 'dd_utils_api', action: 'change_lang', options: { svc_application_lang: lang } });
    ok(await changeLang('lg-spa'));
    try {
      const spa = ok(await root.post(listRead(UNSEEN_LIST)));
      expect(spa.body.data.context.find((c: Item) => c.tipo === UNSEEN_LIST).label).toBe('Tratamientos');
    } finally {
      ok(await changeLang('lg-eng'));
    }

    for (const tools of ['dd1324', 'dd655']) {
      const record = Number(
        ok(await root.post({ action: 'create', source: { section_tipo: tools } })).body.data,
      );
      const tipo = tools === 'dd1324' ? 'dd1326' : 'dd657';
      ok(
        await root.post(
          saveBody(tipo, tools, record, [{ action: 'insert', value: { value: `in ${tools}` } }]),
        ),
      );
      expect(valuesOf(ok(await root.post(listRead(tools))), tipo, record)).toEqual([`in ${tools}`]);
    }
  });

  it('a normal user logs in and gets exactly their profile on the unseen list; an inactive one is refused', async () => {
    const editor = work.browser();
    ok(await editor.login('editor', 'editor password'));
    const id = Number(
      ok(await editor.post({ action: 'create', source: { section_tipo: UNSEEN_LIST } })).body.data,
    );
    ok(
      await editor.post(
        saveBody(
          UNSEEN_LIST_VALUE,
          UNSEEN_LIST,
          id,
          [{ action: 'insert', value: { value: 'Señor' } }],
          'lg-spa',
        ),
      ),
    );
    // No level on the note: refused; nor on users, profiles or maintenance.
    const note = await editor.post(
      saveBody('dd1714', UNSEEN_LIST, id, [{ action: 'insert', value: { value: 1 } }]),
    );
    expect(note.status).toBe(403);
    for (const t of ['dd128', 'dd234', 'dd88']) {
      expect((await editor.post(start({ search_obj: { t } }))).status, t).toBe(403);
    }
    const menu = menuTipos(ok(await editor.post(start({ search_obj: { t: UNSEEN_LIST }, menu: true }))));
    expect(menu).toEqual(['dd137', UNSEEN_LIST]);

    const gone = await work.browser().login('gone', 'gone password');
    expect(gone.status).toBe(401);
  });

  it('users and profiles are edited on Dédalo definitions: a new profile and user log in, the password hashed, the flags are radio buttons into dd64', async () => {
    const profile = Number(
      ok(await root.post({ action: 'create', source: { section_tipo: 'dd234' } })).body.data,
    );
    ok(
      await root.post(
        saveBody('dd237', 'dd234', profile, [{ action: 'insert', value: { value: 'Listas' } }]),
      ),
    );
    ok(
      await root.post(
        saveBody('dd774', 'dd234', profile, [
          {
            action: 'set_data',
            value: [
              { tipo: UNSEEN_LIST, section_tipo: UNSEEN_LIST, value: 1 },
              { tipo: UNSEEN_LIST_VALUE, section_tipo: UNSEEN_LIST, value: 1 },
            ],
          },
        ]),
      ),
    );
    const user = Number(
      ok(await root.post({ action: 'create', source: { section_tipo: 'dd128' } })).body.data,
    );
    const saveUser = (tipo: string, changes: unknown[]) => root.post(saveBody(tipo, 'dd128', user, changes));
    ok(await saveUser('dd132', [{ action: 'insert', value: { value: 'reader' } }]));
    const password = ok(await saveUser('dd133', [{ action: 'insert', value: { value: 'reader password' } }]));
    expect(JSON.stringify(password.body)).not.toContain('reader password');
    const { rows } = await work.server.db.query<{ hash: string }>(
      `SELECT string -> 'dd133' -> 0 ->> 'value' AS hash FROM matrix_users WHERE section_tipo = 'dd128' AND section_id = $1`,
      [user],
    );
    expect(rows[0]!.hash).toMatch(/^\$argon2id\$/);
    ok(
      await saveUser('dd1725', [{ action: 'insert', value: { section_tipo: 'dd234', section_id: profile } }]),
    );
    ok(await saveUser('dd170', [{ action: 'insert', value: { section_tipo: 'dd153', section_id: 1 } }]));
    ok(await saveUser('dd131', [{ action: 'insert', value: { section_tipo: 'dd64', section_id: 1 } }]));
    // The developer flag exists only in Dédalo's dd: a radio button like the others.
    ok(await saveUser('dd515', [{ action: 'insert', value: { section_tipo: 'dd64', section_id: 2 } }]));

    // The yes/no options keep their labels (written under dd62 by the first start).
    const edit = ok(await root.post(editRead('dd128', user)));
    const active = edit.body.data.data.find((d: Item) => d.tipo === 'dd131');
    expect(active.datalist.map((o: Item) => o.label)).toEqual(['Yes', 'No']);
    expect(edit.body.data.context.find((c: Item) => c.tipo === 'dd131')).toMatchObject({
      model: 'component_radio_button',
      label: 'Active',
    });

    const reader = work.browser();
    ok(await reader.login('reader', 'reader password'));
    ok(await reader.post(listRead(UNSEEN_LIST)));
    const refused = await reader.post({ action: 'create', source: { section_tipo: UNSEEN_LIST } });
    expect(refused.status).toBe(403);

    // Global admin on Dédalo's dd244 makes the user pass every check.
    ok(await saveUser('dd244', [{ action: 'insert', value: { section_tipo: 'dd64', section_id: 1 } }]));
    ok(await reader.post({ action: 'create', source: { section_tipo: UNSEEN_LIST } }));
  });

  it('the activity log is written and read on Dédalo definitions, and stays read-only', async () => {
    const editor = work.browser();
    ok(await editor.login('editor', 'editor password'));
    const list = ok(await root.post(listRead('dd542')));
    const logins = list.body.data.data.filter(
      (d: Item) => d.tipo === 'dd546' && (d.entries ?? []).some((v: Item) => v.value === 'dd229'),
    );
    expect(logins.length).toBeGreaterThan(0);
    const last = Math.max(...list.body.data.data.map((d: Item) => Number(d.section_id)).filter(Boolean));
    const edit = ok(await root.post(editRead('dd542', last)));
    expect(edit.body.data.context.find((c: Item) => c.tipo === 'dd542')).toMatchObject({ read_only: true });
    const who = edit.body.data.data.find((d: Item) => d.tipo === 'dd543');
    expect(who.entries[0]).toMatchObject({ section_tipo: 'dd128', section_id: 5 });
    // Dédalo's "what" is a select into its list dd42: 1 = log in.
    const what = edit.body.data.data.find((d: Item) => d.tipo === 'dd545');
    expect(what.entries[0]).toMatchObject({ section_tipo: 'dd42', section_id: 1 });
    const save = await root.post(
      saveBody('dd546', 'dd542', last, [{ action: 'insert', value: { value: 'x' } }]),
    );
    expect(save.status).toBe(403);
  });

  it("component locks name the holder from Dédalo's user record", async () => {
    const id = Number(
      ok(await root.post({ action: 'create', source: { section_tipo: UNSEEN_LIST } })).body.data,
    );
    const lock = (action: string) => ({
      dd_api: 'dd_utils_api',
      action: 'update_lock_components_state',
      prevent_lock: true,
      options: { section_tipo: UNSEEN_LIST, section_id: id, component_tipo: UNSEEN_LIST_VALUE, action },
    });
    const editor = work.browser();
    ok(await editor.login('editor', 'editor password'));
    expect(ok(await editor.post(lock('focus'))).body.in_use).toBe(false);
    const held = await root.post(lock('focus'));
    expect(held.status).toBe(409);
    expect(held.body.error.details.holder).toMatchObject({ user_id: 5, username: 'editor' });
    ok(await editor.post(lock('blur')));
    expect(ok(await root.post(lock('focus'))).body.in_use).toBe(false);
  });

  it('a section of an unimplemented grouper (section_tab) still has its components, in order', async () => {
    const answer = ok(
      await root.post({ action: 'get_section_elements_context', options: { section_tipo: 'dd128' } }),
    );
    const tipos = answer.body.data.map((c: Item) => c.tipo);
    expect(tipos.indexOf('dd130')).toBeGreaterThanOrEqual(0);
    expect(tipos.indexOf('dd132')).toBeLessThan(tipos.indexOf('dd244'));
    expect(tipos).not.toContain('dd133');
  });
});
