/**
 * The browse pages under {BASE_PATH}/browse/: databases, a database's tables, a table's rows (with
 * forms, sorting, paging, facets, full-text search and export links) and one record. Server-rendered
 * HTML (browse/), readable without JavaScript. They pass the same edge as the JSON routes (API key,
 * rate limit, statement budget) and call the same operations; their errors are HTML pages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BrowseUrls, PageRequest } from '../browse/pages.js';
import { asProblem } from '../http/error-handling.js';
import { requestContext } from '../http/request-context.js';
import { queryOf } from '../http/request-input.js';
import { appendVary } from '../http/vary.js';
import { ProblemError } from '../problems.js';

export const BROWSE_PREFIX = '/browse';

type BrowseKit = typeof import('../browse/kit.js');
let kit: Promise<BrowseKit> | undefined;
/** The page builders, templates and translations, loaded by the first page served (browse/kit.ts). */
export function browseKit(): Promise<BrowseKit> {
  kit ??= import('../browse/kit.js');
  return kit;
}

/** The origin of an absolute MEDIA_BASE_URL, which images and the player load from. */
function mediaOrigin(mediaBaseUrl: string): string {
  return /^https?:\/\//i.test(mediaBaseUrl) ? ` ${new URL(mediaBaseUrl).origin}` : '';
}

export function sendHtml(
  reply: FastifyReply,
  html: string,
  maxAge: number,
  status = 200,
  mediaBaseUrl = '',
): FastifyReply {
  const media = mediaOrigin(mediaBaseUrl);
  // The interface language follows Accept-Language when the URL does not choose it.
  appendVary(reply, 'Accept-Language');
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', status === 200 ? `public, max-age=${maxAge}` : 'no-store')
    .header(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'${media}; media-src 'self'${media}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    )

    .header('X-Content-Type-Options', 'nosniff')
    .send(html);
}

/** The interface language of a page (the `ui` parameter, else Accept-Language) and its URL. */
export function pageRequest(k: BrowseKit, request: FastifyRequest): PageRequest {
  const ui = queryOf(request).get('ui')?.[0];
  return { ui: k.chooseUiLang(ui, request.headers['accept-language']), url: request.url };
}

/** True when the client prefers HTML to JSON (a browser opening the API index). */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let html = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    if (type === 'text/html') html = Math.max(html, q);
    if (type === 'application/json') json = Math.max(json, q);
  }
  return html > json;
}

export async function browseRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const bp = ctx.config.basePath;
  const urls: BrowseUrls = { browse: `${bp}${BROWSE_PREFIX}`, api: bp };
  const maxAge = ctx.config.cacheMaxAge;
  const media = ctx.config.mediaBaseUrl;
  const html = (reply: FastifyReply, body: string, status = 200) =>
    sendHtml(reply, body, maxAge, status, media);

  await app.register(
    async (browse) => {
      browse.setErrorHandler(async (err, request, reply) => {
        const problem = asProblem(request, err);
        for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
        const k = await browseKit();
        return html(
          reply,
          k.renderPage('@error', k.errorPage(urls, pageRequest(k, request), problem)),
          problem.status,
        );
      });
      browse.setNotFoundHandler(async (request, reply) => {
        const problem = new ProblemError('not-found', `there is no page at ${request.url.split('?')[0]}`);
        const k = await browseKit();
        return html(reply, k.renderPage('@error', k.errorPage(urls, pageRequest(k, request), problem)), 404);
      });

      browse.get('/style.css', async (_request, reply) =>
        reply
          .type('text/css; charset=utf-8')
          .header('Cache-Control', `public, max-age=${maxAge}`)
          .send((await browseKit()).BROWSE_CSS),
      );
      browse.get('/player.js', async (_request, reply) =>
        reply
          .type('text/javascript; charset=utf-8')
          .header('Cache-Control', `public, max-age=${maxAge}`)
          .header('X-Content-Type-Options', 'nosniff')
          .send((await browseKit()).PLAYER_JS),
      );
      browse.get('/', async (request, reply) => {
        const k = await browseKit();
        const page = await k.homePage(requestContext(request), urls, pageRequest(k, request));
        return html(reply, k.renderPage('@home', page));
      });
      // A database's page is a directory (`/browse/{db}/`, so its relative links work); the
      // address without the slash leads there.
      browse.get('/:db', async (request: FastifyRequest<{ Params: { db: string } }>, reply) =>
        reply.redirect(`${urls.browse}/${encodeURIComponent(request.params.db)}/`, 301),
      );
      browse.get('/:db/', async (request: FastifyRequest<{ Params: { db: string } }>, reply) => {
        const k = await browseKit();
        const page = await k.databasePage(
          requestContext(request),
          urls,
          pageRequest(k, request),
          request.params.db,
        );
        return html(reply, k.renderPage('@database', page));
      });
      browse.get(
        '/:db/:table',
        async (request: FastifyRequest<{ Params: { db: string; table: string } }>, reply) => {
          const { db, table } = request.params;
          const k = await browseKit();
          const page = await k.tablePage(
            requestContext(request),
            urls,
            pageRequest(k, request),
            db,
            table,
            queryOf(request),
          );
          return html(reply, k.renderPage('@table', page), page.error ? 400 : 200);
        },
      );
      browse.get(
        '/:db/:table/:id',
        async (request: FastifyRequest<{ Params: { db: string; table: string; id: string } }>, reply) => {
          const { db, table, id } = request.params;
          const k = await browseKit();
          const page = await k.recordPage(
            requestContext(request),
            urls,
            pageRequest(k, request),
            db,
            table,
            id,
            queryOf(request),
          );
          return html(reply, k.renderPage('@record', page));
        },
      );
    },
    { prefix: BROWSE_PREFIX },
  );
}
