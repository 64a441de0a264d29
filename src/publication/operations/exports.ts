/**
 * The export side of the two list operations (records, search): the same path, the same input
 * parsers, the same services read in chunks (services/export-service.ts). An export is the page
 * the client named when it gave `limit` (bounded as the JSON page is), otherwise every matching
 * row from `offset` on, up to EXPORT_MAX_ROWS (search: at most SEARCH_MAX_CANDIDATES anyway).
 */
import type { ExportRequest } from '../query/export-request.js';
import { parseRecordListRequest } from '../query/record-requests.js';
import { parseSearchRequest } from '../query/search-request.js';
import { requireTable } from '../services/catalog-service.js';
import type { PublicationContext } from '../services/context.js';
import { type ExportSource, exportRecords, exportSearch } from '../services/export-service.js';
import { type OperationRequest, paramOf } from './operation.js';
import { listRecordsOperation } from './records.js';
import { searchOperation } from './search.js';

export interface ExportOperation {
  /** The list operation this exports; same path, so the REST door serves both. */
  path: string;
  /**
   * Validates the request and opens the row source. `chunkContext` gives each chunk read its own
   * statement budget (see export-service.ts).
   */
  open(
    chunkContext: () => PublicationContext,
    request: OperationRequest,
    exportRequest: ExportRequest,
  ): Promise<ExportSource>;
}

function windowOf(ctx: PublicationContext, req: { limit: number; offset: number }, e: ExportRequest) {
  return { offset: req.offset, maxRows: e.explicitLimit ? req.limit : ctx.config.exportMaxRows };
}

export const exportRecordsOperation: ExportOperation = {
  path: listRecordsOperation.path,
  open: async (chunkContext, request, e) => {
    const ctx = chunkContext();
    const db = paramOf(request, 'db');
    const info = await requireTable(ctx, db, paramOf(request, 'table'));
    const req = parseRecordListRequest(request.query(), info, await ctx.schemas.get(db));
    return exportRecords(chunkContext, db, info.name, req, windowOf(ctx, req, e));
  },
};

export const exportSearchOperation: ExportOperation = {
  path: searchOperation.path,
  open: async (chunkContext, request, e) => {
    const ctx = chunkContext();
    const db = paramOf(request, 'db');
    const info = await requireTable(ctx, db, paramOf(request, 'table'));
    const req = parseSearchRequest(request.query(), info, await ctx.schemas.get(db));
    return exportSearch(chunkContext, db, info.name, req, windowOf(ctx, req, e));
  },
};
