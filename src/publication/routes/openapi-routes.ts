/**
 * GET /openapi.json and /openapi.yaml: the OpenAPI 3.1 description, built from the route
 * catalogue (openapi/), so it always matches the running configuration (BASE_PATH).
 * Built on the first request for it, not at start: the catalogue pulls in the MCP tool
 * definitions and their JSON Schemas (about 4 MB of heap, 9 MB of RSS) that a server answering
 * records never needs. The YAML form (and the yaml module, ~2 MB of RSS) is made on its first
 * request too.
 */
import type { FastifyInstance } from 'fastify';
import { sendJson } from '../http/send-json.js';
import type { buildOpenApiDocument } from '../openapi/document.js';

export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app.ctx;
  let built: Promise<ReturnType<typeof buildOpenApiDocument>> | undefined;
  const openApiDocument = () => {
    built ??= import('../openapi/document.js').then(({ buildOpenApiDocument }) =>
      buildOpenApiDocument({
        basePath: config.basePath,
        mcpPath: config.mcpEnabled ? config.mcpPath : undefined,
        apiKeys: config.apiKeys.length > 0,
      }),
    );
    return built;
  };
  let yaml: Promise<string> | undefined;
  app.get('/openapi.json', async (request, reply) =>
    sendJson(request, reply, await openApiDocument(), { maxAge: config.cacheMaxAge }),
  );
  app.get('/openapi.yaml', async (_request, reply) => {
    const document = await openApiDocument();
    yaml ??= import('yaml').then(({ stringify }) => stringify(document, { aliasDuplicateObjects: false }));
    const text = await yaml;
    return reply
      .type('application/yaml; charset=utf-8')
      .header('Cache-Control', `public, max-age=${config.cacheMaxAge}`)
      .send(text);
  });
}
