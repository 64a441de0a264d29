/**
 * Installing a thesaurus TLD (ensureHierarchyTld), on both engines, with a running server that
 * follows the change on its next request: after installing `ad`, root sees Andorra's term and
 * model sections in the menu under the thesaurus, creates terms in ad1 through the API with a
 * parent in ad1 (the parent's children show it), reads and searches them; a cataloguer sees
 * nothing of them until a profile grants them; a second call writes nothing; an invalid TLD, a
 * TLD whose sections are something else and a bad name are refused with nothing written; the
 * TLD's ontology export reads back unchanged. On PostgreSQL, a second instance serves the new
 * sections too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkCli } from '../../src/work/cli.js';
import { WorkError } from '../../src/work/dispatch/error-registry.js';
import { ensureHierarchyTld, hierarchyTlds } from '../../src/work/ontology/hierarchy-install.js';
import { loadStoredOntology } from '../../src/work/ontology/ontology-store.js';
import type { SqlQueryable } from '../../src/work/store/sql-client.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser } from '../helpers/work-permissions.js';
import {
  instancesBrowser,
  rootBrowser,
  startTestWorkServer,
  startTwoInstances,
  TEST_ROOT_PASSWORD,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ANDORRA = { 'lg-spa': 'Andorra', 'lg-cat': 'Andorra', 'lg-eng': 'Andorra' };
const install = (
  db: Parameters<typeof ensureHierarchyTld>[0],
  tld: string,
  labels?: Record<string, string>,
) => ensureHierarchyTld(db, tld, { userId: -1, now: new Date(), via: 'cli', labels });

function ok(answer: WorkAnswer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

/** What changes when the ontology is written: its version, its rows, the activity log. */
async function footprint(db: SqlQueryable) {
  const { rows } = await db.query<{ v: string; n: string; a: string; m: string }>(
    `SELECT (SELECT version::text FROM ontology_version) AS v,
       (SELECT count(*)::text FROM dd_ontology) AS n,
       (SELECT count(*)::text FROM matrix_activity) AS a,
       (SELECT count(*)::text FROM main_dd) AS m`,
  );
  return rows[0]!;
}

async function refusal(promise: Promise<unknown>): Promise<WorkError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkError);
  return err as WorkError;
}

async function menuOf(as: WorkBrowser | { post(body: unknown): Promise<WorkAnswer> }) {
  const data = ok(await as.post({ action: 'start', options: { search_obj: {}, menu: true } }));
  const menu = data.context.find((c: { type: string }) => c.type === 'menu');
  return menu.tree as { tipo: string; parent: string; label: string }[];
}

describe.each(workEngineCases())('installing a thesaurus TLD ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let cata: WorkBrowser;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    await insertLoginUser(work.server.db, 4, { username: 'cata', password: 'cata password', profile: 2 });
    root = await rootBrowser(work);
    cata = work.browser();
    expect((await cata.login('cata', 'cata password')).status).toBe(200);
  });
  afterAll(async () => {
    await work?.stop();
  });

  const create = async (sectionTipo: string) =>
    ok(await root.post({ action: 'create', source: { section_tipo: sectionTipo } })) as number;
  const save = (
    tipo: string,
    sectionTipo: string,
    id: number,
    model: string,
    lang: string,
    changes: unknown[],
  ) =>
    root.post({
      action: 'save',
      source: { tipo, section_tipo: sectionTipo, section_id: id, lang, model },
      data: { changed_data: changes },
    });
  const readRecord = async (sectionTipo: string, id: number, lang = 'lg-spa') =>
    ok(
      await root.post({
        action: 'read',
        source: { section_tipo: sectionTipo, section_id: id, mode: 'edit', lang },
        sqo: {
          section_tipo: [sectionTipo],
          filter_by_locators: [{ section_tipo: sectionTipo, section_id: id }],
        },
      }),
    );
  const entriesOf = (
    read: { data: { tipo: string; section_id: number; entries?: unknown[] }[] },
    tipo: string,
    id: number,
  ) => read.data.find((d) => d.tipo === tipo && d.section_id === id)?.entries ?? [];
  const count = async (sectionTipo: string, q: string) =>
    ok(
      await root.post({
        action: 'count',
        source: { section_tipo: sectionTipo },
        sqo: {
          section_tipo: [sectionTipo],
          filter: { $and: [{ q, path: [{ component_tipo: 'hierarchy25' }] }] },
        },
      }),
    ).total as number;

  it('refuses an invalid TLD, a TLD whose sections are something else and a bad name, writing nothing', async () => {
    const before = await footprint(work.server.db);
    for (const tld of ['A', 'ad1', 'a', 'ad-x', '']) {
      const err = await refusal(install(work.server.db, tld));
      expect(err.code).toBe('ontology.hierarchy_tld_invalid');
      expect(err.status).toBe(400);
      expect(err.message).toMatch(/2 to 32 lower-case letters/);
    }
    // oh1 is the interviews section, dd1 the root area, ts1 the term section itself.
    expect((await refusal(install(work.server.db, 'oh'))).details?.problems).toEqual([
      'oh1 already exists and is not a thesaurus section: it is a section with components of its own',
      'oh2 already exists and is not a thesaurus section: it is a section_group',
    ]);
    expect((await refusal(install(work.server.db, 'dd'))).message).toMatch(/dd1 already exists .* area_root/);
    expect((await refusal(install(work.server.db, 'ts'))).message).toMatch(/ts1 already exists/);
    const badName = await refusal(install(work.server.db, 'ad', { spanish: 'Andorra', 'lg-eng': ' ' }));
    expect(badName.details?.problems).toEqual([
      '"spanish" is not a language code like lg-spa',
      'the lg-eng name is empty',
    ]);
    expect(await footprint(work.server.db)).toEqual(before);
  });

  it('creates ad1 and ad2 under the thesaurus, registered; the running server serves them from its next request', async () => {
    expect(await menuOf(root)).not.toContainEqual(expect.objectContaining({ tipo: 'ad1' }));
    const result = await install(work.server.db, 'ad', ANDORRA);
    expect(result).toEqual({ tld: 'ad', created: true, termSection: 'ad1', modelSection: 'ad2' });

    const { ontology } = await loadStoredOntology(work.server.db);
    expect(ontology.virtualOf('ad1')).toBe('ts1');
    expect(ontology.virtualOf('ad2')).toBe('ts1');
    expect(ontology.tableOf('ad1')).toBe('matrix_hierarchy');
    expect(ontology.node('ad1')).toMatchObject({ parent: 'dd100', label: ANDORRA });
    expect(ontology.node('ad2')?.label).toEqual({
      'lg-spa': 'Andorra: modelos',
      'lg-cat': 'Andorra: models',
      'lg-eng': 'Andorra: models',
    });
    expect(ontology.node('hierarchy36')?.target_section_tipo).toEqual(['ts1', 'ad1', 'ad2']);
    expect(ontology.node('hierarchy49')?.target_section_tipo).toEqual(['ts1', 'ad1', 'ad2']);
    expect(hierarchyTlds(ontology)).toEqual(['ad']);
    const { rows: registry } = await work.server.db.query('SELECT name, source FROM main_dd WHERE tld = $1', [
      'ad',
    ]);
    expect(registry).toEqual([{ name: 'Andorra', source: 'thesaurus install' }]);
    const { rows: activity } = await work.server.db.query<{ what: string; data: unknown }>(
      `SELECT string -> 'dd545' -> 0 ->> 'value' AS what, misc -> 'dd551' -> 0 -> 'value' AS data
       FROM matrix_activity ORDER BY section_id DESC LIMIT 1`,
    );
    expect(activity[0]).toEqual({
      what: 'thesaurus_install',
      data: {
        tld: 'ad',
        created: ['ad1', 'ad2'],
        targets_added_to: ['hierarchy36', 'hierarchy49'],
        via: 'cli',
      },
    });

    const menu = await menuOf(root);
    expect(menu.filter((e) => e.tipo === 'ad1' || e.tipo === 'ad2')).toEqual([
      expect.objectContaining({ tipo: 'ad1', parent: 'dd100' }),
      expect.objectContaining({ tipo: 'ad2', parent: 'dd100' }),
    ]);
    // Its ontology section, as for any registered TLD.
    expect(menu.map((e) => e.tipo)).toContain('ad0');
  });

  it('takes terms in ad1 with a parent in ad1; the parent shows its children; read and search find them', async () => {
    const andorra = await create('ad1');
    const canillo = await create('ad1');
    const term = (id: number, lang: string, value: string) =>
      save('hierarchy25', 'ad1', id, 'component_input_text', lang, [
        { action: 'insert', id: null, value: { id: null, lang, value } },
      ]);
    ok(await term(andorra, 'lg-spa', 'Andorra'));
    ok(await term(canillo, 'lg-spa', 'Canillo'));
    ok(await term(canillo, 'lg-cat', 'Canillo (parròquia)'));
    ok(
      await save('hierarchy36', 'ad1', canillo, 'component_relation_parent', 'lg-nolan', [
        { action: 'insert', value: { section_tipo: 'ad1', section_id: andorra } },
      ]),
    );

    const parentRead = await readRecord('ad1', andorra);
    expect(entriesOf(parentRead, 'hierarchy49', andorra)).toEqual([
      expect.objectContaining({ section_tipo: 'ad1', section_id: canillo, type: 'dd48' }),
    ]);
    const childRead = await readRecord('ad1', canillo);
    expect(entriesOf(childRead, 'hierarchy36', canillo)).toEqual([
      expect.objectContaining({ section_tipo: 'ad1', section_id: andorra, type: 'dd47' }),
    ]);
    expect(entriesOf(childRead, 'hierarchy25', canillo)).toEqual([
      expect.objectContaining({ value: 'Canillo' }),
    ]);
    const inCatalan = await readRecord('ad1', canillo, 'lg-cat');
    expect(entriesOf(inCatalan, 'hierarchy25', canillo)).toEqual([
      expect.objectContaining({ value: 'Canillo (parròquia)' }),
    ]);

    expect(await count('ad1', 'canillo')).toBe(1);
    expect(await count('ad1', 'andorra')).toBe(1);
    // The terms are Andorra's: not the general thesaurus' (same table, other section).
    expect(await count('ts1', 'canillo')).toBe(0);
    const list = ok(
      await root.post({
        action: 'read',
        source: { section_tipo: 'ad1', mode: 'list', lang: 'lg-spa' },
        sqo: { section_tipo: ['ad1'], limit: 10, offset: 0 },
      }),
    );
    const ids = list.data
      .filter((d: { tipo: string }) => d.tipo === 'hierarchy25')
      .map((d: { section_id: number }) => d.section_id);
    expect(ids.sort()).toEqual([andorra, canillo].sort());

    // A parent outside the component's targets is still refused.
    const wrong = await save('hierarchy36', 'ad1', canillo, 'component_relation_parent', 'lg-nolan', [
      { action: 'insert', value: { section_tipo: 'oh1', section_id: 1 } },
    ]);
    expect(wrong.status).toBe(400);
  });

  it('keeps a cataloguer out of the new sections until a profile grants them', async () => {
    const tipos = (await menuOf(cata)).map((e) => e.tipo);
    expect(tipos).toContain('ts1');
    expect(tipos).not.toContain('ad1');
    expect(tipos).not.toContain('ad2');
    const read = await cata.post({
      action: 'read',
      source: { section_tipo: 'ad1', mode: 'list' },
      sqo: { section_tipo: ['ad1'], limit: 10, offset: 0 },
    });
    expect(read.status).toBe(403);
  });

  it('a second call writes nothing; a call with other labels does not rename it', async () => {
    const before = await footprint(work.server.db);
    expect(await install(work.server.db, 'ad', ANDORRA)).toEqual({
      tld: 'ad',
      created: false,
      termSection: 'ad1',
      modelSection: 'ad2',
    });
    expect((await install(work.server.db, 'ad', { 'lg-eng': 'Other' })).created).toBe(false);
    expect(await footprint(work.server.db)).toEqual(before);
  });

  it("the TLD's ontology export reads back unchanged", async () => {
    const exported = ok(
      await root.post({ dd_api: 'dd_ontology_api', action: 'export_ontology', options: { tld: 'ad' } }),
    );
    expect(exported.content).toMatch(/\bad1\b/);
    const before = await footprint(work.server.db);
    const back = ok(
      await root.post({
        dd_api: 'dd_ontology_api',
        action: 'import_ontology',
        options: { content: exported.content, file_name: 'ad.copy.sql' },
      }),
    );
    expect([back.tld, back.added.count, back.changed.count, back.removed.count]).toEqual(['ad', 0, 0, 0]);
    // The import logs itself; the ontology itself did not move.
    expect((await footprint(work.server.db)).n).toBe(before.n);
    const again = ok(
      await root.post({ dd_api: 'dd_ontology_api', action: 'export_ontology', options: { tld: 'ad' } }),
    );
    expect(again.content).toBe(exported.content);
  });

  it('an installed TLD whose targets were lost gets them back (created: false)', async () => {
    // An operator (or an import of the hierarchy TLD from elsewhere) reset hierarchy36's targets.
    await work.server.db.query(
      `UPDATE dd_ontology SET relations = '[{"tipo":"ts1"}]' WHERE tipo = 'hierarchy36'`,
    );
    expect((await install(work.server.db, 'ad')).created).toBe(false);
    const { ontology } = await loadStoredOntology(work.server.db);
    expect(ontology.node('hierarchy36')?.target_section_tipo).toEqual(['ts1', 'ad1', 'ad2']);
    expect(ontology.node('ad1')?.label).toEqual(ANDORRA);
  });
});

const postgres = workEngineCases().filter((c) => c.engine === 'postgres');

describe.skipIf(postgres.length === 0)('installing a thesaurus TLD beside two instances (PostgreSQL)', () => {
  it('both instances serve the new sections from their next request', async () => {
    const two = await startTwoInstances(postgres[0]!);
    try {
      const browser = instancesBrowser();
      const a = { post: (body: unknown) => browser.post(two.a.url, body) };
      const b = { post: (body: unknown) => browser.post(two.b.url, body) };
      const login = await a.post({
        dd_api: 'dd_utils_api',
        action: 'login',
        options: { username: 'root', auth: TEST_ROOT_PASSWORD },
      });
      expect(login.status).toBe(200);
      expect((await menuOf(a)).map((e) => e.tipo)).not.toContain('es1');
      expect((await menuOf(b)).map((e) => e.tipo)).not.toContain('es1');
      // A third client, as the CLI beside the servers.
      const client = await two.fresh.open();
      expect(
        (await ensureHierarchyTld(client, 'es', { userId: -1, now: new Date(), via: 'cli' })).created,
      ).toBe(true);
      expect((await menuOf(a)).map((e) => e.tipo)).toEqual(expect.arrayContaining(['es1', 'es2']));
      expect((await menuOf(b)).map((e) => e.tipo)).toEqual(expect.arrayContaining(['es1', 'es2']));
      const id = ok(await b.post({ action: 'create', source: { section_tipo: 'es1' } }));
      expect(id).toEqual(expect.any(Number));
    } finally {
      await two.close();
    }
  });
});

describe.each(workEngineCases())('npm run work -- thesaurus install ($engine)', (engine) => {
  it('installs a TLD on a database no server has started yet, then says there is nothing to do', async () => {
    const fresh = await engine.freshDatabase();
    try {
      const env = { LOG_LEVEL: 'silent', DEDALO_ROOT_PASSWORD: TEST_ROOT_PASSWORD, ...fresh.env };
      expect(await runWorkCli(['thesaurus', 'install'], env)).toMatchObject({ exitCode: 2 });
      expect(await runWorkCli(['thesaurus', 'install', 'ad', '--label', 'Andorra'], env)).toMatchObject({
        exitCode: 2,
      });
      const first = await runWorkCli(
        ['thesaurus', 'install', 'ad', '--label', 'lg-spa=Andorra', '--label', 'lg-cat=Andorra'],
        env,
      );
      expect(first).toEqual({
        exitCode: 0,
        output: expect.stringMatching(/^Thesaurus ad installed: sections ad1/),
      });
      const again = await runWorkCli(['thesaurus', 'install', 'ad'], env);
      expect(again).toEqual({
        exitCode: 0,
        output: expect.stringMatching(/already installed .*nothing to do/),
      });
      const bad = await runWorkCli(['thesaurus', 'install', 'oh'], env);
      expect(bad).toEqual({ exitCode: 1, output: expect.stringMatching(/oh1 already exists/) });

      const db = await fresh.open();
      const { ontology } = await loadStoredOntology(db);
      expect(ontology.node('ad1')?.label).toEqual({ 'lg-spa': 'Andorra', 'lg-cat': 'Andorra' });
      const { rows } = await db.query<{ data: Record<string, unknown> }>(
        `SELECT misc->'dd551'->0->'value' AS data FROM matrix_activity
         WHERE string->'dd545'->0->>'value' = 'thesaurus_install'`,
      );
      expect(rows.map((r) => r.data)).toEqual([expect.objectContaining({ tld: 'ad', via: 'cli' })]);
    } finally {
      await fresh.dispose();
    }
  });
});

describe.each(workEngineCases())('a thesaurus package of a TLD the ontology lacks ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    root = await rootBrowser(work);
  });
  afterAll(async () => {
    await work?.stop();
  });

  it('ad1.copy imports in one call: ad1/ad2 installed, the terms with their parents and children', async () => {
    const content = readFileSync(join(import.meta.dirname, 'collections', 'fixtures', 'ad1.copy'), 'utf8');
    const report = ok(
      await root.post({
        dd_api: 'dd_import_api',
        action: 'import_records',
        options: { content, file_name: 'ad1.copy' },
      }),
    );
    expect(report.installed_tlds).toEqual(['ad']);
    expect(report.counts).toMatchObject({ created: 4, refused: 0 });
    // Row by row, with the record each line wrote.
    expect(report.outcomes).toEqual([
      { line: 1, outcome: 'created', section_tipo: 'ad1', section_id: 1 },
      { line: 2, outcome: 'created', section_tipo: 'ad1', section_id: 2 },
      { line: 3, outcome: 'created', section_tipo: 'ad1', section_id: 3 },
      { line: 4, outcome: 'created', section_tipo: 'ad2', section_id: 1 },
    ]);
    const { ontology } = await loadStoredOntology(work.server.db);
    expect([ontology.virtualOf('ad1'), ontology.virtualOf('ad2')]).toEqual(['ts1', 'ts1']);
    const { rows } = await work.server.db.query<{
      id: number;
      relation: Record<string, { section_tipo: string; section_id: number }[]>;
    }>(
      `SELECT section_id AS id, relation FROM matrix_hierarchy WHERE section_tipo = 'ad1' ORDER BY section_id`,
    );
    const links = (id: number, tipo: string) =>
      (rows.find((r) => r.id === id)?.relation[tipo] ?? []).map((l) => `${l.section_tipo} ${l.section_id}`);
    expect(links(1, 'hierarchy49')).toEqual(['ad1 2', 'ad1 3']);
    expect(links(2, 'hierarchy36')).toEqual(['ad1 1']);
    expect(links(3, 'hierarchy36')).toEqual(['ad1 1']);
    // The same file again: the TLD is there, nothing new.
    const again = ok(
      await root.post({
        dd_api: 'dd_import_api',
        action: 'import_records',
        options: { content, file_name: 'ad1.copy' },
      }),
    );
    expect(again.installed_tlds).toEqual([]);
    expect(again.counts).toMatchObject({ created: 0, updated: 0, refused: 0 });
    expect(again.outcomes.map((o: { outcome: string }) => o.outcome)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
  });
});
