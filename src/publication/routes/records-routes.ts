/**
 * Records: a filtered, sorted page of a table (with Link headers) and one record by id with its
 * language variants. Thin: parse, call the service, shape the envelope.
 */
import type { FastifyInstance } from 'fastify';
import { queryOf } from '../http/request-input.js';
import { sendJson, sendPage } from '../http/send-json.js';
import { parseRecordId } from '../query/path-params.js';
import { parseRecordListRequest, parseRecordRequest } from '../query/record-requests.js';
import { requireTable } from '../services/catalog-service.js';
import { getRecord, listRecords } from '../services/records-service.js';

interface TableParams {
  db: string;
  table: string;
}

export async function recordsRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const maxAge = ctx.config.cacheMaxAge;

  app.get<{ Params: TableParams }>('/:db/tables/:table/records', async (request, reply) => {
    const { db, table } = request.params;
    const info = await requireTable(ctx, db, table);
    const req = parseRecordListRequest(queryOf(request), info, await ctx.schemas.get(db));
    const page = await listRecords(ctx, db, table, req);
    return sendPage(request, reply, page, req, maxAge);
  });

  app.get<{ Params: TableParams & { id: string } }>(
    '/:db/tables/:table/records/:id',
    async (request, reply) => {
      const { db, table } = request.params;
      const info = await requireTable(ctx, db, table);
      const id = parseRecordId(request.params.id);
      const req = parseRecordRequest(queryOf(request), info, await ctx.schemas.get(db));
      const record = await getRecord(ctx, db, table, id, req);
      if (req.lang) reply.header('Content-Language', req.lang);
      const meta: Record<string, unknown> = { section_id: id };
      if (record.languages) meta.languages = record.languages;
      return sendJson(request, reply, { data: record.rows, meta }, { maxAge });
    },
  );
}
