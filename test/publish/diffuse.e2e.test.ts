/**
 * End to end: a cataloguer's save in the work API reaches the public. The real work server (on
 * PGlite, and PostgreSQL when reachable) publishes with dd_diffusion_api.diffuse into a real
 * target (SQLite, and MariaDB when reachable) that the real publication API serves; the new title
 * shows in its records and its search at once, without a restart. A target another run holds is
 * a 409.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPublishConfig } from '../../src/publish/publish-targets.js';
import { withTargetLock } from '../../src/publish/target-lock.js';
import { accessItemsUnder } from '../../src/work/bootstrap/default-profiles.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { startTestServer, type TestServer } from '../helpers/publication-server.js';
import { seedPublishArchive } from '../helpers/publish-fixture.js';
import { publishTargetCases } from '../helpers/publish-target-cases.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser, insertProfile } from '../helpers/work-permissions.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();
const tmp = mkdtempSync(join(tmpdir(), 'diffuse-e2e-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const targets = publishTargetCases(tmp);

const saveTitle = (sectionId: number, itemId: number, lang: string, value: string) => ({
  action: 'save',
  source: {
    typo: 'source',
    type: 'component',
    model: 'component_input_text',
    tipo: 'oh16',
    section_tipo: 'oh1',
    section_id: sectionId,
    mode: 'edit',
    lang,
  },
  data: {
    typo: 'data',
    tipo: 'oh16',
    section_tipo: 'oh1',
    section_id: sectionId,
    lang,
    changed_data: [{ action: 'update', id: itemId, value: { id: itemId, lang, value } }],
  },
});

const diffuse = (options: Record<string, unknown>) => ({
  dd_api: 'dd_diffusion_api',
  action: 'diffuse',
  options,
});

describe.each(workEngineCases())('diffuse from $engine', (engine) => {
  describe.each(targets)('to $name', (tc) => {
    const db = `diffuse_${engine.engine}_${tc.name}_${process.pid}`;
    let work: WorkServerHandle;
    let root: WorkBrowser;
    let api: TestServer;

    beforeAll(async () => {
      await tc.drop(db);
      work = await startTestWorkServer(
        engine,
        {},
        {
          publish: {
            config: loadPublishConfig({
              PUBLISH_TARGETS: `public=${tc.url(db)}`,
              PUBLISH_LOCK_WAIT_SECONDS: '0.3',
            }),
            onPublished: () => api?.server.refreshSchemas(),
          },
        },
      );
      await seedPublishArchive(work.server.db, ontology);
      root = work.browser();
      expect((await root.login('root', TEST_ROOT_PASSWORD)).status).toBe(200);
      // A global admin publishes whole sections.
      for (const section of ['rsc197', 'rsc167', 'rsc170', 'ts1', 'oh1']) {
        const answer = await root.post(diffuse({ section_tipo: section }));
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      }
      api = await startTestServer({
        engine: tc.name,
        db,
        env: tc.serverEnv(db),
        openDirect: async () => {
          throw new Error('unused');
        },
      });
    });
    afterAll(async () => {
      await api?.close();
      await work?.stop();
      await tc.drop(db);
    });

    it('a title saved in the work API is in the public records and search after publishing the record', async () => {
      const before = await api.get(`/${db}/tables/interview/records/1?lang=lg-eng`);
      expect(before.json.data[0].title).toBe('Title one');
      const saved = await root.post(saveTitle(1, 2, 'lg-eng', 'Harvest stories of the valley'));
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      // Saved, not yet published: the public still sees the old title.
      expect((await api.get(`/${db}/tables/interview/records/1?lang=lg-eng`)).json.data[0].title).toBe(
        'Title one',
      );

      const published = await root.post(diffuse({ section_tipo: 'oh1', section_id: 1 }));
      expect(published.status).toBe(200);
      expect(published.body.data).toEqual({ published: 1, removed: 0, target: 'public' });

      const after = await api.get(`/${db}/tables/interview/records/1?lang=lg-eng`);
      expect(after.json.data[0].title).toBe('Harvest stories of the valley');
      const found = await api.get(`/${db}/tables/interview/search?q=valley&column=title`);
      expect(found.status).toBe(200);
      expect(
        found.json.data.map((r: { section_id: number; lang: string }) => `${r.section_id}/${r.lang}`),
      ).toEqual(['1/lg-eng']);
    });

    it('answers a retryable 409 diffusion.target_busy while another run holds the target', async () => {
      // Another run holding the target (as a run in another instance would, through the same lock).
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding!: () => void;
      const held = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const other = withTargetLock(work.server.db, 'public', 5_000, async () => {
        holding();
        await gate;
      });
      await held;
      const busy = await root.post(diffuse({ section_tipo: 'oh1', section_id: 2 }));
      release();
      await other;
      expect(busy.status).toBe(409);
      expect(busy.body.error).toMatchObject({ code: 'diffusion.target_busy', retryable: true });
      expect(busy.body.error.message).toContain('publication target "public" is busy');
      const free = await root.post(diffuse({ section_tipo: 'oh1', section_id: 2 }));
      expect(free.status, JSON.stringify(free.body)).toBe(200);
    });

    it('refuses what it cannot publish with precise 4xx answers', async () => {
      const unmapped = await root.post(diffuse({ section_tipo: 'dd128' }));
      expect(unmapped.status).toBe(400);
      expect(unmapped.body.error.code).toBe('validation.invalid_value');
      expect(unmapped.body.error.message).toContain('dd128 is not in the publication map');
      const missing = await root.post({ dd_api: 'dd_diffusion_api', action: 'diffuse' });
      expect(missing.status).toBe(400);
      expect(missing.body.error.code).toBe('rqo.invalid_field');
      const absent = await root.post(diffuse({ section_tipo: 'oh1', section_id: 999 }));
      expect(absent.status).toBe(404);
      expect(absent.body.error.code).toBe('resource.not_found');
      const anonymous = await work.browser().post(diffuse({ section_tipo: 'oh1', section_id: 1 }));
      expect(anonymous.status).toBe(401);
    });

    it('get_diffusion_info names the targets and the mapped sections the caller may read', async () => {
      const info = { dd_api: 'dd_diffusion_api', action: 'get_diffusion_info' };
      const all = await root.post(info);
      expect(all.status, JSON.stringify(all.body)).toBe(200);
      expect(all.body.data.default_target).toBe('public');
      expect(all.body.data.targets).toEqual(['public']);
      const tipos = all.body.data.sections.map((s: { section_tipo: string }) => s.section_tipo);
      expect(tipos).toEqual(expect.arrayContaining(['oh1', 'rsc197', 'rsc167', 'rsc170', 'ts1']));
      expect(tipos).not.toContain('dd128'); // users are never published
      expect(
        all.body.data.sections.find((s: { section_tipo: string }) => s.section_tipo === 'oh1'),
      ).toMatchObject({
        table: 'interview',
        translatable: true,
        publishable: 'oh32',
      });
      // A user who may read interviews only is told about interviews only.
      await insertProfile(work.server.db, 40, accessItemsUnder(ontology, 'oh1', 1));
      await insertLoginUser(work.server.db, 40, {
        username: 'reader40',
        password: 'reader40 password',
        profile: 40,
        projects: [1],
      });
      const reader = work.browser();
      expect((await reader.login('reader40', 'reader40 password')).status).toBe(200);
      const some = await reader.post(info);
      expect(some.status).toBe(200);
      expect(some.body.data.sections.map((s: { section_tipo: string }) => s.section_tipo)).toEqual(['oh1']);
      expect((await work.browser().post(info)).status).toBe(401);
    });

    it('never answers a 5xx to random options (fast-check)', async () => {
      const value = fc.oneof(
        fc.jsonValue(),
        fc.constantFrom('oh1', 'rsc197', 'ts1', 'dd128', 'oh14', 'public', ''),
      );
      const options = fc.oneof(
        fc.jsonValue(),
        fc.record(
          {
            section_tipo: value,
            section_id: fc.oneof(
              value,
              fc.integer({ min: -3, max: 5 }),
              fc.constantFrom('1', '01', '1e3', 1.5),
            ),
            target: value,
          },
          { requiredKeys: [] },
        ),
      );
      await fc.assert(
        fc.asyncProperty(options, async (o) => {
          const answer = await root.post({ dd_api: 'dd_diffusion_api', action: 'diffuse', options: o });
          expect(answer.status, JSON.stringify({ o, body: answer.body })).toBeLessThan(500);
        }),
        { numRuns: 40 },
      );
    });
  });
});
