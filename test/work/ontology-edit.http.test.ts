/**
 * The ontology edited as records through the work API, on both engines: the per-TLD ontology
 * sections (`oh0` ...) and the TLD registry (ontology2) mirror dd_ontology and main_dd; a global
 * admin adds a section and a component and a cataloguer catalogues it once a profile grants it;
 * a broken edit is refused whole; only global admins reach these sections; removing a component
 * keeps its values (they come back with the node); history restores a label and a model; a TLD
 * is uninstalled with and without records, and the server's own TLDs refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapDatabase } from '../../src/work/bootstrap/bootstrap-database.js';
import { COMPONENT_MODELS } from '../../src/work/ontology/component-models.js';
import { defaultOntologySource } from '../../src/work/ontology/default-ontology.js';
import { mirrorTld } from '../../src/work/ontology/ontology-records.js';
import {
  installDefaultOntology,
  loadStoredOntology,
  readOntologyVersion,
} from '../../src/work/ontology/ontology-store.js';
import type { RunningWorkServer } from '../../src/work/server.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import { MIGRATIONS } from '../../src/work/store/migrations.js';
import type { FreshDatabase } from '../helpers/work-engines.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile, setProfileAccess } from '../helpers/work-permissions.js';
import {
  instancesBrowser,
  rootBrowser,
  startTestWorkServer,
  startTwoInstances,
  TEST_ROOT_PASSWORD,
  type TwoInstances,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const TERM = 'ontology10';
const MODEL = 'ontology11';
const PARENT = 'ontology12';
const TARGETS = 'ontology15';
const MAIN = 'ontology2';
const MAIN_TLD = 'ontology3';
const MAIN_NAME = 'ontology4';

/** A save of the whole value of one component in one language (set_data). */
async function setValue(
  as: WorkBrowser,
  sectionTipo: string,
  sectionId: number,
  tipo: string,
  values: unknown[],
  lang = 'lg-nolan',
): Promise<WorkAnswer> {
  return as.post({
    action: 'save',
    source: { tipo, section_tipo: sectionTipo, section_id: sectionId, lang },
    data: { changed_data: [{ action: 'set_data', value: values }] },
  });
}

async function ok(answer: Promise<WorkAnswer> | WorkAnswer): Promise<WorkAnswer> {
  const a = await answer;
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  return a;
}

async function create(as: WorkBrowser, sectionTipo: string): Promise<number> {
  return (await ok(as.post({ action: 'create', source: { section_tipo: sectionTipo } }))).body.data;
}

/** A new node through the API: a record of `<tld>0` with its term, model and parent. */
async function addNode(
  as: WorkBrowser,
  tld: string,
  node: { term: string; model: string; parent: string; targets?: string[] },
): Promise<string> {
  const section = `${tld}0`;
  const id = await create(as, section);
  await ok(setValue(as, section, id, TERM, [{ value: node.term }], 'lg-eng'));
  if (node.targets)
    await ok(
      setValue(
        as,
        section,
        id,
        TARGETS,
        node.targets.map((value) => ({ value })),
      ),
    );
  await ok(setValue(as, section, id, MODEL, [{ value: node.model }]));
  await ok(setValue(as, section, id, PARENT, [{ value: node.parent }]));
  return `${tld}${id}`;
}

async function nodeRow(work: WorkServerHandle, tipo: string) {
  const { rows } = await work.server.db.query<{
    term: Record<string, string>;
    model: string;
    parent: string;
  }>('SELECT term, model, parent FROM dd_ontology WHERE tipo = $1', [tipo]);
  return rows[0];
}

/** The menu's tipos as `start` lists them for `as`. */
async function menuOf(as: WorkBrowser): Promise<string[]> {
  const started = await ok(as.post({ action: 'start', options: { search_obj: {}, menu: true } }));
  const menu = started.body.data.context.find((c: { type: string }) => c.type === 'menu');
  return menu.tree.map((e: { tipo: string }) => e.tipo);
}

/** The first value of `tipo` in a record as the API reads it (undefined when it shows none). */
async function readValue(as: WorkBrowser, sectionTipo: string, id: number, tipo: string) {
  const read = await ok(
    as.post({
      action: 'read',
      source: { section_tipo: sectionTipo, section_id: id, mode: 'edit' },
      sqo: {
        section_tipo: [sectionTipo],
        filter_by_locators: [{ section_tipo: sectionTipo, section_id: id }],
      },
    }),
  );
  const item = read.body.data.data.find((d: { tipo: string; section_id: number }) => d.tipo === tipo);
  return item?.entries?.[0]?.value;
}

describe.each(workEngineCases())('the ontology edited as records ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let cata: WorkBrowser;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    await insertLoginUser(work.server.db, 5, {
      username: 'cata',
      password: 'cataloguer password',
      profile: 2,
      projects: [1],
    });
    root = await rootBrowser(work);
    cata = work.browser();
    expect((await cata.login('cata', 'cataloguer password')).status).toBe(200);
  });
  afterAll(async () => {
    await work?.stop();
  });

  it('shows every node as a record of its TLD section and every TLD as a main record', async () => {
    expect(await readValue(root, 'oh0', 1, MODEL)).toBe('section');
    expect(await readValue(root, 'oh0', 1, PARENT)).toBe('oh9000');
    expect(await readValue(root, 'oh0', 24, TARGETS)).toBe('rsc197');
    expect(await readValue(root, 'dd0', 128, MODEL)).toBe('section');
    const main = await ok(
      root.post({
        action: 'read',
        source: { section_tipo: MAIN, mode: 'list' },
        sqo: { section_tipo: [MAIN] },
      }),
    );
    const tlds = main.body.data.data
      .filter((d: { tipo: string }) => d.tipo === MAIN_TLD)
      .map((d: { entries: { value: string }[] }) => d.entries[0]!.value);
    expect(tlds).toEqual(expect.arrayContaining(['dd', 'oh', 'rsc', 'hierarchy', 'ts', 'ontology']));
    // The areas that used Dédalo's `<tld>0` tipos moved to the 9000 range.
    expect((await nodeRow(work, 'oh9000'))?.model).toBe('area');
    expect(await menuOf(root)).toEqual(expect.arrayContaining(['ontology1', 'oh0', 'rsc0', 'dd0', MAIN]));
    // The template only lends its components: it is not a menu entry.
    expect(await menuOf(root)).not.toContain('ontology5');
    // No profile can grant the ontology's sections: the menu says so, and profile grids leave them out.
    const started = await ok(root.post({ action: 'start', options: { search_obj: {}, menu: true } }));
    const tree: { tipo: string; grantable?: boolean }[] = started.body.data.context.find(
      (c: { type: string }) => c.type === 'menu',
    ).tree;
    const grantable = (tipo: string) => tree.find((e) => e.tipo === tipo)?.grantable;
    expect([grantable('ontology1'), grantable('oh0'), grantable(MAIN)]).toEqual([false, false, false]);
    expect(grantable('oh1')).toBeUndefined();
  });

  it('searches a TLD section by its components, and offers the implemented models', async () => {
    for (const path of [[{ section_tipo: 'oh0', component_tipo: MODEL }], [{ component_tipo: MODEL }]]) {
      const found = await ok(
        root.post({
          action: 'read',
          source: { section_tipo: 'oh0', mode: 'list' },
          sqo: {
            section_tipo: ['oh0'],
            filter: { $and: [{ q: 'component_portal', q_operator: '=', path }] },
          },
        }),
      );
      const ids = found.body.data.data
        .filter((d: { tipo: string }) => d.tipo === MODEL)
        .map((d: { section_id: number }) => d.section_id)
        .sort((x: number, y: number) => x - y);
      expect(ids).toEqual([17, 24, 25]);
    }
    // The model field's choices: every implemented component model and the elements one may add.
    const context = await ok(
      root.post({
        action: 'get_element_context',
        source: { tipo: MODEL, section_tipo: 'oh0', mode: 'edit' },
      }),
    );
    const choices = JSON.stringify(context.body);
    for (const model of Object.keys(COMPONENT_MODELS)) expect(choices).toContain(`"${model}"`);
  });

  it("chooses a section's list columns", async () => {
    const columnsOf = async (section: string) => {
      const read = await ok(
        root.post({
          action: 'read',
          source: { section_tipo: section, mode: 'list' },
          sqo: { section_tipo: [section], limit: 1 },
        }),
      );
      const context = read.body.data.context.find((c: { tipo: string }) => c.tipo === section);
      return context.columns_map.map((c: { tipo: string }) => c.tipo);
    };
    expect(await columnsOf('oh0')).toEqual([TERM, MODEL, PARENT, 'ontology13', TARGETS]);
    expect(await columnsOf('rsc197')).toContain('rsc85');
    const people = 197;
    await ok(setValue(root, 'rsc0', people, 'ontology19', [{ value: 'rsc86' }, { value: 'rsc9001' }]));
    expect(await columnsOf('rsc197')).toEqual(['rsc86', 'rsc9001']);
    expect((await nodeRow(work, 'rsc197'))?.model).toBe('section');
    await ok(setValue(root, 'rsc0', people, 'ontology19', []));
    expect(await columnsOf('rsc197')).toContain('rsc85');
  });

  it('lets only global admins reach the ontology sections, whatever a profile grants', async () => {
    await setProfileAccess(work.server.db, 2, [
      { tipo: 'oh9000', section_tipo: 'oh9000', value: 2 },
      { tipo: 'oh1', section_tipo: 'oh1', value: 2 },
      { tipo: 'oh0', section_tipo: 'oh0', value: 3 },
      { tipo: TERM, section_tipo: 'oh0', value: 3 },
      { tipo: 'ontology1', section_tipo: 'ontology1', value: 3 },
      { tipo: MAIN, section_tipo: MAIN, value: 3 },
    ]);
    const read = await cata.post({
      action: 'read',
      source: { section_tipo: 'oh0', mode: 'list' },
      sqo: { section_tipo: ['oh0'] },
    });
    expect([read.status, read.body.error?.code]).toEqual([403, 'perm.global_admin_required']);
    const created = await cata.post({ action: 'create', source: { section_tipo: 'oh0' } });
    expect([created.status, created.body.error?.code]).toEqual([403, 'perm.global_admin_required']);
    const saved = await setValue(cata, 'oh0', 1, TERM, [{ value: 'Hacked' }], 'lg-eng');
    expect([saved.status, saved.body.error?.code]).toEqual([403, 'perm.global_admin_required']);
    const main = await cata.post({ action: 'create', source: { section_tipo: MAIN } });
    expect([main.status, main.body.error?.code]).toEqual([403, 'perm.global_admin_required']);
    expect(await menuOf(cata)).not.toEqual(expect.arrayContaining(['ontology1']));
    expect((await menuOf(cata)).filter((t) => /^ontology[0-9]+$|^[a-z]+0$/.test(t))).toEqual([]);
    expect((await nodeRow(work, 'oh1'))?.term['lg-eng']).toBe('Interviews');
  });

  it('adds a section and a component that a cataloguer catalogues once the profile grants them', async () => {
    const section = await addNode(root, 'oh', { term: 'Places', model: 'section', parent: 'oh9000' });
    const component = await addNode(root, 'oh', {
      term: 'Place name',
      model: 'component_input_text',
      parent: section,
    });
    expect(await nodeRow(work, section)).toEqual({
      term: { 'lg-eng': 'Places' },
      model: 'section',
      parent: 'oh9000',
    });
    // The next request of anyone sees the new section.
    expect(await menuOf(root)).toContain(section);
    const refused = await cata.post({ action: 'create', source: { section_tipo: section } });
    expect(refused.status).toBe(403);

    await setProfileAccess(work.server.db, 2, [
      { tipo: 'oh9000', section_tipo: 'oh9000', value: 2 },
      { tipo: section, section_tipo: section, value: 2 },
      { tipo: component, section_tipo: section, value: 2 },
    ]);
    expect(await menuOf(cata)).toContain(section);
    const place = await create(cata, section);
    await ok(setValue(cata, section, place, component, [{ value: 'Ripoll' }]));
    expect(await readValue(cata, section, place, component)).toBe('Ripoll');
  });

  it('refuses an edit that would break the ontology, writing nothing', async () => {
    const id = await create(root, 'oh0');
    await ok(setValue(root, 'oh0', id, TERM, [{ value: 'Broken' }], 'lg-eng'));
    const model = await setValue(root, 'oh0', id, MODEL, [{ value: 'component_teleporter' }]);
    expect([model.status, model.body.error?.code]).toEqual([400, 'ontology.invalid']);
    expect(model.body.error.details.problems.join(' ')).toContain('component_teleporter');
    expect(await readValue(root, 'oh0', id, MODEL)).toBeUndefined();

    await ok(setValue(root, 'oh0', id, MODEL, [{ value: 'component_portal' }]));
    // A portal needs targets; and a parent that exists.
    const noTarget = await setValue(root, 'oh0', id, PARENT, [{ value: 'oh2' }]);
    expect([noTarget.status, noTarget.body.error?.code]).toEqual([400, 'ontology.invalid']);
    const notSection = await setValue(root, 'oh0', id, TARGETS, [{ value: 'oh2' }]);
    expect(notSection.status).toBe(200); // still a draft: no parent yet
    const badTarget = await setValue(root, 'oh0', id, PARENT, [{ value: 'oh2' }]);
    expect(badTarget.body.error?.details.problems.join(' ')).toContain('oh2, not a section');
    await ok(setValue(root, 'oh0', id, TARGETS, [{ value: 'rsc197' }]));
    const missing = await setValue(root, 'oh0', id, PARENT, [{ value: 'oh777' }]);
    expect(missing.body.error?.details.problems.join(' ')).toContain('missing parent oh777');
    expect(await nodeRow(work, `oh${id}`)).toBeUndefined();
    // A cycle: oh2 (a grouper of oh1) under a child of its own.
    await ok(setValue(root, 'oh0', id, PARENT, [{ value: 'oh2' }]));
    const cycle = await setValue(root, 'oh0', 2, PARENT, [{ value: `oh${id}` }]);
    expect([cycle.status, cycle.body.error?.code]).toEqual([400, 'ontology.invalid']);
    expect((await nodeRow(work, 'oh2'))?.parent).toBe('oh1');
    expect(await readValue(root, 'oh0', 2, PARENT)).toBe('oh1');
  });

  it('removes a component without touching its values, which come back with the node', async () => {
    const section = await addNode(root, 'rsc', { term: 'Boxes', model: 'section', parent: 'rsc9000' });
    const label = await addNode(root, 'rsc', {
      term: 'Label',
      model: 'component_input_text',
      parent: section,
    });
    const ids = [await create(root, section), await create(root, section), await create(root, section)];
    await ok(setValue(root, section, ids[0]!, label, [{ value: 'first box' }]));
    await ok(setValue(root, section, ids[1]!, label, [{ value: 'second box' }]));

    const labelId = Number(label.slice(3));
    const removed = await ok(
      root.post({
        action: 'delete',
        source: { section_tipo: 'rsc0', section_id: labelId, delete_mode: 'delete_record' },
      }),
    );
    expect(removed.body.removed_component_values).toEqual({ [label]: 2 });
    expect(await nodeRow(work, label)).toBeUndefined();
    expect(await readValue(root, section, ids[0]!, label)).toBeUndefined();
    const { rows } = await work.server.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM matrix WHERE section_tipo = $1 AND string ? $2`,
      [section, label],
    );
    expect(rows[0]!.n).toBe('2');

    // The node comes back with the same tipo (as an import writes it): the values show again.
    await work.server.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO dd_ontology (tipo, parent, term, model, order_number, tld)
         VALUES ($1, $2, '{"lg-eng": "Label"}', 'component_input_text', 1, 'rsc')`,
        [label, section],
      );
      await mirrorTld(tx, 'rsc');
    });
    expect(await readValue(root, section, ids[0]!, label)).toBe('first box');
    expect(await readValue(root, 'rsc0', labelId, MODEL)).toBe('component_input_text');
  });

  it('never overwrites a node written without its record when a new record would take its tipo', async () => {
    const { rows } = await work.server.db.query<{ value: number }>(
      `SELECT value FROM matrix_counter WHERE section_tipo = 'oh0'`,
    );
    const next = (rows[0]?.value ?? 9000) + 1;
    // Written by SQL: a node with the tipo the next record of oh0 would get, and no record.
    await work.server.db.query(
      `INSERT INTO dd_ontology (tipo, parent, term, model, order_number, tld)
       VALUES ($1, 'oh3', '{"lg-eng": "Written by SQL"}', 'component_input_text', 9, 'oh')`,
      [`oh${next}`],
    );
    const id = await create(root, 'oh0');
    expect(id).toBe(next);
    expect((await nodeRow(work, `oh${next}`))?.term).toEqual({ 'lg-eng': 'Written by SQL' });
    expect(await readValue(root, 'oh0', id, MODEL)).toBe('component_input_text');
    expect(await create(root, 'oh0')).toBe(next + 1);
  });

  it('keeps each edit in history, and restoring an old label or model is a save', async () => {
    const id = await create(root, 'oh0');
    await ok(setValue(root, 'oh0', id, TERM, [{ value: 'Notes' }], 'lg-eng'));
    await ok(setValue(root, 'oh0', id, MODEL, [{ value: 'component_input_text' }]));
    await ok(setValue(root, 'oh0', id, PARENT, [{ value: 'oh3' }]));
    await ok(setValue(root, 'oh0', id, TERM, [{ value: 'Remarks' }], 'lg-eng'));
    await ok(setValue(root, 'oh0', id, MODEL, [{ value: 'component_text_area' }]));
    expect(await nodeRow(work, `oh${id}`)).toMatchObject({
      term: { 'lg-eng': 'Remarks' },
      model: 'component_text_area',
    });

    const history = await ok(
      root.post({
        action: 'read',
        source: { section_tipo: 'oh0', mode: 'tm' },
        sqo: {
          section_tipo: ['oh0'],
          mode: 'tm',
          filter_by_locators: [{ section_tipo: 'oh0', section_id: id }],
        },
      }),
    );
    const values = (tipo: string) =>
      history.body.data.data
        .filter((d: { tipo: string }) => d.tipo === tipo)
        .map((d: { entries: { value: string }[] }) => d.entries[0]?.value);
    expect(values(TERM)).toEqual(expect.arrayContaining(['Notes', 'Remarks']));
    expect(values(MODEL)).toEqual(expect.arrayContaining(['component_input_text', 'component_text_area']));

    // Undo: the old values saved again.
    await ok(setValue(root, 'oh0', id, TERM, [{ value: 'Notes' }], 'lg-eng'));
    await ok(setValue(root, 'oh0', id, MODEL, [{ value: 'component_input_text' }]));
    expect(await nodeRow(work, `oh${id}`)).toMatchObject({
      term: { 'lg-eng': 'Notes' },
      model: 'component_input_text',
    });
  });

  it('registers a TLD from a main record and uninstalls it, confirmed when it has records', async () => {
    const id = await create(root, MAIN);
    await ok(setValue(root, MAIN, id, MAIN_NAME, [{ value: 'Zoology' }]));
    await ok(setValue(root, MAIN, id, MAIN_TLD, [{ value: 'zoo' }]));
    expect(await menuOf(root)).toContain('zoo0');
    const species = await addNode(root, 'zoo', { term: 'Species', model: 'section', parent: 'dd1' });
    const specimen = await create(root, species);

    const refused = await root.post({
      action: 'delete',
      source: { section_tipo: MAIN, section_id: id, delete_mode: 'delete_record' },
    });
    expect([refused.status, refused.body.error?.code]).toEqual([409, 'ontology.tld_has_records']);
    expect(refused.body.error.details.records).toEqual({ [species]: 1 });
    expect(await nodeRow(work, species)).toBeDefined();

    const renamed = await setValue(root, MAIN, id, MAIN_TLD, [{ value: 'zoology' }]);
    expect([renamed.status, renamed.body.error?.code]).toEqual([400, 'ontology.invalid']);

    const done = await ok(
      root.post({
        action: 'delete',
        source: { section_tipo: MAIN, section_id: id, delete_mode: 'delete_record' },
        options: { confirm_uninstall: true },
      }),
    );
    expect(done.body.uninstalled).toEqual([{ tld: 'zoo', kept_records: { [species]: 1 } }]);
    expect(await nodeRow(work, species)).toBeUndefined();
    const gone = await root.post({ action: 'create', source: { section_tipo: species } });
    expect([gone.status, gone.body.error?.code]).toEqual([404, 'element.unknown_tipo']);
    expect(await menuOf(root)).not.toContain('zoo0');
    // The record is kept in storage, hidden.
    const kept = await work.server.db.query(
      'SELECT 1 FROM matrix WHERE section_tipo = $1 AND section_id = $2',
      [species, specimen],
    );
    expect(kept.rows.length).toBe(1);

    // Without records: no confirmation needed.
    const other = await create(root, MAIN);
    await ok(setValue(root, MAIN, other, MAIN_TLD, [{ value: 'empty' }]));
    await ok(
      root.post({
        action: 'delete',
        source: { section_tipo: MAIN, section_id: other, delete_mode: 'delete_record' },
      }),
    );
    expect((await work.server.db.query(`SELECT 1 FROM main_dd WHERE tld = 'empty'`)).rows.length).toBe(0);
  });

  it('refuses to uninstall the TLDs the server needs', async () => {
    const main = await ok(
      root.post({
        action: 'read',
        source: { section_tipo: MAIN, mode: 'list' },
        sqo: { section_tipo: [MAIN] },
      }),
    );
    const dd = main.body.data.data.find(
      (d: { tipo: string; entries: { value: string }[] }) =>
        d.tipo === MAIN_TLD && d.entries[0]?.value === 'dd',
    );
    const refused = await root.post({
      action: 'delete',
      source: { section_tipo: MAIN, section_id: dd.section_id, delete_mode: 'delete_record' },
      options: { confirm_uninstall: true },
    });
    expect([refused.status, refused.body.error?.code]).toEqual([409, 'ontology.tld_protected']);
    expect((await nodeRow(work, 'dd128'))?.model).toBe('section');
  });
});

const postgres = workEngineCases().filter((c) => c.engine === 'postgres');

describe.skipIf(postgres.length === 0)('an ontology edit seen by a second instance', () => {
  let two: TwoInstances;
  let a: RunningWorkServer;
  let b: RunningWorkServer;
  beforeAll(async () => {
    two = await startTwoInstances(postgres[0]!);
    ({ a, b } = two);
  });
  afterAll(async () => {
    await two?.close();
  });

  it('serves a label change and a new section on the next request of the other instance', async () => {
    const root = instancesBrowser();
    await ok(
      root.post(a.url, {
        dd_api: 'dd_utils_api',
        action: 'login',
        options: { username: 'root', auth: TEST_ROOT_PASSWORD },
      }),
    );
    const menuOfB = async () => {
      const started = await ok(
        root.post(b.url, { action: 'start', options: { search_obj: {}, menu: true } }),
      );
      return started.body.data.context.find((c: { type: string }) => c.type === 'menu').tree as {
        tipo: string;
        label: string;
      }[];
    };
    expect((await menuOfB()).find((e) => e.tipo === 'oh1')?.label).toBe('Interviews');
    const post = (body: unknown) => ok(root.post(a.url, body));
    const save = (id: number, tipo: string, value: string, lang = 'lg-nolan') =>
      post({
        action: 'save',
        source: { tipo, section_tipo: 'oh0', section_id: id, lang },
        data: { changed_data: [{ action: 'set_data', value: [{ value }] }] },
      });
    await save(1, TERM, 'Oral interviews', 'lg-eng');
    const id = (await post({ action: 'create', source: { section_tipo: 'oh0' } })).body.data as number;
    await save(id, TERM, 'Events', 'lg-eng');
    await save(id, MODEL, 'section');
    await save(id, PARENT, 'oh9000');
    // Written through A; B's very next request serves it (no restart, no waiting).
    const menu = await menuOfB();
    expect(menu.find((e) => e.tipo === 'oh1')?.label).toBe('Oral interviews');
    expect(menu.find((e) => e.tipo === `oh${id}`)?.label).toBe('Events');
  });
});

describe.each(workEngineCases())(
  'a database of before the ontology records ($engine)',
  ({ freshDatabase }) => {
    let fresh: FreshDatabase | undefined;
    afterAll(async () => {
      await fresh?.dispose();
    });

    it('renames the areas oh0/rsc0 with their grants, adds the Ontology area and mirrors every TLD', async () => {
      fresh = await freshDatabase();
      const db = await fresh.open();
      await migrateSchema(
        db,
        MIGRATIONS.filter((m) => m.version < 13),
      );
      // The default content as it was installed before: areas oh0/rsc0, no `ontology` TLD.
      const old = defaultOntologySource();
      const rename = (t: string | null) => (t === 'oh9000' ? 'oh0' : t === 'rsc9000' ? 'rsc0' : t);
      old.nodes = old.nodes
        .filter((n) => !n.tipo.startsWith('ontology'))
        .map((n) => ({ ...n, tipo: rename(n.tipo)!, parent: rename(n.parent) }));
      old.tlds = old.tlds!.filter((t) => t.tld !== 'ontology');
      await installDefaultOntology(db, old);
      await insertProfile(db, 7, [
        { tipo: 'oh0', section_tipo: 'oh0', value: 2 },
        { tipo: 'oh1', section_tipo: 'oh1', value: 2 },
        { tipo: 'rsc0', section_tipo: 'rsc0', value: 1 },
      ]);

      const report = await bootstrapDatabase(db, async (d) => (await loadStoredOntology(d)).ontology, {
        rootPassword: 'x',
      });
      expect(report.migrationsApplied).toEqual(
        MIGRATIONS.filter((m) => m.version >= 13).map((m) => m.version),
      );
      const { ontology } = await loadStoredOntology(db);
      expect(ontology.node('oh9000')?.model).toBe('area');
      expect(ontology.node('oh1')?.parent).toBe('oh9000');
      expect(ontology.node('rsc197')?.parent).toBe('rsc9000');
      // `oh0` is now the oral-history TLD's ontology section, in the Ontology area.
      expect(ontology.node('oh0')).toMatchObject({ model: 'section', parent: 'ontology1' });
      expect(ontology.virtualOf('oh0')).toBe('ontology5');
      expect(ontology.tableOf('oh0')).toBe('matrix_ontology');
      const { rows } = await db.query<{ misc: { dd774: unknown[] } }>(
        `SELECT misc FROM matrix_profiles WHERE section_tipo = 'dd234' AND section_id = 7`,
      );
      expect(rows[0]!.misc.dd774).toEqual([
        { tipo: 'oh9000', section_tipo: 'oh9000', value: 2 },
        { tipo: 'oh1', section_tipo: 'oh1', value: 2 },
        { tipo: 'rsc9000', section_tipo: 'rsc9000', value: 1 },
      ]);
      // Every node has its record, every TLD its main record.
      const counts = await db.query<{ section_tipo: string; n: string }>(
        `SELECT section_tipo, count(*)::text AS n FROM matrix_ontology GROUP BY section_tipo ORDER BY section_tipo`,
      );
      const nodes = await db.query<{ tld: string; n: string }>(
        `SELECT tld || '0' AS tld, count(*)::text AS n FROM dd_ontology GROUP BY tld ORDER BY 1`,
      );
      expect(counts.rows.map((r) => [r.section_tipo, r.n])).toEqual(nodes.rows.map((r) => [r.tld, r.n]));
      const main = await db.query(`SELECT 1 FROM matrix_ontology_main WHERE section_tipo = 'ontology2'`);
      expect(main.rows.length).toBe(6);
      // A second start changes nothing.
      const version = await readOntologyVersion(db);
      await bootstrapDatabase(db, async (d) => (await loadStoredOntology(d)).ontology);
      expect(await readOntologyVersion(db)).toBe(version);
    });
  },
);
