import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

/**
 * The documented parameters of each route and the parameters its validator accepts must be the
 * same set: the validator names what it accepts when it refuses an unknown parameter.
 */
describe('documented parameters are exactly the accepted ones', () => {
  const c = engineCases()[0]!;
  let s: TestServer;
  let doc: { paths: Record<string, Record<string, { parameters: { name: string; in: string }[] }>> };
  beforeAll(async () => {
    s = await startTestServer(c);
    doc = (await s.get('/openapi.json')).json;
  });
  afterAll(async () => s.close());

  const routes: [string, string][] = [
    ['/{db}/tables/{table}/records', '/interview/records'],
    ['/{db}/tables/{table}/records/{id}', '/interview/records/1'],
    ['/{db}/tables/{table}/search', '/interview/search'],
    ['/{db}/tables/{table}/facets', '/interview/facets'],
    ['/{db}/tables/{table}/records/{id}/fragments', '/interview/records/1/fragments'],
    ['/{db}/tables/{table}/records/{id}/av-fragments', '/interview/records/1/av-fragments'],
    ['/{db}/av-indexation-fragment', '/av-indexation-fragment'],
  ];

  it.each(routes)('%s', async (documented, concrete) => {
    const path = concrete.startsWith('/av-') ? `/${c.db}${concrete}` : `/${c.db}/tables${concrete}`;
    const res = await s.get(`${path}?zz_not_a_parameter=1`);
    expect(res.status).toBe(400);
    const problem = res.json.errors.find((e: { name: string }) => e.name === 'zz_not_a_parameter');
    const accepted = /this route accepts (.*)$/
      .exec(problem.detail)![1]!
      .split(', ')
      .map((n: string) => (n.startsWith('filter[') ? 'filter' : n));
    // format and bom are taken by the REST door of the lists before the validator (exports), so
    // the validator, which batch and MCP share, does not list them.
    const names = doc.paths[documented]!.get!.parameters.filter(
      (p) => p.in === 'query' && p.name !== 'format' && p.name !== 'bom',
    ).map((p) => p.name);
    expect(new Set(accepted)).toEqual(new Set(names));
  });
});
