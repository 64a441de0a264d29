/**
 * Full-text search as an operation: boolean query, relevance, highlighted fragments, paged like
 * the records list.
 */
import { parseSearchRequest } from '../query/search-request.js';
import { requireTable } from '../services/catalog-service.js';
import { searchRecords } from '../services/search-service.js';
import { defineOperation, paramOf } from './operation.js';
import { pageAnswer } from './records.js';

export const searchOperation = defineOperation({
  name: 'search',
  path: '/:db/tables/:table/search',
  input: async (ctx, request) => {
    const db = paramOf(request, 'db');
    const info = await requireTable(ctx, db, paramOf(request, 'table'));
    const req = parseSearchRequest(request.query(), info, await ctx.schemas.get(db));
    return { db, table: info.name, req };
  },
  execute: async (ctx, { db, table, req }) => {
    const page = await searchRecords(ctx, db, table, req);
    const answer = pageAnswer(page, req);
    // Only when it happened: more rows may match than the best-ranked ones served and counted.
    if (page.candidatesCapped) answer.body.meta.candidates_capped = true;
    return answer;
  },
});
