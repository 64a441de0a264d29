/**
 * The list pages of migration 16 through the API, on PGlite and PostgreSQL: a value changed by a
 * save is found at once by a prefix or exact filter and moves the record in a page ordered by
 * that component; a deleted record leaves the ordered page and a restored one comes back (the
 * sort keys and the pattern index are kept by the matrix tables' triggers on every write path).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertRecordValues, text } from '../helpers/work-records.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const ontology = loadOntology();

const listRead = (sqo: Record<string, unknown>) => ({
  action: 'read',
  source: { section_tipo: 'oh1', tipo: 'oh1', mode: 'list', lang: 'lg-eng' },
  sqo: { section_tipo: ['oh1'], limit: 5, offset: 0, ...sqo },
});
const byTitle = (direction: 'ASC' | 'DESC') => ({
  order: [{ direction, path: [{ section_tipo: 'oh1', component_tipo: 'oh16' }] }],
});
const codeFilter = (q: string) => ({
  filter: { $and: [{ q, path: [{ section_tipo: 'oh1', component_tipo: 'oh14' }] }] },
});

const save = (tipo: string, sectionId: number, lang: string, value: string) => ({
  action: 'save',
  source: {
    model: 'component_input_text',
    tipo,
    section_tipo: 'oh1',
    section_id: sectionId,
    mode: 'edit',
    lang,
  },
  data: { changed_data: [{ action: 'update', id: 1, value: { id: 1, lang, value } }] },
});

// biome-ignore lint/suspicious/noExplicitAny: envelope items are read loosely
type Item = any;
const idsOf = (body: Item): number[] =>
  body.data.data.find((d: Item) => d.typo === 'sections').entries.map((e: Item) => e.section_id);

describe.each(workEngineCases())('list pages through the API ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    for (let id = 1; id <= 8; id += 1) {
      await insertRecordValues(work.server.db, ontology, 'oh1', id, {
        oh14: [text(`OH-${id}`)],
        oh16: [text(`Title ${String.fromCharCode(96 + id)}`, 'lg-eng', 1)],
      });
    }
    root = await rootBrowser(work);
  });
  afterAll(async () => {
    await work?.stop();
  });

  const ids = async (sqo: Record<string, unknown>) => {
    const answer = await root.post(listRead(sqo));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return idsOf(answer.body);
  };

  it('a saved value is found by prefix and exact filters and moves its record in the ordered page', async () => {
    expect(await ids(byTitle('ASC'))).toEqual([1, 2, 3, 4, 5]);
    expect(await ids(byTitle('DESC'))).toEqual([8, 7, 6, 5, 4]);
    expect(await ids(codeFilter('NEW-*'))).toEqual([]);

    const title = await root.post(save('oh16', 6, 'lg-eng', 'Álbum'));
    expect(title.status, JSON.stringify(title.body)).toBe(200);
    const code = await root.post(save('oh14', 6, 'lg-nolan', 'NEW-6'));
    expect(code.status, JSON.stringify(code.body)).toBe(200);

    // "Álbum" folds to "album", before every "title ...".
    expect(await ids(byTitle('ASC'))).toEqual([6, 1, 2, 3, 4]);
    expect(await ids(byTitle('DESC'))).toEqual([8, 7, 5, 4, 3]);
    expect(await ids(codeFilter('new-*'))).toEqual([6]);
    expect(await ids(codeFilter('==NEW-6'))).toEqual([6]);
    expect(await ids(codeFilter('OH-6*'))).toEqual([]);
  });

  it('a unique code saved at once on two records is refused once; different codes both pass', async () => {
    for (let round = 0; round < 3; round += 1) {
      const same = `SAME-${round}`;
      const answers = await Promise.all([
        root.post(save('oh14', 7, 'lg-nolan', same)),
        root.post(save('oh14', 8, 'lg-nolan', same)),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('record.duplicate_value');
      expect(await ids(codeFilter(`==${same}`))).toHaveLength(1);
    }
    const distinct = await Promise.all([
      root.post(save('oh14', 7, 'lg-nolan', 'OWN-7')),
      root.post(save('oh14', 8, 'lg-nolan', 'OWN-8')),
    ]);
    expect(distinct.map((a) => a.status)).toEqual([200, 200]);
    expect(await ids(codeFilter('own-*'))).toEqual([7, 8]);
  });

  it('a deleted record leaves the ordered page and comes back when restored', async () => {
    const removed = await root.post({
      action: 'delete',
      source: { section_tipo: 'oh1', section_id: 1, delete_mode: 'delete_record' },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await ids(byTitle('ASC'))).toEqual([6, 2, 3, 4, 5]);
    expect(await ids(codeFilter('==OH-1'))).toEqual([]);

    const restored = await root.post({
      action: 'restore_record',
      source: { section_tipo: 'oh1', section_id: 1 },
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(await ids(byTitle('ASC'))).toEqual([6, 1, 2, 3, 4]);
    expect(await ids(codeFilter('==OH-1'))).toEqual([1]);
  });
});
