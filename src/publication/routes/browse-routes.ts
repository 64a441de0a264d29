/**
 * The browse pages under {BASE_PATH}/browse/: databases, a database's tables, a table's rows (with
 * forms, sorting, paging, facets, full-text search and export links) and one record. Server-rendered
 * HTML (browse/), readable without JavaScript. They pass the same edge as the JSON routes (API key,
 * rate limit, statement budget) and call the same operations; their errors are HTML pages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type BrowseUrls,
  databasePage,
  errorPage,
  homePage,
  recordPage,
  tablePage,
} from '../browse/pages.js';
import { BROWSE_CSS } from '../browse/style.js';
import { renderPage } from '../browse/views.js';
import { asProblem } from '../http/error-handling.js';
import { requestContext } from '../http/request-context.js';
import { queryOf } from '../http/request-input.js';
import { ProblemError } from '../problems.js';

export const BROWSE_PREFIX = '/browse';

export function sendHtml(reply: FastifyReply, html: string, maxAge: number, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', status === 200 ? `public, max-age=${maxAge}` : 'no-store')
    .header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    )
    .header('X-Content-Type-Options', 'nosniff')
    .send(html);
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

  await app.register(
    async (browse) => {
      browse.setErrorHandler((err, request, reply) => {
        const problem = asProblem(request, err);
        for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
        return sendHtml(reply, renderPage('@error', errorPage(urls, problem)), maxAge, problem.status);
      });
      browse.setNotFoundHandler((request, reply) => {
        const problem = new ProblemError('not-found', `there is no page at ${request.url.split('?')[0]}`);
        return sendHtml(reply, renderPage('@error', errorPage(urls, problem)), maxAge, 404);
      });

      browse.get('/style.css', async (_request, reply) =>
        reply
          .type('text/css; charset=utf-8')
          .header('Cache-Control', `public, max-age=${maxAge}`)
          .send(BROWSE_CSS),
      );
      browse.get('/', async (request, reply) =>
        sendHtml(reply, renderPage('@home', await homePage(requestContext(request), urls)), maxAge),
      );
      // A database's page is a directory (`/browse/{db}/`, so its relative links work); the
      // address without the slash leads there.
      browse.get('/:db', async (request: FastifyRequest<{ Params: { db: string } }>, reply) =>
        reply.redirect(`${urls.browse}/${encodeURIComponent(request.params.db)}/`, 301),
      );
      browse.get('/:db/', async (request: FastifyRequest<{ Params: { db: string } }>, reply) =>
        sendHtml(
          reply,
          renderPage('@database', await databasePage(requestContext(request), urls, request.params.db)),
          maxAge,
        ),
      );
      browse.get(
        '/:db/:table',
        async (request: FastifyRequest<{ Params: { db: string; table: string } }>, reply) => {
          const { db, table } = request.params;
          const page = await tablePage(requestContext(request), urls, db, table, queryOf(request));
          return sendHtml(reply, renderPage('@table', page), maxAge, page.error ? 400 : 200);
        },
      );
      browse.get(
        '/:db/:table/:id',
        async (request: FastifyRequest<{ Params: { db: string; table: string; id: string } }>, reply) => {
          const { db, table, id } = request.params;
          const page = await recordPage(requestContext(request), urls, db, table, id, queryOf(request));
          return sendHtml(reply, renderPage('@record', page), maxAge);
        },
      );
    },
    { prefix: BROWSE_PREFIX },
  );
}
