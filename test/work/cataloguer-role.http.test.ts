/**
 * The default Cataloguer profile does a cataloguer's whole job on their projects (issue 25 §5),
 * over HTTP on PGlite and PostgreSQL: a fresh install's Cataloguer creates an interview, reads
 * the Yes/No options and sets Publishable, reads the project names of the project filter, and is
 * told (get_diffusion_info) and refused (diffuse) publishing, which needs level 3 on the section;
 * a profile with it publishes the record; it indexes a passage of a transcription with a
 * thesaurus term (write on the terms' indexations) but may not rename the term.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newIdempotencyKey } from '../../client/src/api/idempotency-key.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser } from '../helpers/work-permissions.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const PASSWORD = 'cataloguer password';

describe.each(workEngineCases())('the default Cataloguer ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let cataloguer: WorkBrowser;
  let id: number;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    // Profile 2 is the default Cataloguer; project 1 the default project.
    await insertLoginUser(work.server.db, 5, {
      username: 'anna',
      password: PASSWORD,
      profile: 2,
      projects: [1],
    });
    root = await rootBrowser(work);
    cataloguer = work.browser();
    expect((await cataloguer.login('anna', PASSWORD)).status).toBe(200);
    const created = await cataloguer.post({
      action: 'create',
      source: { section_tipo: 'oh1' },
      idempotency_key: newIdempotencyKey(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    id = created.body.data;
  }, 60_000);

  afterAll(async () => {
    await work?.stop();
  });

  const read = (who: WorkBrowser) =>
    who.post({
      action: 'read',
      source: {
        tipo: 'oh1',
        section_tipo: 'oh1',
        section_id: id,
        model: 'section',
        mode: 'edit',
        lang: 'lg-eng',
      },
      sqo: {
        section_tipo: ['oh1'],
        limit: 1,
        offset: 0,
        filter_by_locators: [{ section_tipo: 'oh1', section_id: id }],
      },
    });
  // biome-ignore lint/suspicious/noExplicitAny: the read's data items
  const itemOf = (answer: any, tipo: string) => answer.body.data.data.find((d: any) => d.tipo === tipo);

  it('reads the Yes/No options and sets Publishable', async () => {
    const answer = await read(cataloguer);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const publishable = itemOf(answer, 'oh32');
    expect(publishable.datalist.map((o: { label: string }) => o.label)).toEqual(['Yes', 'No']);
    const saved = await cataloguer.post({
      action: 'save',
      source: { section_tipo: 'oh1', section_id: id, tipo: 'oh32', lang: 'lg-nolan' },
      data: {
        changed_data: [
          {
            action: 'insert',
            value: { type: 'dd151', section_tipo: 'dd64', section_id: 1, from_component_tipo: 'oh32' },
          },
        ],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const after = itemOf(await read(cataloguer), 'oh32');
    expect(after.entries.map((l: { section_id: number }) => Number(l.section_id))).toEqual([1]);
  });

  it('reads the names of the projects of the project filter (never "#1")', async () => {
    // What the client's project filter asks: the project section's list.
    const answer = await cataloguer.post({
      action: 'read',
      source: { tipo: 'dd153', section_tipo: 'dd153', model: 'section', mode: 'list', action: 'search' },
      sqo: { section_tipo: ['dd153'], limit: 200, offset: 0 },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const names = itemOf(answer, 'dd156').entries.map((e: { value: string }) => e.value);
    expect(names).toEqual(['Default project']);
    // Read only: the lists are not the cataloguer's to change.
    const renamed = await cataloguer.post({
      action: 'save',
      source: { section_tipo: 'dd153', section_id: 1, tipo: 'dd156', lang: 'lg-eng' },
      data: { changed_data: [{ action: 'update', id: 1, value: { id: 1, lang: 'lg-eng', value: 'Mine' } }] },
    });
    expect(renamed.status).toBe(403);
    expect(renamed.body.error.code).toBe('perm.denied');
  });

  it('is told it may not publish, and refused publishing a record or the section', async () => {
    const info = await cataloguer.post({ dd_api: 'dd_diffusion_api', action: 'get_diffusion_info' });
    expect(info.status).toBe(200);
    const oh1 = info.body.data.sections.find((s: { section_tipo: string }) => s.section_tipo === 'oh1');
    expect(oh1.may_publish).toEqual({ record: false, section: false });
    const record = await cataloguer.post({
      dd_api: 'dd_diffusion_api',
      action: 'diffuse',
      options: { section_tipo: 'oh1', section_id: id },
    });
    expect(record.status).toBe(403);
    expect(record.body.error.code).toBe('perm.denied');
    expect(record.body.error.message).toBe(
      'Your profile does not allow publishing records of oh1 (it needs level 3, publish, on the section)',
    );
    const section = await cataloguer.post({
      dd_api: 'dd_diffusion_api',
      action: 'diffuse',
      options: { section_tipo: 'oh1' },
    });
    expect(section.status).toBe(403);
    expect(section.body.error.code).toBe('perm.global_admin_required');
    const rootInfo = await root.post({ dd_api: 'dd_diffusion_api', action: 'get_diffusion_info' });
    expect(
      rootInfo.body.data.sections.find((s: { section_tipo: string }) => s.section_tipo === 'oh1').may_publish,
    ).toEqual({ record: true, section: true });
  });

  it('indexes a passage of a transcription with a thesaurus term, and may not rename the term', async () => {
    const createIn = async (who: WorkBrowser, section: string): Promise<number> => {
      const made = await who.post({
        action: 'create',
        source: { section_tipo: section },
        idempotency_key: newIdempotencyKey(),
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return made.body.data;
    };
    const insertText = (section: string, sectionId: number, tipo: string, lang: string, value: string) => ({
      action: 'save',
      source: { section_tipo: section, section_id: sectionId, tipo, lang },
      data: { changed_data: [{ action: 'insert', id: null, value: { id: null, lang, value } }] },
    });
    // The thesaurus is the administrators': root makes the term.
    const termId = await createIn(root, 'ts1');
    expect((await root.post(insertText('ts1', termId, 'hierarchy25', 'lg-spa', 'Exilio'))).status).toBe(200);
    // The cataloguer transcribes a recording, then indexes a passage of it.
    const recording = await createIn(cataloguer, 'rsc167');
    const text = 'Hablamos del exilio en Francia.';
    const typed = await cataloguer.post(insertText('rsc167', recording, 'rsc36', 'lg-spa', text));
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    const source = { section_tipo: 'rsc167', section_id: recording, tipo: 'rsc36', lang: 'lg-spa' };
    const offered = await cataloguer.post({
      dd_api: 'dd_component_text_area_api',
      action: 'get_indexations',
      source,
    });
    expect(offered.status, JSON.stringify(offered.body)).toBe(200);
    expect(offered.body.data.may_index).toBe(true);
    const marked = text.replace('exilio', '[index-n-1--data::data]exilio[/index-n-1--data::data]');
    const indexed = await cataloguer.post({
      dd_api: 'dd_component_text_area_api',
      action: 'set_indexation',
      source,
      data: { tag_id: 1, value: marked, terms: [{ section_tipo: 'ts1', section_id: termId }] },
    });
    expect(indexed.status, JSON.stringify(indexed.body)).toBe(200);
    const listed = await cataloguer.post({
      dd_api: 'dd_component_text_area_api',
      action: 'get_indexations',
      source,
    });
    expect(listed.body.data.tags).toEqual([
      expect.objectContaining({
        tag_id: 1,
        terms: [expect.objectContaining({ section_id: termId, label: 'Exilio' })],
      }),
    ]);
    // The terms themselves stay read-only for the Cataloguer.
    const renamed = await cataloguer.post(insertText('ts1', termId, 'hierarchy25', 'lg-spa', 'Destierro'));
    expect(renamed.status).toBe(403);
    expect(renamed.body.error.code).toBe('perm.denied');
  });

  it('publishes the record once an administrator gives the profile level 3 on interviews', async () => {
    const profile = await root.post({
      action: 'read',
      source: {
        tipo: 'dd234',
        section_tipo: 'dd234',
        section_id: 2,
        model: 'section',
        mode: 'edit',
        lang: 'lg-eng',
      },
      sqo: {
        section_tipo: ['dd234'],
        limit: 1,
        offset: 0,
        filter_by_locators: [{ section_tipo: 'dd234', section_id: 2 }],
      },
    });
    const access = itemOf(profile, 'dd774');
    const items = (access.entries as { tipo: string; section_tipo: string; value: number }[]).map((i) =>
      i.section_tipo === 'oh1' && i.tipo === 'oh1' ? { ...i, value: 3 } : i,
    );
    const saved = await root.post({
      action: 'save',
      source: { section_tipo: 'dd234', section_id: 2, tipo: 'dd774', lang: 'lg-nolan' },
      data: { changed_data: [{ action: 'set_data', value: items }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const info = await cataloguer.post({ dd_api: 'dd_diffusion_api', action: 'get_diffusion_info' });
    expect(
      info.body.data.sections.find((s: { section_tipo: string }) => s.section_tipo === 'oh1').may_publish,
    ).toEqual({ record: true, section: false });
    const published = await cataloguer.post({
      dd_api: 'dd_diffusion_api',
      action: 'diffuse',
      options: { section_tipo: 'oh1', section_id: id },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.data).toMatchObject({ published: 1, removed: 0 });
  });
});
