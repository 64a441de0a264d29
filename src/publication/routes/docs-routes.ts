/**
 * Offline documentation: GET /docs (a landing page), /docs/swagger (Swagger UI) and /docs/scalar
 * (Scalar). Every asset is served by this server from its own node_modules, fonts included, and
 * the renderers are configured not to call any other host (no validator badge, no web fonts,
 * no hosted agent), so the docs work on an intranet with no internet access. Each page answers
 * with and without a trailing slash (`/docs/`, `/docs/scalar/`), and its asset URLs are absolute,
 * so both forms render the same page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

  const landing = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(API_NAME)}: documentation</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style></head>
<body><h1>${escapeHtml(API_NAME)}</h1>
<p>Interactive documentation of this server's API, served offline:</p>
<ul>
<li><a href="${escapeHtml(bp)}/docs/swagger">Swagger UI</a></li>
<li><a href="${escapeHtml(bp)}/docs/scalar/">Scalar</a></li>
</ul>
<p>Machine-readable description: <a href="${escapeHtml(bp)}/openapi.yaml">openapi.yaml</a>, <a href="${escapeHtml(specUrl)}">openapi.json</a>.</p>
</body></html>`;
  const sendLanding = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('Cache-Control', cache).send(landing);
  app.get('/docs', sendLanding);
  app.get('/docs/', sendLanding);

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

  // The Scalar plugin serves the renderer's script at /docs/scalar/js/scalar.js; its own pages
  // are a 301 from /docs/scalar to /docs/scalar/ and a page whose script URL is relative (so it
  // only works with the slash). Both of its page routes answer our page instead, whose URLs are
  // absolute: the spec's /docs/scalar is then the page itself, and /docs/scalar/ keeps working.
  const scalarConfig = {
    url: specUrl,
    withDefaultFonts: false,
    hideClientButton: true,
    agent: { disabled: true },
    mcp: { disabled: true },
    telemetry: false,
  };
  // `<` is escaped so that no configuration value can close the inline script.
  const scalarPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(API_NAME)}: Scalar</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><div id="app"></div>
<script src="${escapeHtml(bp)}/docs/scalar/js/scalar.js"></script>
<script>Scalar.createApiReference('#app', ${JSON.stringify(scalarConfig).replace(/</g, '\\u003c')})</script>
</body></html>`;
  const sendScalarPage = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('Cache-Control', cache).send(scalarPage);
  app.addHook('onRoute', (route) => {
    if (route.routePath === '/docs/scalar' || route.routePath === '/docs/scalar/') {
      route.handler = sendScalarPage;
    }
  });
  await app.register(scalar, { routePrefix: '/docs/scalar', configuration: scalarConfig as never });
}
