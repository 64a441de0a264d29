/**
 * `dd_utils_api.attach_uploaded_file` (what the web client's upload calls after the multipart
 * upload): the staged file becomes the media component's value, with its history and activity
 * rows; refusals leave the staged file and the record untouched.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const attach = (options: Record<string, unknown>) => ({
  dd_api: 'dd_utils_api',
  action: 'attach_uploaded_file',
  options,
});

describe.each(workEngineCases())('attach_uploaded_file ($engine)', (engine) => {
  let work: WorkServerHandle;
  let base: string;
  let dataDir: string;
  let root: WorkBrowser;

  async function stage(name: string, bytes: string): Promise<void> {
    const form = new FormData();
    form.append('key_dir', 'image');
    form.append('file_name', name);
    form.append('file_to_upload', new Blob([bytes]), name);
    const res = await fetch(work.server.url, {
      method: 'POST',
      headers: {
        cookie: [...root.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-dedalo-csrf-token': root.csrfToken!,
      },
      body: form,
    });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'workattach-'));
    dataDir = join(base, 'data');
    work = await startTestWorkServer(engine, { WORK_DATA_DIR: dataDir });
    root = await rootBrowser(work);
  }, 120_000);

  afterAll(async () => {
    await work?.stop();
    rmSync(base, { recursive: true, force: true });
  });

  it('moves the staged file to the record and answers the component with its history', async () => {
    const id = (await root.post({ action: 'create', source: { section_tipo: 'rsc170' } })).body
      .data as number;
    await stage('mill.jpg', 'jpeg bytes');
    const answer = await root.post(
      attach({
        section_tipo: 'rsc170',
        section_id: id,
        tipo: 'rsc29',
        key_dir: 'image',
        file_name: 'mill.jpg',
      }),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const item = answer.body.data.data.find((d: { tipo: string }) => d.tipo === 'rsc29');
    expect(item.entries).toEqual([
      {
        id: 1,
        lang: 'lg-nolan',
        value: {
          name: 'mill.jpg',
          size: 10,
          key_dir: 'image',
          path: join('rsc170', String(id), 'rsc29', 'mill.jpg'),
        },
      },
    ]);
    // The attach is a write: the component's version is its new history row.
    const { rows: versions } = await work.server.db.query<{ id: string }>(
      `SELECT max(id)::text AS id FROM matrix_time_machine WHERE section_tipo = 'rsc170' AND section_id = $1 AND tipo = 'rsc29'`,
      [id],
    );
    expect(item.version).toBe(Number(versions[0]!.id));
    expect(item.version).toBeGreaterThan(0);
    expect(existsSync(join(dataDir, 'uploads', '-1', 'image', 'mill.jpg'))).toBe(false);
    expect(readFileSync(join(dataDir, 'media', 'rsc170', String(id), 'rsc29', 'mill.jpg'), 'utf8')).toBe(
      'jpeg bytes',
    );
    const history = await root.post({
      action: 'read',
      source: { section_tipo: 'rsc170', mode: 'tm' },
      sqo: {
        section_tipo: ['rsc170'],
        mode: 'tm',
        filter_by_locators: [{ section_tipo: 'rsc170', section_id: id }],
      },
    });
    expect(
      history.body.data.data.some(
        (d: { tipo: string; kind?: string }) => d.tipo === 'rsc29' && d.kind === 'component',
      ),
    ).toBe(true);
    // The media route serves it to a session that may read it, and only the file held now.
    const url = `${work.server.url}/media/rsc170/${id}/rsc29/mill.jpg`;
    const cookie = [...root.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const served = await fetch(url, { headers: { cookie } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(await served.text()).toBe('jpeg bytes');
    expect(served.headers.get('accept-ranges')).toBe('bytes');
    // A player seeks by asking for a range of bytes.
    const part = await fetch(url, { headers: { cookie, range: 'bytes=2-5' } });
    expect([part.status, part.headers.get('content-range'), await part.text()]).toEqual([
      206,
      'bytes 2-5/10',
      'eg b',
    ]);
    const tail = await fetch(url, { headers: { cookie, range: 'bytes=-3' } });
    expect([tail.status, await tail.text()]).toEqual([206, 'tes']);
    const past = await fetch(url, { headers: { cookie, range: 'bytes=20-' } });
    expect([past.status, past.headers.get('content-range')]).toEqual([416, 'bytes */10']);
    const anonymous = await fetch(url);
    expect([anonymous.status, (await anonymous.json()).error.code]).toEqual([401, 'auth.not_logged']);
    const other = await fetch(`${work.server.url}/media/rsc170/${id}/rsc29/other.jpg`, {
      headers: { cookie },
    });
    expect(other.status).toBe(404);
    const notMedia = await fetch(`${work.server.url}/media/rsc197/1/rsc85/mill.jpg`, { headers: { cookie } });
    expect(notMedia.status).toBe(404);
    const activity = await work.server.db.query(
      `SELECT 1 FROM matrix_activity WHERE string->'dd545'->0->>'value' = 'upload' AND string->'dd546'->0->>'value' = 'rsc29'`,
    );
    expect(activity.rows.length).toBe(1);
  });

  it('refuses a non-media component, a missing file and a missing record, keeping the staged file', async () => {
    const id = (await root.post({ action: 'create', source: { section_tipo: 'rsc170' } })).body
      .data as number;
    await stage('keep.jpg', 'x');
    const notMedia = await root.post(
      attach({
        section_tipo: 'rsc197',
        section_id: 1,
        tipo: 'rsc85',
        key_dir: 'image',
        file_name: 'keep.jpg',
      }),
    );
    expect([notMedia.status, notMedia.body.error.code]).toEqual([400, 'validation.invalid_value']);
    const missing = await root.post(
      attach({
        section_tipo: 'rsc170',
        section_id: id,
        tipo: 'rsc29',
        key_dir: 'image',
        file_name: 'nope.jpg',
      }),
    );
    expect([missing.status, missing.body.error.code]).toEqual([404, 'resource.not_found']);
    expect(missing.body.error.message).toContain('upload it first');
    const noRecord = await root.post(
      attach({
        section_tipo: 'rsc170',
        section_id: 99999,
        tipo: 'rsc29',
        key_dir: 'image',
        file_name: 'keep.jpg',
      }),
    );
    expect([noRecord.status, noRecord.body.error.code]).toEqual([404, 'resource.not_found']);
    const badName = await root.post(
      attach({
        section_tipo: 'rsc170',
        section_id: id,
        tipo: 'rsc29',
        key_dir: 'image',
        file_name: '.hidden',
      }),
    );
    expect(badName.status).toBe(400);
    expect(existsSync(join(dataDir, 'uploads', '-1', 'image', 'keep.jpg'))).toBe(true);
  });

  it('needs a session and write access on the component', async () => {
    const anonymous = await work.post(
      attach({ section_tipo: 'rsc170', section_id: 1, tipo: 'rsc29', key_dir: 'image', file_name: 'a.jpg' }),
    );
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'auth.not_logged']);
    const activityRead = await root.post(
      attach({ section_tipo: 'dd542', section_id: 1, tipo: 'dd543', key_dir: 'image', file_name: 'a.jpg' }),
    );
    expect(activityRead.status).toBe(400);
  });
});
