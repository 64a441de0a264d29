/**
 * GET /openapi.json and /openapi.yaml: the OpenAPI 3.1 description, built once at start from
 * the route catalogue (openapi/), so it always matches the running configuration (BASE_PATH).
 * The YAML form (and the yaml module, ~2 MB of RSS) is made on its first request.
 */
import type { FastifyInstance } from 'fastify';
import { sendJson } from '../http/send-json.js';
import { buildOpenApiDocument } from '../openapi/document.js';

export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app.ctx;
  const document = buildOpenApiDocument({
    basePath: config.basePath,
    mcpPath: config.mcpEnabled ? config.mcpPath : undefined,
    apiKeys: config.apiKeys.length > 0,
  });
  let yaml: Promise<string> | undefined;
  app.get('/openapi.json', async (request, reply) =>
    sendJson(request, reply, document, { maxAge: config.cacheMaxAge }),
  );
  app.get('/openapi.yaml', async (_request, reply) => {
    yaml ??= import('yaml').then(({ stringify }) => stringify(document, { aliasDuplicateObjects: false }));
    const text = await yaml;
    return reply
      .type('application/yaml; charset=utf-8')
      .header('Cache-Control', `public, max-age=${config.cacheMaxAge}`)
      .send(text);
  });
}
