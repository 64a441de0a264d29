/**
 * GET /openapi.json and /openapi.yaml: the OpenAPI 3.1 description, built once at start from
 * the route catalogue (openapi/), so it always matches the running configuration (BASE_PATH).
 */
import type { FastifyInstance } from 'fastify';
import { stringify } from 'yaml';
import { sendJson } from '../http/send-json.js';
import { buildOpenApiDocument } from '../openapi/document.js';

export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app.ctx;
  const document = buildOpenApiDocument({
    basePath: config.basePath,
    mcpPath: config.mcpEnabled ? config.mcpPath : undefined,
  });
  const yaml = stringify(document, { aliasDuplicateObjects: false });
  app.get('/openapi.json', async (request, reply) =>
    sendJson(request, reply, document, { maxAge: config.cacheMaxAge }),
  );
  app.get('/openapi.yaml', async (_request, reply) =>
    reply
      .type('application/yaml; charset=utf-8')
      .header('Cache-Control', `public, max-age=${config.cacheMaxAge}`)
      .send(yaml),
  );
}
