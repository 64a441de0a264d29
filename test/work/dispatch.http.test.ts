import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATEGORIES, ERROR_REGISTRY } from '../../src/work/dispatch/error-registry.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { startTestWorkServer, type WorkServerHandle } from '../helpers/work-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('error registry', () => {
  it('gives every code a known category and a label key', () => {
    for (const [code, entry] of Object.entries(ERROR_REGISTRY)) {
      expect(Object.keys(ERROR_CATEGORIES), code).toContain(entry.category);
      expect(entry.label_key, code).toMatch(/^[a-z_]+$/);
    }
    expect(ERROR_CATEGORIES).toEqual({
      validation: 400,
      auth: 401,
      permission: 403,
      not_found: 404,
      method_not_allowed: 405,
      request_timeout: 408,
      conflict: 409,
      unsupported_media_type: 415,
      rate_limit: 429,
      unavailable: 503,
      internal: 500,
    });
  });
});

describe.each(workEngineCases())('RQO dispatch over HTTP ($engine)', (engine) => {
  let work: WorkServerHandle;
  beforeAll(async () => {
    work = await startTestWorkServer(engine);
  });
  afterAll(async () => {
    await work?.stop();
  });

  /** The checks every answer passes: JSON, v2 envelope, request id in body and header. */
  function expectEnvelope(answer: { status: number; headers: Headers; body: Record<string, unknown> }) {
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body.request_id).toMatch(UUID);
    expect(answer.headers.get('x-request-id')).toBe(answer.body.request_id);
    expect(answer.body).not.toHaveProperty('result');
    expect(answer.status).toBeLessThan(500);
  }

  async function expectRefusal(body: unknown, status: number, code: string, path?: string) {
    const answer = await work.post(body, { path });
    expectEnvelope(answer);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toMatchObject({ ok: false, error: { code } });
    const entry = ERROR_REGISTRY[code as keyof typeof ERROR_REGISTRY];
    expect(answer.body.error).toEqual({
      code,
      category: entry.category,
      message: expect.any(String),
      label_key: entry.label_key,
      retryable: entry.retryable,
    });
  }

  it('start without a session returns the login element context', async () => {
    const answer = await work.post({ action: 'start' });
    expectEnvelope(answer);
    expect(answer.status).toBe(200);
    expect(answer.body.ok).toBe(true);
    expect(answer.body.data.context).toEqual([
      expect.objectContaining({ tipo: 'dd229', model: 'login', type: 'login', mode: 'edit' }),
    ]);
    expect(answer.body.data.data).toEqual([]);
    expect(answer.body.environment.page_globals.is_logged).toBe(false);
  });

  it('answers on the base path with a trailing slash and with dd_api named explicitly', async () => {
    const answer = await work.post({ dd_api: 'dd_core_api', action: 'start' }, { path: '/' });
    expect(answer.status).toBe(200);
    expect(answer.body.ok).toBe(true);
  });

  it('reads the body as an RQO only when it is sent as application/json (content-type.http.test.ts)', async () => {
    const answer = await work.post(JSON.stringify({ action: 'start' }), { contentType: 'text/plain' });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ ok: false, error: { code: 'http.unsupported_media_type' } });
  });

  it('refuses malformed JSON and empty bodies', async () => {
    await expectRefusal('{"action": "start"', 400, 'request.malformed_body');
    await expectRefusal('', 400, 'request.malformed_body');
  });

  it('refuses bodies that are not an RQO object', async () => {
    for (const body of ['[]', '"start"', '42', 'null', '[{"action":"start"}]']) {
      await expectRefusal(body, 400, 'request.invalid_rqo');
    }
  });

  it('refuses a missing or non-string action, and a non-string dd_api', async () => {
    await expectRefusal({}, 400, 'request.invalid_rqo');
    await expectRefusal({ action: 42 }, 400, 'request.invalid_rqo');
    await expectRefusal({ action: '' }, 400, 'request.invalid_rqo');
    await expectRefusal({ action: ['start'] }, 400, 'request.invalid_rqo');
    await expectRefusal({ action: 'start', dd_api: 7 }, 400, 'request.invalid_rqo');
  });

  it('refuses an unknown dd_api, prototype names included', async () => {
    for (const api of ['dd_nope_api', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      await expectRefusal({ dd_api: api, action: 'start' }, 400, 'request.unknown_api');
    }
  });

  it('refuses an unregistered action, prototype names included, never with a 5xx', async () => {
    for (const action of ['delete_everything', 'constructor', '__proto__', 'toString', 'valueOf', 'start ']) {
      await expectRefusal({ action }, 400, 'request.unknown_action');
    }
    await expectRefusal(
      '{"action": "__proto__", "__proto__": {"action": "start"}}',
      400,
      'request.unknown_action',
    );
    // A registered name under the wrong API class is not callable either.
    await expectRefusal({ dd_api: 'dd_utils_api', action: 'start' }, 400, 'request.unknown_action');
  });

  it('answers other paths with an envelope 404, and a GET of the endpoint with 405 Allow: POST', async () => {
    await expectRefusal({ action: 'start' }, 404, 'http.not_found', '/elsewhere');
    const res = await fetch(work.server.url);
    const body = await res.json();
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(body).toMatchObject({ ok: false, error: { code: 'http.method_not_allowed' } });
  });

  it('refuses an oversized body with a 400 envelope', async () => {
    const big = JSON.stringify({ action: 'start', options: { pad: 'x'.repeat(5 * 1024 * 1024) } });
    await expectRefusal(big, 400, 'http.body_too_large');
  });
});
