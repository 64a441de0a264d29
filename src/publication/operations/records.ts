/**
 * Record operations: a filtered, sorted page of a table and one record with its language
 * variants. The page answer says where it sits (`page`) so REST can link the neighbours and
 * MCP can name the next offset, without either reparsing the request.
 */
import type { RawJson } from '../db/raw-json.js';
import type { Row } from '../db/types.js';
import { parseRecordId } from '../query/path-params.js';
import { parseRecordListRequest, parseRecordRequest } from '../query/record-requests.js';
import { requireTable } from '../services/catalog-service.js';
import { getRecord, listRecords, type RecordPage } from '../services/records-service.js';
import { defineOperation, type OperationAnswer, paramOf } from './operation.js';

export interface Pagination {
  limit: number;
  offset: number;
  /** Every matching row; only when the request asked for a count. */
  total?: number;
}

export interface PageBody {
  [key: string]: unknown;
  /** RawJson only for contexts with `rowsAsJson` (services/context.ts). */
  data: Row[] | RawJson;
  pagination: Pagination;
  meta: Record<string, unknown>;
}

export interface RecordBody {
  [key: string]: unknown;
  /** As PageBody.data. */
  data: Row[] | RawJson;
  meta: { section_id: number; languages?: string[] };
}

/** A page of rows (records or search results) as every door answers it. */
export function pageAnswer(
  page: RecordPage,
  paging: { limit: number; offset: number },
): OperationAnswer<PageBody> {
  const pagination: Pagination = { limit: paging.limit, offset: paging.offset };
  if (page.total !== undefined) pagination.total = page.total;
  return {
    body: { data: page.rows, pagination, meta: {} },
    page: { limit: paging.limit, offset: paging.offset, hasMore: page.hasMore },
  };
}

export const listRecordsOperation = defineOperation({
  name: 'records.list',
  path: '/:db/tables/:table/records',
  input: async (ctx, request) => {
    const db = paramOf(request, 'db');
    const info = await requireTable(ctx, db, paramOf(request, 'table'));
    const req = parseRecordListRequest(request.query(), info, await ctx.schemas.get(db));
    return { db, table: info.name, req };
  },
  execute: async (ctx, { db, table, req }) => pageAnswer(await listRecords(ctx, db, table, req), req),
});

export const getRecordOperation = defineOperation({
  name: 'records.get',
  path: '/:db/tables/:table/records/:id',
  input: async (ctx, request) => {
    const db = paramOf(request, 'db');
    const info = await requireTable(ctx, db, paramOf(request, 'table'));
    const id = parseRecordId(paramOf(request, 'id'));
    const req = parseRecordRequest(request.query(), info, await ctx.schemas.get(db));
    return { db, table: info.name, id, req };
  },
  execute: async (ctx, { db, table, id, req }): Promise<OperationAnswer<RecordBody>> => {
    const record = await getRecord(ctx, db, table, id, req);
    const meta: RecordBody['meta'] = { section_id: id };
    if (record.languages) meta.languages = record.languages;
    return { body: { data: record.rows, meta }, language: req.lang };
  },
});
