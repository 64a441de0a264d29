import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

describe('OpenAPI description and docs', () => {
  const c = engineCases()[0]!;
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(c, { BASE_PATH: '/archive/v2' });
  });
  afterAll(async () => s.close());

  it('serves a valid OpenAPI 3.1 document, the same as JSON and YAML', async () => {
    const json = await s.get('/openapi.json');
    const yaml = await s.get('/openapi.yaml');
    expect(json.status).toBe(200);
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toMatch(/yaml/);
    expect(parse(yaml.text)).toEqual(json.json);
    expect(json.json.openapi).toBe('3.1.0');
    expect(json.json.info.version).toBe('2.1.0');
    expect(json.json.servers[0].url).toBe('/archive/v2');
    const result = await validate(structuredClone(json.json));
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('describes the X-API-Key scheme only when API_KEYS is set', async () => {
    const open = (await s.get('/openapi.json')).json;
    expect(open).not.toHaveProperty('security');
    expect(open.components).not.toHaveProperty('securitySchemes');
    expect(open.paths['/databases'].get.responses).not.toHaveProperty('401');
    const keyed = await startTestServer(c, { API_KEYS: 'k1' });
    try {
      const doc = (await keyed.get('/openapi.json', { 'X-API-Key': 'k1' })).json;
      expect(doc.security).toEqual([{ apiKey: [] }]);
      expect(doc.components.securitySchemes.apiKey).toEqual({
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
      });
      expect(doc.paths['/databases'].get.responses['401'].description).toMatch(/X-API-Key/);
      const result = await validate(structuredClone(doc));
      expect(result.valid, JSON.stringify(result)).toBe(true);
    } finally {
      await keyed.close();
    }
  });

  it('documents every route the server answers, and marks the search extensions', async () => {
    const doc = (await s.get('/openapi.json')).json;
    for (const path of [
      '/',
      '/databases',
      '/{db}/tables',
      '/{db}/tables/{table}',
      '/{db}/tables/{table}/records',
      '/{db}/tables/{table}/records/{id}',
      '/{db}/tables/{table}/search',
      '/{db}/tables/{table}/facets',
      '/{db}/tables/{table}/records/{id}/fragments',
      '/{db}/tables/{table}/records/{id}/av-fragments',
      '/{db}/av-indexation-fragment',
      '/batch',
      '/health',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    const search = doc.paths['/{db}/tables/{table}/search'].get.parameters;
    const extensions = search
      .filter((p: { 'x-extension'?: boolean }) => p['x-extension'])
      .map((p: { name: string }) => p.name);
    expect(extensions.sort()).toEqual(['bom', 'fields', 'filter', 'format', 'lang']);
    const records = doc.paths['/{db}/tables/{table}/records'].get;
    expect(Object.keys(records.responses['200'].content)).toEqual([
      'application/json',
      'text/csv',
      'application/x-ndjson',
    ]);
    const limit = doc.paths['/{db}/tables/{table}/records'].get.parameters.find(
      (p: { name: string }) => p.name === 'limit',
    );
    expect(limit.schema).toMatchObject({ minimum: 0, maximum: 1000, default: 100 });
  });

  it('links the two renderers from /docs under BASE_PATH and serves their assets itself', async () => {
    const landing = await s.get('/docs');
    expect(landing.status).toBe(200);
    expect(landing.text).toContain('href="/archive/v2/docs/swagger"');
    expect(landing.text).toContain('href="/archive/v2/docs/scalar/"');
    const swagger = await s.get('/docs/swagger');
    expect(swagger.text).toContain('/archive/v2/docs/swagger/swagger-ui-bundle.js');
    expect((await s.get('/docs/swagger/swagger-ui-bundle.js')).status).toBe(200);
    expect((await s.get('/docs/swagger/init.js')).text).toContain('"/archive/v2/openapi.json"');
    expect((await s.get('/docs/swagger/nope.js')).status).toBe(404);
    const scalar = await s.get('/docs/scalar/');
    expect(scalar.status).toBe(200);
    expect(scalar.text).not.toMatch(/fonts\.(googleapis|scalar)\.com|cdn\.jsdelivr/);
    expect((await s.get('/docs/scalar/js/scalar.js')).status).toBe(200);
  });
});
