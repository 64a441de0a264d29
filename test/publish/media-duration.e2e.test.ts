/**
 * A media file's running time, end to end: an MP4 uploaded to an audiovisual record fills its
 * Duration (rsc54) with the time code its header says, and publishing carries it to the
 * publication API as seconds, on the audiovisual row and on the interview that links it. A
 * duration typed by hand as "00:00:12" publishes as 12 too (it used to publish as null). Real
 * work server (PGlite, PostgreSQL when reachable) into a real target (SQLite, MariaDB when
 * reachable) served by the real publication API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPublishConfig } from '../../src/publish/publish-targets.js';
import { tinyMp4 } from '../helpers/media-files.js';
import { startTestServer, type TestServer } from '../helpers/publication-server.js';
import { publishTargetCases } from '../helpers/publish-target-cases.js';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const tmp = mkdtempSync(join(tmpdir(), 'duration-e2e-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const targets = publishTargetCases(tmp);

const link = (from: string, sectionTipo: string, sectionId: number) => ({
  type: 'dd151',
  section_tipo: sectionTipo,
  section_id: sectionId,
  from_component_tipo: from,
});

describe.each(workEngineCases())('media duration from $engine', (engine) => {
  describe.each(targets)('to $name', (tc) => {
    const db = `duration_${engine.engine}_${tc.name}_${process.pid}`;
    let work: WorkServerHandle;
    let root: WorkBrowser;
    let api: TestServer;

    const post = async (body: unknown) => {
      const answer = await root.post(body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data;
    };
    const create = (section: string) => post({ action: 'create', source: { section_tipo: section } });
    const save = (section: string, id: number, tipo: string, changes: unknown[], lang = 'lg-nolan') =>
      post({
        action: 'save',
        source: { section_tipo: section, section_id: id, tipo, lang },
        data: { changed_data: changes },
      });

    /** An interview linking audiovisual record `av`, publishable, with both published. */
    async function publishInterviewOf(av: number): Promise<number> {
      const interview = (await create('oh1')) as number;
      await save('oh1', interview, 'oh25', [{ action: 'insert', value: link('oh25', 'rsc167', av) }]);
      await save('oh1', interview, 'oh32', [{ action: 'insert', value: link('oh32', 'dd64', 1) }]);
      const diffuse = (section_tipo: string, section_id: number) =>
        post({ dd_api: 'dd_diffusion_api', action: 'diffuse', options: { section_tipo, section_id } });
      await diffuse('rsc167', av);
      await diffuse('oh1', interview);
      await api.server.refreshSchemas();
      return interview;
    }

    const published = async (table: string, id: number) => {
      // No translated field: published in the map's first language.
      const answer = await api.get(`/${db}/tables/${table}/records/${id}?lang=lg-spa`);
      expect(answer.status, answer.text).toBe(200);
      return answer.json.data[0];
    };

    beforeAll(async () => {
      await tc.drop(db);
      work = await startTestWorkServer(
        engine,
        { WORK_DATA_DIR: mkdtempSync(join(tmp, 'work-')) },
        { publish: { config: loadPublishConfig({ PUBLISH_TARGETS: `public=${tc.url(db)}` }) } },
      );
      root = await rootBrowser(work);
      // The target's tables exist once something was published to it.
      const first = (await create('rsc197')) as number;
      await post({
        dd_api: 'dd_diffusion_api',
        action: 'diffuse',
        options: { section_tipo: 'rsc197', section_id: first },
      });
      api = await startTestServer({
        engine: tc.name,
        db,
        env: tc.serverEnv(db),
        openDirect: async () => {
          throw new Error('unused');
        },
      });
    }, 120_000);

    afterAll(async () => {
      await api?.close();
      await work?.stop();
      await tc.drop(db);
    });

    it('an uploaded MP4 fills Duration from its header, and the publication API answers it in seconds', async () => {
      const av = (await create('rsc167')) as number;
      const form = new FormData();
      form.append('key_dir', 'av');
      form.append('file_name', 'harvest.mp4');
      form.append('file_to_upload', new Blob([new Uint8Array(tinyMp4(12))]), 'harvest.mp4');
      const res = await fetch(work.server.url, {
        method: 'POST',
        headers: {
          cookie: [...root.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'x-dedalo-csrf-token': root.csrfToken!,
        },
        body: form,
      });
      expect(res.status).toBe(200);
      const attached = await post({
        dd_api: 'dd_utils_api',
        action: 'attach_uploaded_file',
        options: {
          section_tipo: 'rsc167',
          section_id: av,
          tipo: 'rsc35',
          key_dir: 'av',
          file_name: 'harvest.mp4',
        },
      });
      // The answer carries the filled field, so the form shows it at once.
      const duration = attached.data.find((d: { tipo: string }) => d.tipo === 'rsc54');
      expect(duration.entries.map((e: { value: string }) => e.value)).toEqual(['00:00:12.000']);
      // Stored with its history, as any save.
      const history = await work.server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM matrix_time_machine WHERE section_tipo = 'rsc167' AND section_id = $1 AND tipo = 'rsc54'`,
        [av],
      );
      expect(history.rows[0]!.n).toBe(1);

      const interview = await publishInterviewOf(av);
      expect(Number((await published('audiovisual', av)).duration)).toBe(12);
      expect(Number((await published('interview', interview)).duration)).toBe(12);
    });

    it('a duration typed as "00:00:12" publishes as 12 seconds, not null', async () => {
      const av = (await create('rsc167')) as number;
      await save('rsc167', av, 'rsc54', [
        { action: 'insert', value: { id: null, lang: 'lg-nolan', value: '00:00:12' } },
      ]);
      const interview = await publishInterviewOf(av);
      expect(Number((await published('audiovisual', av)).duration)).toBe(12);
      expect(Number((await published('interview', interview)).duration)).toBe(12);
    });
  });
});
