/**
 * v1 under the shared limits: the statement budget and a failing engine answer v1 errors with
 * HTTP 200 and a whole JSON body, never a 500; combi calls share the request's budget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Driver } from '../../src/publication/db/types.js';
import { engineCases, rawRequest, startTestServer, type TestServer } from '../helpers/publication-server.js';

const CODE = 'v1-limits';

describe.each(engineCases())('v1 limits on $engine', (c) => {
  let budget: TestServer;
  let failing: TestServer;
  let fail = false;
  const url = (s: TestServer, action: string, params: Record<string, string>) =>
    `${new URL(s.base).origin}/publication/server_api/v1/json/${action}?${new URLSearchParams({ code: CODE, ...params })}`;

  beforeAll(async () => {
    budget = await startTestServer(c, { V1_API_CODE: CODE, REQUEST_MAX_STATEMENTS: '3' });
    failing = await startTestServer(
      c,
      { V1_API_CODE: CODE, LOG_LEVEL: 'silent' },
      {
        wrapDriver: (inner: Driver): Driver =>
          new Proxy(inner, {
            get(target, prop, receiver) {
              if (prop === 'select' && fail)
                return async () => Promise.reject(new Error('connection reset by injected fault'));
              const value = Reflect.get(target, prop, receiver);
              return typeof value === 'function' ? value.bind(target) : value;
            },
          }),
      },
    );
  });
  afterAll(async () => {
    await budget.close();
    await failing.close();
  });

  it('answers calls past the statement budget with a v1 error, the earlier ones with their rows', async () => {
    const calls = Array.from({ length: 5 }, (_, i) => ({
      id: `c${i}`,
      options: {
        dedalo_get: 'records',
        table: 'interview',
        ar_fields: 'section_id',
        section_id: String(i + 1),
        lang: 'lg-spa',
      },
    }));
    const res = await rawRequest(url(budget, 'combi', { ar_calls: JSON.stringify(calls) }));
    expect(res.status).toBe(200);
    const results = res.json.result as { id: string; result: unknown; msg: string }[];
    expect(results.map((r) => r.id)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    const ok = results.filter((r) => Array.isArray(r.result));
    const refused = results.filter((r) => r.result === false);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(r.msg).toBe('Error. this request needs more than 3 database statements');
  });

  it('answers an engine failure with a whole v1 error body and keeps serving', async () => {
    fail = true;
    try {
      const res = await rawRequest(url(failing, 'records', { table: 'interview', limit: '1' }));
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        result: false,
        msg: 'Error on get data (exec_query) Check server log for details',
      });
      expect(res.text).not.toContain('injected');
    } finally {
      fail = false;
    }
    const again = await rawRequest(url(failing, 'records', { table: 'interview', limit: '1' }));
    expect(again.json.result).toHaveLength(1);
  });

  it('authenticates v1 with its code only: API_KEYS guard v2, not v1', async () => {
    const keyed = await startTestServer(c, { V1_API_CODE: CODE, API_KEYS: 'k1' });
    try {
      const v1 = await rawRequest(url(keyed, 'records', { table: 'interview', limit: '1' }));
      expect(v1.json.result).toHaveLength(1);
      const v2 = await rawRequest(`${keyed.base}/${c.db}/tables/interview/records?limit=1`);
      expect(v2.status).toBe(401);
    } finally {
      await keyed.close();
    }
  });
});
