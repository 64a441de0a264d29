/**
 * Serves the cataloguing web client (client/, built by Vite into dist/client) at WORK_UI_PATH:
 * index.html with the API's path written into it and `no-cache` (a new release is picked up at
 * once), the hashed files under assets/ with a year-long immutable cache. The client speaks only
 * the public RQO protocol to WORK_BASE_PATH; nothing here knows about its screens.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** The placeholder index.html carries (client/index.html) for the API's path. */
const API_URL_PLACEHOLDER = '%DEDALO_API_URL%';

/** Everything the page loads comes from this server: no CDN, no outside font, works offline. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; " +
  "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'";

/** dist/client of this package, from the sources (src/work/ui) or the build (dist/src/work/ui). */
export function builtClientDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, 'dist', 'client');
}

export interface ServeClientOptions {
  uiPath: string;
  apiPath: string;
  /** Defaults to dist/client; tests may point elsewhere. */
  clientDir?: string;
}

/**
 * Registers the client's routes; answers false (and registers nothing) when the client was not
 * built, so the API still runs from a checkout where only `tsc` ran.
 */
export async function serveClient(app: FastifyInstance, options: ServeClientOptions): Promise<boolean> {
  const root = options.clientDir ?? builtClientDir();
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile)) return false;
  const prefix = options.uiPath === '/' ? '/' : `${options.uiPath}/`;
  // Read at each page load (a few hundred bytes), so `npm run build:client` on a running server
  // is picked up at once: the old index would name hashed files the build just removed.
  // Vite writes ./assets/… (the build does not know WORK_UI_PATH); absolute here, so the page
  // loads them whether it was opened as /ui or /ui/ (the router treats both as one path).
  const sendIndex = async (_request: unknown, reply: import('fastify').FastifyReply) => {
    const html = (await readFile(indexFile, 'utf8'))
      .replaceAll(API_URL_PLACEHOLDER, options.apiPath)
      .replaceAll('"./assets/', `"${prefix}assets/`);
    return reply
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
      .header('X-Content-Type-Options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(html);
  };
  app.get(prefix, sendIndex);

  await app.register(fastifyStatic, {
    root: join(root, 'assets'),
    prefix: `${prefix}assets/`,
    index: false,
    // Vite names every asset after its content hash: a changed file is a new URL.
    immutable: true,
    maxAge: '365d',
    decorateReply: false,
    setHeaders: (res) => res.setHeader('X-Content-Type-Options', 'nosniff'),
  });
  return true;
}
