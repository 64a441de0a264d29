/**
 * End to end: a passage indexed in the work API comes out of publishing as the publication API's
 * indexation fragments. The real work server (PGlite, and PostgreSQL when reachable) indexes a
 * passage of a transcription with a thesaurus term (`set_indexation`: marks and locator in one
 * change), publishes with dd_diffusion_api.diffuse into a real target (SQLite, and MariaDB when
 * reachable), and the real publication API answers `av-indexation-fragment` (v2) with exactly
 * that passage and the term, and v1 `thesaurus_indexation_node` / `thesaurus_video_view_data`
 * for the term with the passage's node and text. A term attached to the whole interview (no
 * passage, no tag) comes out among the terms of the interview's whole transcription (v2) and in
 * the term's v1 indexation, but is no passage node. Removing the indexation and publishing again
 * leaves the term without it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPublishConfig } from '../../src/publish/publish-targets.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { startTestServer, type TestServer } from '../helpers/publication-server.js';
import { seedPublishArchive, YES } from '../helpers/publish-fixture.js';
import { publishTargetCases } from '../helpers/publish-target-cases.js';
import { v1Get } from '../helpers/v1-fixture.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertRecordValues, locator, text } from '../helpers/work-records.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();
const tmp = mkdtempSync(join(tmpdir(), 'indexation-e2e-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const CODE = 'indexation e2e code';

const targets = publishTargetCases(tmp);

/** A recording (rsc167 5) of an interview (oh1 4): different ids, so nothing matches by chance. */
const AV_ID = 5;
const INTERVIEW_ID = 4;
const TRANSCRIPTION = '[TC_00:00:01.000_TC] Hablamos de la cosecha y después del pueblo.';
const PASSAGE = 'la cosecha';
const MARKED = TRANSCRIPTION.replace(PASSAGE, `[index-n-7--data::data]${PASSAGE}[/index-n-7--data::data]`);

const diffuse = (section_tipo: string, section_id?: number) => ({
  dd_api: 'dd_diffusion_api',
  action: 'diffuse',
  options: { section_tipo, ...(section_id !== undefined ? { section_id } : {}) },
});

describe.each(workEngineCases())('indexation published from $engine', (engine) => {
  describe.each(targets)('to $name', (tc) => {
    const db = `indexation_${engine.engine}_${tc.name}_${process.pid}`;
    let work: WorkServerHandle;
    let root: WorkBrowser;
    let api: TestServer;

    const publish = async (sections: string[]) => {
      for (const section of sections) {
        const answer = await root.post(diffuse(section));
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      }
    };
    const setIndexation = (data: Record<string, unknown>) =>
      root.post({
        dd_api: 'dd_component_text_area_api',
        action: 'set_indexation',
        source: { section_tipo: 'rsc167', section_id: AV_ID, tipo: 'rsc36', lang: 'lg-spa' },
        data,
      });

    beforeAll(async () => {
      await tc.drop(db);
      work = await startTestWorkServer(
        engine,
        {},
        {
          publish: {
            config: loadPublishConfig({ PUBLISH_TARGETS: `public=${tc.url(db)}` }),
            onPublished: () => api?.server.refreshSchemas(),
          },
        },
      );
      await seedPublishArchive(work.server.db, ontology);
      await insertRecordValues(work.server.db, ontology, 'rsc167', AV_ID, {
        rsc35: [{ id: 1, lang: 'lg-nolan', value: { name: '5.mp4', path: 'av/5.mp4' } }],
        rsc36: [text(TRANSCRIPTION, 'lg-spa', 1)],
      });
      await insertRecordValues(work.server.db, ontology, 'oh1', INTERVIEW_ID, {
        oh14: [text('OH-4')],
        oh16: [text('Título cuatro', 'lg-spa', 1)],
        oh25: [{ ...locator('oh25', 'rsc167', AV_ID), id: 1 }],
        oh32: YES('oh32'),
      });
      root = work.browser();
      expect((await root.login('root', TEST_ROOT_PASSWORD)).status).toBe(200);
      // The passage "la cosecha" of the Spanish transcription, indexed with "Exilio" (ts1 2).
      const indexed = await setIndexation({
        tag_id: 7,
        value: MARKED,
        terms: [{ section_tipo: 'ts1', section_id: 2 }],
      });
      expect(indexed.status, JSON.stringify(indexed.body)).toBe(200);
      await publish(['rsc197', 'rsc167', 'rsc170', 'ts1', 'oh1']);
      api = await startTestServer({
        engine: tc.name,
        db,
        env: { ...tc.serverEnv(db), V1_API_CODE: CODE },
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

    it('av-indexation-fragment (v2) answers the indexed passage and its term, by the recording or its interview', async () => {
      for (const query of [
        `section_tipo=rsc167&section_id=${AV_ID}&tag_id=7`,
        `section_id=${INTERVIEW_ID}&tag_id=7`,
      ]) {
        const res = await api.get(`/${db}/av-indexation-fragment?${query}`);
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        expect(res.json.meta.passage).toBe('index');
        expect(res.json.meta.lang).toBe('lg-spa');
        expect(res.json.data.locator).toMatchObject({ tag_id: 7 });
        expect(res.json.data.transcription).toBe(PASSAGE);
        expect(res.json.data.terms).toEqual([{ term_id: 'ts1_2', term: 'Exilio' }]);
      }
    });

    it('v1 thesaurus_indexation_node and thesaurus_video_view_data give the term its passage', async () => {
      const nodes = await v1Get(api, CODE, 'thesaurus_indexation_node', { term_id: 'ts1_2', lang: 'lg-spa' });
      expect(nodes.json.msg, JSON.stringify(nodes.json)).toBe('OK. Request thesaurus_indexation_node done');
      expect(nodes.json.result).toEqual([
        expect.objectContaining({
          term_id: 'ts1_2',
          node_id: '7',
          locator: expect.objectContaining({
            section_tipo: 'rsc167',
            section_id: AV_ID,
            tag_id: '7',
            section_top_tipo: 'oh1',
            section_top_id: INTERVIEW_ID,
          }),
        }),
      ]);
      const term = await v1Get(api, CODE, 'thesaurus_term', { ar_term_id: 'ts1_2', lang: 'lg-spa' });
      const view = await v1Get(api, CODE, 'thesaurus_video_view_data', {
        term_id: 'ts1_2',
        ar_locators: term.json.result[0].indexation,
        ar_locators_key: '0',
        lang: 'lg-spa',
      });
      expect(view.json, JSON.stringify(view.json)).toMatchObject({ result: true, term: 'Exilio' });
      expect(view.json.fragments[0].fragm).toContain(PASSAGE);
      expect(view.json.fragments[0].fragm).not.toContain('pueblo');
      expect(view.json.interview_id).toBe(String(INTERVIEW_ID));
    });

    it('a term of the whole interview is published as the interview’s, with no passage of its own', async () => {
      // "Guerra" (ts1 1) attached to the whole interview: set_indexation without tipo or tag id.
      const whole = await root.post({
        dd_api: 'dd_component_text_area_api',
        action: 'set_indexation',
        source: { section_tipo: 'oh1', section_id: INTERVIEW_ID, lang: 'lg-spa' },
        data: { terms: [{ section_tipo: 'ts1', section_id: 1 }] },
      });
      expect(whole.status, JSON.stringify(whole.body)).toBe(200);
      await publish(['ts1', 'oh1']);

      // v2: the interview's whole transcription names it beside the passage's term; a passage
      // (tag 7) keeps only its own term.
      const res = await api.get(`/${db}/av-indexation-fragment?section_id=${INTERVIEW_ID}&lang=lg-spa`);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.meta.passage).toBe('whole');
      expect(res.json.data.transcription).toContain('Hablamos de la cosecha y después del pueblo.');
      expect(
        [...res.json.data.terms].sort((a: { term_id: string }, b: { term_id: string }) =>
          a.term_id.localeCompare(b.term_id),
        ),
      ).toEqual([
        { term_id: 'ts1_1', term: 'Guerra' },
        { term_id: 'ts1_2', term: 'Exilio' },
      ]);
      const passage = await api.get(`/${db}/av-indexation-fragment?section_id=${INTERVIEW_ID}&tag_id=7`);
      expect(passage.json.data.terms).toEqual([{ term_id: 'ts1_2', term: 'Exilio' }]);

      // v1: the term's indexation holds the interview without a tag; it is no passage node.
      const term = await v1Get(api, CODE, 'thesaurus_term', { ar_term_id: 'ts1_1', lang: 'lg-spa' });
      expect(JSON.parse(term.json.result[0].indexation)).toContainEqual(
        expect.objectContaining({
          type: 'dd96',
          section_tipo: 'oh1',
          section_id: INTERVIEW_ID,
          tag_id: null,
        }),
      );
      const nodes = await v1Get(api, CODE, 'thesaurus_indexation_node', { term_id: 'ts1_1', lang: 'lg-spa' });
      expect(
        (nodes.json.result as { locator: { section_id: unknown } }[]).filter(
          (n) => String(n.locator.section_id) === String(INTERVIEW_ID),
        ),
      ).toEqual([]);
    });

    it('a removed indexation, published again, is no longer the term’s', async () => {
      const removed = await setIndexation({ tag_id: 7, value: TRANSCRIPTION, terms: [] });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      await publish(['rsc167', 'ts1', 'oh1']);
      const nodes = await v1Get(api, CODE, 'thesaurus_indexation_node', { term_id: 'ts1_2', lang: 'lg-spa' });
      expect(nodes.json.result).toEqual([]);
      const res = await api.get(
        `/${db}/av-indexation-fragment?section_tipo=rsc167&section_id=${AV_ID}&tag_id=7`,
      );
      expect(res.status).toBe(200);
      // No marks any more: the whole transcription, and no term indexes it.
      expect(res.json.meta.passage).toBe('whole');
      expect(res.json.data.terms).toEqual([]);
    });
  });
});
