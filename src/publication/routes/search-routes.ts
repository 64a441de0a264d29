/**
 * GET /{db}/tables/{table}/search: boolean full-text search with relevance and highlighted
 * fragments, paged like the records list (Link headers, optional exact count).
 */
import type { FastifyInstance } from 'fastify';
import { queryOf } from '../http/request-input.js';
import { sendPage } from '../http/send-json.js';
import { parseSearchRequest } from '../query/search-request.js';
import { requireTable } from '../services/catalog-service.js';
import { searchRecords } from '../services/search-service.js';

export async function searchRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  app.get<{ Params: { db: string; table: string } }>('/:db/tables/:table/search', async (request, reply) => {
    const { db, table } = request.params;
    const info = await requireTable(ctx, db, table);
    const req = parseSearchRequest(queryOf(request), info, await ctx.schemas.get(db));
    const page = await searchRecords(ctx, db, table, req);
    return sendPage(request, reply, page, req, ctx.config.cacheMaxAge);
  });
}
