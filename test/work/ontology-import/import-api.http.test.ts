/**
 * Importing and exporting ontologies through the API (`dd_ontology_api`) and the CLI beside a
 * running server, on both engines: a global admin imports `mus` and then creates, saves, lists
 * and searches a record in one of its sections on the same server (which loaded the new ontology
 * on its next request); anyone else gets 403; a bad file 400 and a broken result 409 with the
 * problems, nothing written; the export action answers the file the CLI writes. On PostgreSQL the
 * CLI imports beside the running server, which sees the TLD on its next request; on PGlite the
 * CLI refuses while the server holds the database.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runWorkCli } from '../../../src/work/cli.js';
import { loadWorkConfig } from '../../../src/work/config.js';
import { type RunningWorkServer, startWorkServer } from '../../../src/work/server.js';
import { type FreshDatabase, workEngineCases } from '../../helpers/work-engines.js';
import { insertLoginUser } from '../../helpers/work-permissions.js';
import {
  rootBrowser,
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../../helpers/work-server.js';

const dir = join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => readFileSync(join(dir, name), 'utf8');

const importBody = (content: string, options: Record<string, unknown> = {}) => ({
  dd_api: 'dd_ontology_api',
  action: 'import_ontology',
  options: { content, tld: 'mus', file_name: 'mus.jer_dd.sql', ...options },
});

function ok(answer: WorkAnswer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

describe.each(workEngineCases())('ontology import and export through the API ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let ana: WorkBrowser;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    await insertLoginUser(work.server.db, 4, { username: 'ana', password: 'ana password', profile: 2 });
    root = await rootBrowser(work);
    ana = work.browser();
    expect((await ana.login('ana', 'ana password')).status).toBe(200);
  });
  afterAll(async () => {
    await work?.stop();
  });

  const tldRows = async () =>
    (
      await work.server.db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM dd_ontology WHERE tld = 'mus'`,
      )
    ).rows[0]!.n;

  it('refuses anyone but a global admin, a bad file (400) and a broken result (409), writing nothing', async () => {
    const refused = await ana.post(importBody(fixture('mus.jer_dd.sql')));
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('perm.global_admin_required');
    const exportRefused = await ana.post({
      dd_api: 'dd_ontology_api',
      action: 'export_ontology',
      options: { tld: 'oh' },
    });
    expect(exportRefused.status).toBe(403);

    const bad = await root.post(importBody('INSERT INTO "jer_dd" ("terminoID") VALUES (\'mus1\'\n'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('ontology.import_invalid');
    expect(bad.body.error.details.problems[0]).toMatch(/line/);

    const several = await root.post(importBody(fixture('mus.jer_dd.sql'), { tld: null }));
    expect(several.status).toBe(400);
    expect(several.body.error.details.problems[0]).toMatch(/the file holds the TLDs dd, mus/);

    const broken = await root.post(
      importBody(fixture('mus.dd_ontology.copy.sql').replace('[{"tipo":"mus30"}]', '[{"tipo":"oh14"}]')),
    );
    expect(broken.status).toBe(409);
    expect(broken.body.error.code).toBe('ontology.import_broken');
    expect(broken.body.error.details.problems).toEqual(['mus12 targets oh14, not a section']);
    expect(broken.body.error.details.report.added.count).toBe(47);
    expect(await tldRows()).toBe('0');
  });

  it('a global admin imports mus; the same server then creates, saves, lists and searches a mus record', async () => {
    const report = ok(await root.post(importBody(fixture('mus.jer_dd.sql'))));
    expect(report).toMatchObject({ tld: 'mus', written: true, added: { count: 47 }, removed: { count: 0 } });
    expect(report.models_not_implemented).toMatchObject({ component_geolocation: 1, button_new: 1 });
    expect(report.relations_to_tlds_not_installed).toEqual({ numisdata: 2 });

    const id = ok(await root.post({ action: 'create', source: { section_tipo: 'mus40' } }));
    expect(id).toEqual(expect.any(Number));
    const saved = await root.post({
      action: 'save',
      source: {
        tipo: 'mus41',
        section_tipo: 'mus40',
        section_id: id,
        lang: 'lg-eng',
        model: 'component_input_text',
      },
      data: {
        changed_data: [{ action: 'insert', id: null, value: { id: null, lang: 'lg-eng', value: 'Bronze' } }],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const listed = ok(
      await root.post({
        action: 'read',
        source: { section_tipo: 'mus40', tipo: 'mus40', model: 'section', mode: 'list', lang: 'lg-eng' },
        sqo: { section_tipo: ['mus40'], limit: 10, offset: 0 },
      }),
    );
    const sections = listed.data.find((d: { typo: string }) => d.typo === 'sections');
    expect(sections.entries.map((e: { section_id: number }) => e.section_id)).toEqual([id]);
    const value = listed.data.find(
      (d: { tipo: string; section_id: number }) => d.tipo === 'mus41' && d.section_id === id,
    );
    expect(JSON.stringify(value)).toContain('Bronze');

    const count = async (q: string) =>
      ok(
        await root.post({
          action: 'count',
          source: { section_tipo: 'mus40' },
          sqo: { section_tipo: ['mus40'], filter: { $and: [{ q, path: [{ component_tipo: 'mus41' }] }] } },
        }),
      ).total;
    expect(await count('bronze')).toBe(1);
    expect(await count('iron')).toBe(0);

    // Importing again changes nothing; the export answers the file the import reads back.
    const again = ok(await root.post(importBody(fixture('mus.dd_ontology.copy.sql'))));
    expect([again.added.count, again.changed.count, again.removed.count]).toEqual([0, 0, 0]);
    const exported = ok(
      await root.post({ dd_api: 'dd_ontology_api', action: 'export_ontology', options: { tld: 'mus' } }),
    );
    expect(exported).toMatchObject({ tld: 'mus', format: 'dd_ontology' });
    const back = ok(await root.post(importBody(exported.content, { tld: null })));
    expect([back.added.count, back.changed.count, back.removed.count]).toEqual([0, 0, 0]);
    const missing = await root.post({
      dd_api: 'dd_ontology_api',
      action: 'export_ontology',
      options: { tld: 'numisdata' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ontology.tld_not_installed');
  });

  it('shows elements of models not implemented read-only in a record, with their stored value; saving one is refused', async () => {
    // Runs after the import above (same server).
    const id = ok(await root.post({ action: 'create', source: { section_tipo: 'mus2' } }));
    const point = { id: 1, lang: 'lg-nolan', value: { lat: 41.39, lon: 2.17 } };
    await work.server.db.query(
      `UPDATE matrix SET misc = coalesce(misc, '{}'::jsonb) || $1::jsonb WHERE section_tipo = 'mus2' AND section_id = $2`,
      [JSON.stringify({ mus28: [point] }), id],
    );
    const read = ok(
      await root.post({
        action: 'read',
        source: {
          section_tipo: 'mus2',
          tipo: 'mus2',
          model: 'section',
          mode: 'edit',
          lang: 'lg-eng',
          section_id: id,
        },
        sqo: {
          section_tipo: ['mus2'],
          limit: 1,
          offset: 0,
          filter_by_locators: [{ section_tipo: 'mus2', section_id: id }],
        },
      }),
    );
    const ctx = read.context.find((c: { tipo: string }) => c.tipo === 'mus28');
    expect(ctx).toMatchObject({
      type: 'component',
      model: 'component_geolocation',
      label: 'Location',
      permissions: 1,
      model_not_implemented: true,
    });
    const item = read.data.find(
      (d: { tipo: string; section_id: number }) => d.tipo === 'mus28' && d.section_id === id,
    );
    expect(item.entries).toEqual([point]);
    // In ontology order among the section's components, the implemented ones in between.
    const order = read.context
      .filter(
        (c: { type: string; section_tipo: string }) => c.type === 'component' && c.section_tipo === 'mus2',
      )
      .map((c: { tipo: string }) => c.tipo);
    expect(order.slice(order.indexOf('mus19'), order.indexOf('mus28') + 1)).toEqual([
      'mus19',
      'mus20',
      'mus21',
      'mus22',
      'mus23',
      'mus25',
      'mus26',
      'mus27',
      'mus28',
    ]);
    expect(read.context.find((c: { tipo: string }) => c.tipo === 'mus22')).toMatchObject({
      model: 'component_3d',
      model_not_implemented: true,
    });

    const save = await root.post({
      action: 'save',
      source: {
        tipo: 'mus28',
        section_tipo: 'mus2',
        section_id: id,
        lang: 'lg-nolan',
        model: 'component_geolocation',
      },
      data: { changed_data: [{ action: 'set_data', id: null, value: [] }] },
    });
    expect(save.status).toBe(400);
    expect(save.body.error.code).toBe('component.model_not_implemented');
    expect(save.body.error.message).toContain('component_geolocation');
    const stored = await work.server.db.query(
      `SELECT misc->'mus28' AS v FROM matrix WHERE section_tipo = 'mus2' AND section_id = $1`,
      [id],
    );
    expect(stored.rows[0]).toEqual({ v: [point] });
  });
});

describe.each(workEngineCases())(
  'ontology import from the CLI beside a running server ($engine)',
  (engine) => {
    let fresh: FreshDatabase | undefined;
    let server: RunningWorkServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
      await fresh?.dispose();
      fresh = undefined;
    });

    it('imports, and the running server serves the new TLD on its next request', async () => {
      fresh = await engine.freshDatabase();
      const env = { PORT: '0', LOG_LEVEL: 'silent', DEDALO_ROOT_PASSWORD: TEST_ROOT_PASSWORD, ...fresh.env };
      server = await startWorkServer(loadWorkConfig(env));
      const post = async (cookie: string, csrf: string, body: unknown) => {
        const res = await fetch(server!.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, 'x-dedalo-csrf-token': csrf },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: await res.json(), headers: res.headers };
      };
      const login = await post('', '', {
        dd_api: 'dd_utils_api',
        action: 'login',
        options: { username: 'root', auth: TEST_ROOT_PASSWORD },
      });
      const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
      const csrf = login.body.csrf_token as string;
      const createMaterial = () =>
        post(cookie, csrf, { action: 'create', source: { section_tipo: 'mus40' } });
      expect((await createMaterial()).status).toBe(404);

      const file = join(mkdtempSync(join(tmpdir(), 'onto-import-')), 'mus.jer_dd.copy.sql');
      writeFileSync(file, fixture('mus.jer_dd.copy.sql'));
      const result = await runWorkCli(['ontology', 'import', file, '--tld', 'mus'], env);
      if (engine.engine === 'pglite') {
        // One process at a time opens the embedded database: stop the server first.
        expect(result.exitCode).toBe(3);
        return;
      }
      expect(result.exitCode, result.output).toBe(0);
      expect(result.output).toMatch(/^Ontology import of TLD mus \(Museum\) from mus\.jer_dd\.copy\.sql/);
      expect(result.output).toContain('47 added, 0 changed, 0 removed, 0 unchanged');
      expect(result.output).toContain('labels in lg-ita kept; not offered as a data language');
      expect(result.output).toContain('component_geolocation: 1');
      expect(result.output).toContain('numisdata: 2');
      expect((await createMaterial()).status).toBe(200);

      const json = await runWorkCli(['ontology', 'import', file, '--tld', 'mus', '--json', '--dry-run'], env);
      expect(JSON.parse(json.output)).toMatchObject({ dry_run: true, added: { count: 0 }, unchanged: 47 });
      const exported = await runWorkCli(['ontology', 'export', '--tld', 'mus', '--format', 'jer_dd'], env);
      expect(exported.raw).toMatch(/^-- jer_dd of the TLD mus/);
      const activity = await server.db.query<{ data: Record<string, unknown> }>(
        `SELECT misc->'dd551'->0->'value' AS data FROM matrix_activity
       WHERE string->'dd545'->0->>'value' = 'ontology_import'`,
      );
      expect(activity.rows.map((r) => r.data)).toEqual([expect.objectContaining({ tld: 'mus', via: 'cli' })]);
    });

    it('usage errors exit 2 without opening the database', async () => {
      for (const argv of [
        ['ontology'],
        ['ontology', 'import'],
        ['ontology', 'export'],
        ['ontology', 'export', '--tld', 'mus', '--format', 'csv'],
      ]) {
        const result = await runWorkCli(argv, {});
        expect(result.exitCode).toBe(2);
        expect(result.output).toMatch(/ontology import FILE/);
      }
    });
  },
);
