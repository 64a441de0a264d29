/**
 * Offline documentation: GET /docs (a landing page), /docs/swagger (Swagger UI) and /docs/scalar
 * (Scalar). Every asset is served by this server from its own node_modules, fonts included, and
 * the renderers are configured not to call any other host (no validator badge, no web fonts,
 * no hosted agent), so the docs work on an intranet with no internet access.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import { absolutePath as swaggerUiPath } from 'swagger-ui-dist';
import { API_NAME } from './discovery-routes.js';

const SWAGGER_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function docsRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app.ctx;
  const bp = config.basePath;
  const specUrl = `${bp}/openapi.json`;
  const cache = 'public, max-age=86400';

  app.get('/docs', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', cache)
      .send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(API_NAME)}: documentation</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style></head>
<body><h1>${escapeHtml(API_NAME)}</h1>
<p>Interactive documentation of this server's API, served offline:</p>
<ul>
<li><a href="${escapeHtml(bp)}/docs/swagger">Swagger UI</a></li>
<li><a href="${escapeHtml(bp)}/docs/scalar/">Scalar</a></li>
</ul>
<p>Machine-readable description: <a href="${escapeHtml(bp)}/openapi.yaml">openapi.yaml</a>, <a href="${escapeHtml(specUrl)}">openapi.json</a>.</p>
</body></html>`),
  );

  const dir = swaggerUiPath();
  const assets = new Map(Object.keys(SWAGGER_ASSETS).map((name) => [name, readFileSync(join(dir, name))]));
  app.get('/docs/swagger', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', cache)
      .send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(API_NAME)}: Swagger UI</title>
<link rel="stylesheet" href="${escapeHtml(bp)}/docs/swagger/swagger-ui.css">
<link rel="icon" type="image/png" href="${escapeHtml(bp)}/docs/swagger/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="${escapeHtml(bp)}/docs/swagger/swagger-ui-bundle.js"></script>
<script src="${escapeHtml(bp)}/docs/swagger/init.js"></script>
</body></html>`),
  );
  // validatorUrl: null keeps Swagger UI from sending the description to an online validator.
  const init = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true });\n`;
  app.get('/docs/swagger/init.js', async (_request, reply) =>
    reply.type('application/javascript; charset=utf-8').header('Cache-Control', cache).send(init),
  );
  app.get<{ Params: { file: string } }>('/docs/swagger/:file', async (request, reply) => {
    const body = assets.get(request.params.file);
    if (!body) return reply.callNotFound();
    return reply.type(SWAGGER_ASSETS[request.params.file]!).header('Cache-Control', cache).send(body);
  });

  await app.register(scalar, {
    routePrefix: '/docs/scalar',
    configuration: {
      url: specUrl,
      withDefaultFonts: false,
      hideClientButton: true,
      agent: { disabled: true },
      mcp: { disabled: true },
      telemetry: false,
    } as never,
  });
}
