/**
 * Fragments of records: highlighted text excerpts (`.../fragments`), the same over the
 * transcription with media windows and speakers (`.../av-fragments`), and the passage an
 * indexation locator points at (`/{db}/av-indexation-fragment`). Thin: parse, call a service,
 * shape the envelope.
 */
import type { FastifyInstance } from 'fastify';
import { queryOf } from '../http/request-input.js';
import { sendJson } from '../http/send-json.js';
import {
  parseAvFragmentsRequest,
  parseFragmentsRequest,
  parseIndexationRequest,
} from '../query/fragment-requests.js';
import { parseRecordId } from '../query/path-params.js';
import { avFragments, requireTranscriptionColumn } from '../services/av-service.js';
import { requireTable } from '../services/catalog-service.js';
import { textFragments } from '../services/fragments-service.js';
import { indexationFragment } from '../services/indexation-service.js';

interface RecordParams {
  db: string;
  table: string;
  id: string;
}

export async function fragmentsRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const maxAge = ctx.config.cacheMaxAge;

  app.get<{ Params: RecordParams }>('/:db/tables/:table/records/:id/fragments', async (request, reply) => {
    const { db, table } = request.params;
    const info = await requireTable(ctx, db, table);
    const id = parseRecordId(request.params.id);
    const req = parseFragmentsRequest(queryOf(request), info);
    const data = await textFragments(ctx, db, table, id, req);
    if (req.lang) reply.header('Content-Language', req.lang);
    return sendJson(request, reply, { data, meta: { section_id: id, terms: req.terms } }, { maxAge });
  });

  app.get<{ Params: RecordParams }>('/:db/tables/:table/records/:id/av-fragments', async (request, reply) => {
    const { db, table } = request.params;
    const info = await requireTable(ctx, db, table);
    const id = parseRecordId(request.params.id);
    const req = parseAvFragmentsRequest(queryOf(request), info, requireTranscriptionColumn(ctx, info));
    const data = await avFragments(ctx, db, table, id, req);
    if (req.lang) reply.header('Content-Language', req.lang);
    return sendJson(request, reply, { data, meta: { section_id: id, terms: req.terms } }, { maxAge });
  });

  app.get<{ Params: { db: string } }>('/:db/av-indexation-fragment', async (request, reply) => {
    const { db } = request.params;
    const req = parseIndexationRequest(queryOf(request));
    const answer = await indexationFragment(ctx, db, req);
    const meta: Record<string, unknown> = { section_id: req.sectionId, passage: answer.passage };
    if (answer.lang !== undefined) meta.lang = answer.lang;
    if (answer.termsTruncated) meta.terms_truncated = true;
    return sendJson(request, reply, { data: answer.data, meta }, { maxAge });
  });
}
