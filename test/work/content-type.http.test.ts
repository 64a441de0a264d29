/**
 * The work API reads an RQO only from an application/json body (charset utf-8 or none): a
 * cross-site HTML form can send text/plain, application/x-www-form-urlencoded or multipart, and
 * must not be able to post a login (or anything else). Every other content type, none at all,
 * and a JSON body declared in another charset is a 415 envelope (http.unsupported_media_type),
 * refused before the action runs: a refused login is not even counted as a failure. Multipart
 * still goes to the upload handler. One engine: the database plays no part in the refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_REGISTRY } from '../../src/work/dispatch/error-registry.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { startTestWorkServer, TEST_ROOT_PASSWORD, type WorkServerHandle } from '../helpers/work-server.js';

const LOGIN = JSON.stringify({
  dd_api: 'dd_utils_api',
  action: 'login',
  options: { username: 'root', auth: TEST_ROOT_PASSWORD },
});

const REFUSED: (string | undefined)[] = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  undefined,
  'application/json; charset=utf-16',
  'application/json;charset=UTF-16LE',
  'application/json; charset=iso-8859-1',
  'application/jsonx',
  'application/vnd.api+json',
  'text/json',
  '',
];

const ACCEPTED = [
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON;Charset="UTF-8"',
  'application/json; charset=utf8',
];

describe('work API content types', () => {
  let work: WorkServerHandle;
  beforeAll(async () => {
    work = await startTestWorkServer(workEngineCases()[0]!);
  });
  afterAll(async () => work?.stop());

  /** Posts `body` with exactly this Content-Type header (none when undefined). */
  async function post(contentType: string | undefined, body: string) {
    const headers: Record<string, string> = {};
    if (contentType !== undefined) headers['content-type'] = contentType;
    // A Blob without a type: fetch then adds no Content-Type of its own.
    const res = await fetch(work.server.url, { method: 'POST', headers, body: new Blob([body]) });
    return { status: res.status, headers: res.headers, body: await res.json() };
  }

  it('refuses a login sent as text/plain, form-encoded, without a type or in another charset', async () => {
    for (const type of REFUSED) {
      const answer = await post(type, LOGIN);
      expect(answer.status, String(type)).toBe(415);
      expect(answer.body).toEqual({
        ok: false,
        request_id: answer.headers.get('x-request-id'),
        error: {
          code: 'http.unsupported_media_type',
          category: 'unsupported_media_type',
          label_key: ERROR_REGISTRY['http.unsupported_media_type'].label_key,
          retryable: false,
          message: expect.stringContaining('application/json'),
        },
      });
      expect(answer.headers.get('set-cookie'), String(type)).toBeNull();
    }
    // None of them was a login attempt: no throttle row was written.
    const { rows } = await work.server.db.query('SELECT 1 FROM login_throttle');
    expect(rows).toEqual([]);
  });

  it('refuses a form-encoded body and other RQOs the same way', async () => {
    const form = await post('application/x-www-form-urlencoded', 'action=start');
    expect(form.status).toBe(415);
    const start = await post('text/plain', '{"action":"start"}');
    expect(start.status).toBe(415);
  });

  it('accepts application/json with no charset or utf-8, in any case', async () => {
    for (const type of ACCEPTED) {
      const answer = await post(type, '{"action":"start"}');
      expect(answer.status, type).toBe(200);
      expect(answer.body.ok).toBe(true);
    }
    const login = await post('application/json', LOGIN);
    expect(login.status).toBe(200);
    expect(login.headers.get('set-cookie')).toMatch(/dedalo_session=/);
  });

  it('still hands multipart to the upload handler (which asks for a session first)', async () => {
    const form = new FormData();
    form.append('file_to_upload', new Blob(['abc']), 'a.txt');
    const res = await fetch(work.server.url, { method: 'POST', body: form });
    const body = await res.json();
    expect(body.error.code).not.toBe('http.unsupported_media_type');
    expect(body.error.code).toBe('auth.not_logged');
  });
});
