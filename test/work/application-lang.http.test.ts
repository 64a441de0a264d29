/**
 * Labels are interface text: the menu, sections' and fields' labels come in the session's
 * application language while the data stays in the data language; `start` names who is logged
 * in (full name and username) for the client's header. On the real server, over HTTP, on PGlite
 * and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

// biome-ignore lint/suspicious/noExplicitAny: envelope items are read loosely
type Item = any;

const changeLang = (options: Record<string, string>) => ({
  dd_api: 'dd_utils_api',
  action: 'change_lang',
  options,
});
const editRead = (sectionId: number) => ({
  action: 'read',
  source: {
    action: 'search',
    model: 'section',
    tipo: 'oh1',
    section_tipo: 'oh1',
    section_id: sectionId,
    mode: 'edit',
  },
  sqo: { section_tipo: ['oh1'], filter_by_locators: [{ section_tipo: 'oh1', section_id: sectionId }] },
});

describe.each(workEngineCases())('labels in the application language ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let id: number;

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    root = await rootBrowser(work);
    const created = await root.post({ action: 'create', source: { section_tipo: 'oh1' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    id = created.body.data as number;
    const saved = await root.post({
      action: 'save',
      source: { tipo: 'oh16', section_tipo: 'oh1', section_id: id, mode: 'edit', lang: 'lg-eng' },
      data: { changed_data: [{ action: 'insert', value: { value: 'The harvest of 1952' } }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });

  afterAll(async () => {
    await work?.stop();
  });

  it('labels the menu and a record’s fields in Catalan while the data stays English', async () => {
    expect(
      (await root.post(changeLang({ svc_application_lang: 'lg-cat', svc_data_lang: 'lg-eng' }))).status,
    ).toBe(200);
    const started = await root.post({ action: 'start', options: { menu: true } });
    const tree = started.body.data.context.find((c: Item) => c.type === 'menu').tree as Item[];
    expect(tree.find((n) => n.tipo === 'oh1')?.label).toBe('Entrevistes');

    const read = await root.post(editRead(id));
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const title = read.body.data.context.find((c: Item) => c.tipo === 'oh16');
    expect(title).toMatchObject({ label: 'Títol', lang: 'lg-eng' });
    expect(read.body.data.context.find((c: Item) => c.tipo === 'oh1')?.label).toBe('Entrevistes');
    const value = read.body.data.data.find((d: Item) => d.tipo === 'oh16');
    expect(value.entries.map((e: Item) => e.value)).toEqual(['The harvest of 1952']);
  });

  it('follows a change of the application language on the next request', async () => {
    await root.post(changeLang({ svc_application_lang: 'lg-spa' }));
    const read = await root.post(editRead(id));
    // The section's columns and show map (made once per ontology and language) follow too.
    const section = (body: Item) => body.data.context.find((c: Item) => c.tipo === 'oh1');
    const columnLabel = (body: Item) => section(body).columns_map.find((c: Item) => c.tipo === 'oh16')?.label;
    const showLabel = (body: Item) =>
      section(body).request_config[0].show.ddo_map.find((d: Item) => d.tipo === 'oh16')?.label;
    expect(read.body.data.context.find((c: Item) => c.tipo === 'oh16')?.label).toBe('Título');
    expect([columnLabel(read.body), showLabel(read.body)]).toEqual(['Título', 'Título']);
    await root.post(changeLang({ svc_application_lang: 'lg-eng' }));
    const again = await root.post(editRead(id));
    expect(again.body.data.context.find((c: Item) => c.tipo === 'oh16')?.label).toBe('Title');
    expect([columnLabel(again.body), showLabel(again.body)]).toEqual(['Title', 'Title']);
  });

  it('names who is logged in', async () => {
    const started = await root.post({ action: 'start', options: {} });
    expect(started.body.environment.page_globals).toMatchObject({ is_logged: true, username: 'root' });
    const anonymous = await work.post({ action: 'start', options: {} });
    expect(anonymous.body.environment.page_globals.username).toBeUndefined();
  });
});
