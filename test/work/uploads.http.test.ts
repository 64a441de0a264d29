import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workEngineCases } from '../helpers/work-engines.js';
import {
  startTestWorkServer,
  TEST_ROOT_PASSWORD,
  type WorkAnswer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../helpers/work-server.js';

const MAX = 64 * 1024;

function expectRefused(answer: WorkAnswer, status: number, code: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.ok).toBe(false);
  expect(answer.body.error?.code).toBe(code);
}

type Fields = Record<string, string>;

/** A real multipart/form-data POST (fetch builds the body and boundary from FormData). */
async function upload(
  url: string,
  browser: WorkBrowser | undefined,
  fields: Fields,
  file: { bytes: Uint8Array<ArrayBuffer>; filename?: string } | undefined,
  csrf?: string | null,
): Promise<WorkAnswer> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file_to_upload', new Blob([file.bytes]), file.filename ?? 'blob.bin');
  const headers: Record<string, string> = {};
  if (browser && browser.cookies.size > 0) {
    headers.cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  const token = csrf === undefined ? browser?.csrfToken : csrf;
  if (token !== null && token !== undefined) headers['x-dedalo-csrf-token'] = token;
  const res = await fetch(url, { method: 'POST', headers, body: form });
  return { status: res.status, headers: res.headers, body: JSON.parse(await res.text()) };
}

/** Every file under `dir` (recursive), relative to it, skipping the embedded database. */
function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((path) => !path.split(sep).includes('pglite'))
    .filter((path) => statSync(join(dir, path)).isFile())
    .sort();
}

const list = (keyDir?: unknown, fileName?: string) => ({
  dd_api: 'dd_utils_api',
  action: 'list_uploaded_files',
  options: {
    ...(keyDir === undefined ? {} : { key_dir: keyDir }),
    ...(fileName ? { file_name: fileName } : {}),
  },
});

const join_ = (options: Record<string, unknown>) => ({
  dd_api: 'dd_utils_api',
  action: 'join_chunked_files_uploaded',
  options,
});

describe.each(workEngineCases())('uploads over HTTP ($engine)', (engine) => {
  let work: WorkServerHandle;
  let base: string;
  let dataDir: string;
  let staging: string;
  let browser: WorkBrowser;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'workupload-'));
    dataDir = join(base, 'data');
    staging = join(dataDir, 'uploads', '-1');
    work = await startTestWorkServer(engine, { WORK_DATA_DIR: dataDir, UPLOAD_MAX_BYTES: String(MAX) });
    browser = work.browser();
    const login = await browser.login('root', TEST_ROOT_PASSWORD);
    expect(login.status).toBe(200);
  });
  afterAll(async () => {
    await work?.stop();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('stores a whole file atomically under the user and key_dir, then lists it', async () => {
    const bytes = randomBytes(5000);
    const answer = await upload(
      work.server.url,
      browser,
      { key_dir: 'image', file_name: 'photo one.jpg' },
      { bytes },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      ok: true,
      request_id: expect.any(String),
      data: { name: 'photo one.jpg', size: 5000, url: 'photo%20one.jpg' },
      // Every answer of a session carries its CSRF token.
      csrf_token: browser.csrfToken,
    });
    expect(readFileSync(join(staging, 'image', 'photo one.jpg')).equals(bytes)).toBe(true);
    // No temporary file is left behind.
    expect(readdirSync(join(staging, '.tmp'))).toEqual([]);

    // The file part's own name is used when file_name is absent.
    const other = await upload(
      work.server.url,
      browser,
      { key_dir: 'image' },
      { bytes, filename: 'other.png' },
    );
    expect(other.body.data).toMatchObject({ name: 'other.png', size: 5000 });

    const all = await browser.post(list('image'));
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      { url: 'other.png', name: 'other.png', size: 5000 },
      { url: 'photo%20one.jpg', name: 'photo one.jpg', size: 5000 },
    ]);
    // file_name filters by the stem of the uploaded file.
    const filtered = await browser.post(list('image', 'photo one.tif'));
    expect(filtered.body.data.map((f: { name: string }) => f.name)).toEqual(['photo one.jpg']);
  });

  it('keeps both files when a name is uploaded twice: the second gets a numbered name', async () => {
    const first = randomBytes(300);
    const second = randomBytes(400);
    const third = randomBytes(500);
    const send = (bytes: Uint8Array<ArrayBuffer>) =>
      upload(work.server.url, browser, { key_dir: 'pdf', file_name: 'letter.pdf' }, { bytes });
    expect((await send(first)).body.data).toEqual({ name: 'letter.pdf', size: 300, url: 'letter.pdf' });
    expect((await send(second)).body.data).toEqual({
      name: 'letter (2).pdf',
      size: 400,
      url: 'letter%20(2).pdf',
    });
    expect((await send(third)).body.data).toMatchObject({ name: 'letter (3).pdf', size: 500 });
    expect(readFileSync(join(staging, 'pdf', 'letter.pdf')).equals(first)).toBe(true);
    expect(readFileSync(join(staging, 'pdf', 'letter (2).pdf')).equals(second)).toBe(true);
    expect(readFileSync(join(staging, 'pdf', 'letter (3).pdf')).equals(third)).toBe(true);
    const listed = (await browser.post(list('pdf', 'letter.pdf'))).body.data;
    expect(listed.map((f: { name: string }) => f.name)).toEqual([
      'letter (2).pdf',
      'letter (3).pdf',
      'letter.pdf',
    ]);
    expect(readdirSync(join(staging, '.tmp'))).toEqual([]);
  });

  it('accepts exactly UPLOAD_MAX_BYTES and refuses one byte more, leaving no file', async () => {
    const exact = await upload(
      work.server.url,
      browser,
      { key_dir: 'document', file_name: 'exact.bin' },
      { bytes: randomBytes(MAX) },
    );
    expect(exact.status, JSON.stringify(exact.body)).toBe(200);
    expect(exact.body.data.size).toBe(MAX);

    const over = await upload(
      work.server.url,
      browser,
      { key_dir: 'document', file_name: 'over.bin' },
      { bytes: randomBytes(MAX + 1) },
    );
    expectRefused(over, 400, 'upload.too_large');
    expect(existsSync(join(staging, 'document', 'over.bin'))).toBe(false);
    expect(readdirSync(join(staging, '.tmp'))).toEqual([]);
    // The key_dir check after the file part does not matter: the size is refused while streaming.
    const names = (await browser.post(list('document'))).body.data.map((f: { name: string }) => f.name);
    expect(names).toEqual(['exact.bin']);
  });

  it('assembles a chunked upload byte for byte, deletes the chunks and lists only the result', async () => {
    // 3 chunks, together larger than UPLOAD_MAX_BYTES (the limit is per request), sent out of order.
    const whole = randomBytes(2 * 40_000 + 1234);
    const chunks = [whole.subarray(0, 40_000), whole.subarray(40_000, 80_000), whole.subarray(80_000)];
    const uploadId = 'u_1700000000000-abc';
    for (const index of [2, 0, 1]) {
      const answer = await upload(
        work.server.url,
        browser,
        {
          key_dir: 'av',
          file_name: 'interview.mp4',
          chunked: 'true',
          chunk_index: String(index),
          total_chunks: '3',
          upload_id: uploadId,
        },
        { bytes: chunks[index]!, filename: 'blob' },
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.data).toMatchObject({ chunked: true, chunk_index: index, upload_id: uploadId });
    }
    expect(readdirSync(join(staging, 'av', uploadId)).sort()).toEqual(['0', '1', '2']);
    // Chunk directories are never listed.
    expect((await browser.post(list('av'))).body.data).toEqual([]);

    const joined = await browser.post(
      join_({
        file_data: { name: 'interview.mp4', key_dir: 'av' },
        files_chunked: ['0', '1', '2'],
        key_dir: 'av',
        file_name: 'interview.mp4',
        upload_id: uploadId,
        total_chunks: 3,
      }),
    );
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.data).toEqual({ name: 'interview.mp4', size: whole.length, url: 'interview.mp4' });
    expect(readFileSync(join(staging, 'av', 'interview.mp4')).equals(whole)).toBe(true);
    expect(existsSync(join(staging, 'av', uploadId))).toBe(false);
    expect((await browser.post(list('av', 'interview.mp4'))).body.data).toEqual([
      { url: 'interview.mp4', name: 'interview.mp4', size: whole.length },
    ]);
  });

  it('refuses a join with missing chunks, naming them, and changes nothing', async () => {
    const uploadId = 'partial-1';
    const answer = await upload(
      work.server.url,
      browser,
      { key_dir: 'pdf', chunked: 'true', chunk_index: '1', total_chunks: '4', upload_id: uploadId },
      { bytes: randomBytes(10) },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const joined = await browser.post(
      join_({ key_dir: 'pdf', file_name: 'book.pdf', upload_id: uploadId, total_chunks: 4 }),
    );
    expectRefused(joined, 400, 'upload.chunks_missing');
    expect(joined.body.error.message).toContain('chunks 0, 2, 3');
    expect(existsSync(join(staging, 'pdf', 'book.pdf'))).toBe(false);
    expect(readdirSync(join(staging, 'pdf', uploadId))).toEqual(['1']);
    // An unknown upload: every chunk missing.
    expectRefused(
      await browser.post(join_({ key_dir: 'pdf', file_name: 'x.pdf', upload_id: 'nope', total_chunks: 2 })),
      400,
      'upload.chunks_missing',
    );
    // A chunk index outside total_chunks is refused at upload.
    expectRefused(
      await upload(
        work.server.url,
        browser,
        { key_dir: 'pdf', chunked: 'true', chunk_index: '4', total_chunks: '4', upload_id: uploadId },
        { bytes: randomBytes(10) },
      ),
      400,
      'rqo.invalid_field',
    );
  });

  it('neutralises or refuses path traversal in file_name, key_dir and upload_id', async () => {
    const before = filesUnder(base);
    const bytes = Buffer.from('not a password file');
    const send = (fields: Fields, filename?: string) =>
      upload(work.server.url, browser, fields, { bytes, filename });

    // Directory parts are dropped: the basename is stored inside the staging directory.
    for (const [given, stored] of [
      ['../../etc/passwd', 'passwd'],
      ['..\\x', 'x'],
      ['/abs', 'abs'],
      ['C:\\Windows\\win.ini', 'win.ini'],
    ] as const) {
      const answer = await send({ key_dir: 'document', file_name: given });
      expect(answer.status, `${given}: ${JSON.stringify(answer.body)}`).toBe(200);
      expect(answer.body.data.name).toBe(stored);
    }
    // Names that cannot be made safe are refused.
    for (const given of ['a\u0000b.txt', '..', '.', '../', '.hidden', '', 'x'.repeat(201)]) {
      expectRefused(await send({ key_dir: 'document', file_name: given }), 400, 'upload.invalid_name');
    }
    // key_dir: an allowlist.
    for (const keyDir of ['../', '..', '../image', 'image/..', 'video', '']) {
      expectRefused(await send({ key_dir: keyDir, file_name: 'k.txt' }), 400, 'upload.key_dir_not_allowed');
    }
    expectRefused(await send({ file_name: 'k.txt' }), 400, 'upload.key_dir_not_allowed');
    // upload_id: a strict pattern, at upload and at join.
    for (const uploadId of ['../../x', '..', '.x', 'a/b', 'a\\b', 'a\u0000b', '']) {
      expectRefused(
        await send({
          key_dir: 'av',
          chunked: 'true',
          chunk_index: '0',
          total_chunks: '1',
          upload_id: uploadId,
        }),
        400,
        'upload.invalid_name',
      );
      expectRefused(
        await browser.post(
          join_({ key_dir: 'av', file_name: 'j.mp4', upload_id: uploadId, total_chunks: 1 }),
        ),
        400,
        'upload.invalid_name',
      );
    }
    expectRefused(
      await browser.post(join_({ key_dir: '../', file_name: 'j.mp4', upload_id: 'ok', total_chunks: 1 })),
      400,
      'upload.key_dir_not_allowed',
    );
    expectRefused(
      await browser.post(
        join_({ key_dir: 'av', file_name: '../../j.mp4/..', upload_id: 'ok', total_chunks: 1 }),
      ),
      400,
      'upload.invalid_name',
    );

    // Everything new is a regular file inside this user's document staging directory.
    const added = filesUnder(base).filter((path) => !before.includes(path));
    expect(added.sort()).toEqual(
      ['abs', 'passwd', 'win.ini', 'x'].map((name) => join('data', 'uploads', '-1', 'document', name)),
    );
    for (const path of added) expect(relative(staging, join(base, path)).startsWith('..')).toBe(false);
    expect(readdirSync(join(staging, '.tmp'))).toEqual([]);
  });

  it('needs a session (401) and then the CSRF header (403), before reading the file', async () => {
    const before = filesUnder(base);
    const fields = { key_dir: 'image', file_name: 'gate.jpg' };
    const file = { bytes: randomBytes(100) };
    expectRefused(await upload(work.server.url, undefined, fields, file), 401, 'auth.not_logged');
    expectRefused(
      await upload(work.server.url, undefined, fields, file, browser.csrfToken!),
      401,
      'auth.not_logged',
    );
    expectRefused(await upload(work.server.url, browser, fields, file, null), 403, 'auth.csrf_failed');
    expectRefused(await upload(work.server.url, browser, fields, file, 'wrong'), 403, 'auth.csrf_failed');
    expect(filesUnder(base)).toEqual(before);
    // The JSON actions have the same gates.
    expectRefused(await work.post(list('image')), 401, 'auth.not_logged');
    expectRefused(await browser.post(list('image'), { csrf: null }), 403, 'auth.csrf_failed');
    expectRefused(
      await browser.post(join_({ key_dir: 'av', file_name: 'a', upload_id: 'a', total_chunks: 1 }), {
        csrf: null,
      }),
      403,
      'auth.csrf_failed',
    );
  });

  it('refuses malformed forms with registered 400s', async () => {
    expectRefused(
      await upload(work.server.url, browser, { key_dir: 'image' }, undefined),
      400,
      'upload.malformed',
    );
    // A broken multipart body.
    const headers: Record<string, string> = {
      'content-type': 'multipart/form-data; boundary=XYZ',
      cookie: [...browser.cookies].map(([n, v]) => `${n}=${v}`).join('; '),
      'x-dedalo-csrf-token': browser.csrfToken!,
    };
    const res = await fetch(work.server.url, {
      method: 'POST',
      headers,
      body: '--XYZ\r\nContent-Disposition: form-data; name="file_to_upload"; filename="a"\r\n\r\nabc',
    });
    const body = JSON.parse(await res.text());
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body.error.code).toBe('upload.malformed');
    expect(readdirSync(join(staging, '.tmp'))).toEqual([]);
  });

  it('lists [] for a missing, unknown or empty key_dir, never an error', async () => {
    for (const rqo of [
      list(),
      list('pdf_nothing_here'),
      list('../'),
      list(42),
      { dd_api: 'dd_utils_api', action: 'list_uploaded_files' },
      { dd_api: 'dd_utils_api', action: 'list_uploaded_files', options: 'x' },
    ]) {
      const answer = await browser.post(rqo);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.data).toEqual([]);
    }
    // An allowed key_dir with no directory yet (a fresh user would see this for every key_dir).
    rmSync(join(staging, 'pdf'), { recursive: true, force: true });
    expect((await browser.post(list('pdf'))).body.data).toEqual([]);
  });
});
