/**
 * Fragment operations: highlighted excerpts of a record's text, the same over its transcription
 * with media windows and speakers, and the passage an indexation locator points at.
 */
import {
  parseAvFragmentsRequest,
  parseFragmentsRequest,
  parseIndexationRequest,
} from '../query/fragment-requests.js';
import { parseRecordId } from '../query/path-params.js';
import { type AvFragment, avFragments, requireTranscriptionColumn } from '../services/av-service.js';
import { requireTable } from '../services/catalog-service.js';
import { type TextFragment, textFragments } from '../services/fragments-service.js';
import { type IndexationAnswer, indexationFragment } from '../services/indexation-service.js';
import { defineOperation, type OperationAnswer, paramOf } from './operation.js';

export interface FragmentsBody<F> {
  [key: string]: unknown;
  data: F[];
  meta: { section_id: number; terms: string };
}

export interface IndexationBody {
  [key: string]: unknown;
  data: IndexationAnswer['data'];
  meta: { section_id: number; passage: IndexationAnswer['passage']; lang?: string; terms_truncated?: true };
}

export const textFragmentsOperation = defineOperation({
  name: 'fragments',
  path: '/:db/tables/:table/records/:id/fragments',
  input: async (ctx, request) => {
    const db = paramOf(request, 'db');
    const info = await requireTable(ctx, db, paramOf(request, 'table'));
    const id = parseRecordId(paramOf(request, 'id'));
    const req = parseFragmentsRequest(request.query(), info);
    return { db, table: info.name, id, req };
  },
  execute: async (ctx, { db, table, id, req }): Promise<OperationAnswer<FragmentsBody<TextFragment>>> => ({
    body: { data: await textFragments(ctx, db, table, id, req), meta: { section_id: id, terms: req.terms } },
    language: req.lang,
  }),
});

export const avFragmentsOperation = defineOperation({
  name: 'av-fragments',
  path: '/:db/tables/:table/records/:id/av-fragments',
  input: async (ctx, request) => {
    const db = paramOf(request, 'db');
    const info = await requireTable(ctx, db, paramOf(request, 'table'));
    const id = parseRecordId(paramOf(request, 'id'));
    // Query first, then the column check: the order the REST route has always refused in.
    const query = request.query();
    const req = parseAvFragmentsRequest(query, info, requireTranscriptionColumn(ctx, info));
    return { db, table: info.name, id, req };
  },
  execute: async (ctx, { db, table, id, req }): Promise<OperationAnswer<FragmentsBody<AvFragment>>> => ({
    body: { data: await avFragments(ctx, db, table, id, req), meta: { section_id: id, terms: req.terms } },
    language: req.lang,
  }),
});

export const indexationFragmentOperation = defineOperation({
  name: 'av-indexation-fragment',
  path: '/:db/av-indexation-fragment',
  input: (_ctx, request) => ({ db: paramOf(request, 'db'), req: parseIndexationRequest(request.query()) }),
  execute: async (ctx, { db, req }): Promise<OperationAnswer<IndexationBody>> => {
    const answer = await indexationFragment(ctx, db, req);
    const meta: IndexationBody['meta'] = { section_id: req.sectionId, passage: answer.passage };
    if (answer.lang !== undefined) meta.lang = answer.lang;
    if (answer.termsTruncated) meta.terms_truncated = true;
    return { body: { data: answer.data, meta } };
  },
});
