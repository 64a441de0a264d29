/**
 * Offline documentation: GET /docs (a landing page), /docs/swagger (Swagger UI) and /docs/scalar
 * (Scalar). Every asset is served by this server from its own node_modules, fonts included, and
 * the renderers are configured not to call any other host (no validator badge, no web fonts,
 * no hosted agent), so the docs work on an intranet with no internet access. Each page answers
 * with and without a trailing slash (`/docs/`, `/docs/scalar/`), and its asset URLs are absolute,
 * so both forms render the same page.
 *
 * Nothing of the renderers is loaded at start: importing `swagger-ui-dist` evaluates the whole
 * Swagger UI bundle and the Scalar plugin carries its 4 MB script (together about 80 MB of RSS),
 * which only /docs visitors need. Swagger's files are read from its package directory on first
 * request, and the Scalar plugin is imported when its script is first asked for.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { API_NAME } from '../operations/discovery.js';

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
<p>The published data as pages a person can read: <a href="${escapeHtml(bp)}/browse/">browse the databases</a>.</p>
</body></html>`;
  const sendLanding = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('Cache-Control', cache).send(landing);
  app.get('/docs', sendLanding);
  app.get('/docs/', sendLanding);

  // The package directory, found without importing the package (its main module runs the bundle).
  const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const assets = new Map<string, Promise<Buffer>>();
  const swaggerAsset = (name: string) => {
    let body = assets.get(name);
    if (!body) {
      body = readFile(join(swaggerDir, name));
      // A failed read is not cached, so a later request tries again.
      body.catch(() => assets.delete(name));
      assets.set(name, body);
    }
    return body;
  };
  const swaggerPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(API_NAME)}: Swagger UI</title>
<link rel="stylesheet" href="${escapeHtml(bp)}/docs/swagger/swagger-ui.css">
<link rel="icon" type="image/png" href="${escapeHtml(bp)}/docs/swagger/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="${escapeHtml(bp)}/docs/swagger/swagger-ui-bundle.js"></script>
<script src="${escapeHtml(bp)}/docs/swagger/init.js"></script>
</body></html>`;
  const sendSwaggerPage = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('Cache-Control', cache).send(swaggerPage);
  app.get('/docs/swagger', sendSwaggerPage);
  app.get('/docs/swagger/', sendSwaggerPage);
  // validatorUrl: null keeps Swagger UI from sending the description to an online validator.
  const init = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true });\n`;
  app.get('/docs/swagger/init.js', async (_request, reply) =>
    reply.type('application/javascript; charset=utf-8').header('Cache-Control', cache).send(init),
  );
  app.get<{ Params: { file: string } }>('/docs/swagger/:file', async (request, reply) => {
    const type = Object.hasOwn(SWAGGER_ASSETS, request.params.file)
      ? SWAGGER_ASSETS[request.params.file]
      : undefined;
    if (!type) return reply.callNotFound();
    const body = await swaggerAsset(request.params.file);
    return reply.type(type).header('Cache-Control', cache).send(body);
  });

  // Scalar's page is ours rather than the plugin's: the plugin answers /docs/scalar with a 301 to
  // /docs/scalar/ and gives a page whose script URL is relative (so it only works with the slash).
  // Ours has absolute URLs, so the spec's /docs/scalar is the page itself and /docs/scalar/ works too.
  const scalarConfig = {
    url: specUrl,
    withDefaultFonts: false,
    hideClientButton: true,
    agent: { disabled: true },
    mcp: { disabled: true },
    telemetry: false,
    // The developer menus ("Developer Tools", "Configure", "Share", "Deploy") Scalar shows on
    // localhost are for people editing a document, not for readers of this one.
    showDeveloperTools: 'never',
    showToolbar: 'never',
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
  app.get('/docs/scalar', sendScalarPage);
  app.get('/docs/scalar/', sendScalarPage);

  let script: Promise<string> | undefined;
  app.get('/docs/scalar/js/scalar.js', async (_request, reply) => {
    script ??= loadScalarScript();
    // A failed load is not kept, so a later request tries again.
    script.catch(() => {
      script = undefined;
    });
    return reply
      .type('application/javascript; charset=utf-8')
      .header('Cache-Control', cache)
      .send(await script);
  });
}

/**
 * The Scalar renderer's script, which the package only hands out through its Fastify plugin:
 * registered once on a private instance (no hooks, no listener) and read from there.
 */
async function loadScalarScript(): Promise<string> {
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  const holder = Fastify({ logger: false });
  try {
    await holder.register(scalar, { routePrefix: '/scalar', configuration: { url: '/' } as never });
    const res = await holder.inject({ method: 'GET', url: '/scalar/js/scalar.js' });
    if (res.statusCode !== 200)
      throw new Error(`the Scalar plugin answered ${res.statusCode} for its script`);
    return res.body;
  } finally {
    await holder.close();
  }
}
