/**
 * Facets as an operation: the values of indexed columns with their counts under the records
 * filters, so a site builds its filter menus in one request. REST, batch, MCP and the browse
 * pages call it.
 */
import { parseFacetsRequest } from '../query/facets-request.js';
import { requireTable } from '../services/catalog-service.js';
import { type Facet, facetValues } from '../services/facets-service.js';
import { defineOperation, type OperationAnswer, paramOf } from './operation.js';

export interface FacetsBody {
  [key: string]: unknown;
  data: Facet[];
  meta: Record<string, unknown>;
}

export const facetsOperation = defineOperation({
  name: 'facets',
  path: '/:db/tables/:table/facets',
  input: async (ctx, request) => {
    const db = paramOf(request, 'db');
    const info = await requireTable(ctx, db, paramOf(request, 'table'));
    return { db, table: info.name, req: parseFacetsRequest(request.query(), info) };
  },
  execute: async (ctx, { db, table, req }): Promise<OperationAnswer<FacetsBody>> => ({
    body: { data: await facetValues(ctx, db, table, req), meta: {} },
    language: req.lang,
  }),
});
