/**
 * Record tools: a filtered page of a table, one record with its language variants, a count, and
 * full-text search. Each builds the REST parameter map from its arguments and calls the same
 * parse function and service as the matching REST route, in the same order (table check, then
 * parameters, then the query), so bounds, defaults and messages are the REST ones.
 */
import * as z from 'zod';
import { BOUNDS } from '../query/bounds.js';
import { parseRecordId } from '../query/path-params.js';
import { parseRecordListRequest, parseRecordRequest } from '../query/record-requests.js';
import { DEFAULT_SEARCH_COLUMN, parseSearchRequest } from '../query/search-request.js';
import { requireTable } from '../services/catalog-service.js';
import type { PublicationContext } from '../services/context.js';
import { getRecord, listRecords, type RecordPage } from '../services/records-service.js';
import { searchRecords } from '../services/search-service.js';
import { countOutput, recordOutput, recordPageOutput, searchPageOutput } from './output-schemas.js';
import {
  type DbArg,
  fieldsArg,
  filtersArg,
  idArg,
  integerArg,
  langArg,
  ParamsBuilder,
  relationsArg,
  sortArg,
  tableArg,
  toolInput,
} from './tool-args.js';
import { databaseOf, defineTool, type McpTool } from './tool-definition.js';

const limitArg = integerArg('Rows per page; 0 returns no rows (with count: just the total).', BOUNDS.limit);
const offsetArg = integerArg('Rows to skip (for the next page, use pagination.next_offset).', {
  min: BOUNDS.offset.min,
  default: BOUNDS.offset.default,
});
const countArg = z
  .boolean()
  .optional()
  .describe('Also return pagination.total, the number of all matching rows (one extra query).');

/** The REST pagination object, plus where the next page starts (REST says so in a Link header). */
function paginationOf(req: { limit: number; offset: number }, page: RecordPage) {
  return {
    limit: req.limit,
    offset: req.offset,
    ...(page.total !== undefined ? { total: page.total } : {}),
    ...(page.hasMore ? { next_offset: req.offset + req.limit } : {}),
  };
}

function pageSummary(what: string, req: { offset: number; limit: number }, page: RecordPage): string {
  const total = page.total !== undefined ? ` of ${page.total}` : '';
  const more = page.hasMore ? `; more rows follow: call again with offset ${req.offset + req.limit}` : '';
  return `${page.rows.length}${total} ${what} from offset ${req.offset}${more}.`;
}

async function tableAndSchema(ctx: PublicationContext, dbName: string | undefined, table: string) {
  const db = databaseOf(ctx, dbName);
  const info = await requireTable(ctx, db, table);
  return { db, info, schema: await ctx.schemas.get(db) };
}

export function recordTools(dbArg: DbArg): McpTool[] {
  return [
    defineTool({
      name: 'search_records',
      title: 'Read records of a table',
      description:
        'Returns a page of rows of one table, narrowed by structured filters, sorted, with chosen fields, in one language (lang) and with relation cells optionally resolved into the rows they point to. Use it to browse or select records by column values (for words inside long texts use fulltext_search). Columns come from get_schema. Page with limit/offset; pagination.next_offset is set when more rows follow.',
      input: toolInput({
        db: dbArg,
        table: tableArg,
        filters: filtersArg,
        sort: sortArg,
        fields: fieldsArg,
        lang: langArg,
        limit: limitArg,
        offset: offsetArg,
        count: countArg,
        relations: relationsArg,
      }),
      output: recordPageOutput,
      run: async (ctx, args) => {
        const { db, info, schema } = await tableAndSchema(ctx, args.db, args.table);
        const params = new ParamsBuilder()
          .filters(args.filters)
          .list('sort', args.sort)
          .list('fields', args.fields)
          .set('lang', args.lang)
          .set('limit', args.limit)
          .set('offset', args.offset)
          .set('count', args.count)
          .relations(args.relations)
          .build();
        const req = parseRecordListRequest(params, info, schema);
        const page = await listRecords(ctx, db, info.name, req);
        return {
          structured: { db, table: info.name, data: page.rows, pagination: paginationOf(req, page) },
          summary: pageSummary(`rows of ${info.name}`, req, page),
        };
      },
    }),
    defineTool({
      name: 'get_record',
      title: 'Read one record',
      description:
        'Returns one record by id (section_id) with every language variant (one row per lang), or just one variant with lang. Use it after search_records or fulltext_search to read a record in full, optionally resolving its relations (informants, images, thesaurus terms).',
      input: toolInput({
        db: dbArg,
        table: tableArg,
        id: idArg,
        fields: fieldsArg,
        lang: langArg,
        relations: relationsArg,
      }),
      output: recordOutput,
      run: async (ctx, args) => {
        const { db, info, schema } = await tableAndSchema(ctx, args.db, args.table);
        const id = parseRecordId(String(args.id));
        const params = new ParamsBuilder()
          .list('fields', args.fields)
          .set('lang', args.lang)
          .relations(args.relations)
          .build();
        const req = parseRecordRequest(params, info, schema);
        const record = await getRecord(ctx, db, info.name, id, req);
        const meta = { section_id: id, ...(record.languages ? { languages: record.languages } : {}) };
        const languages = record.languages ? ` (exists in ${record.languages.join(', ')})` : '';
        return {
          structured: { db, table: info.name, data: record.rows, meta },
          summary: `Record ${id} of ${info.name}: ${record.rows.length} row(s)${languages}.`,
        };
      },
    }),
    defineTool({
      name: 'count_records',
      title: 'Count records',
      description:
        'Returns how many rows of a table match the filters (and lang), without reading them. Use it to size a result before paging through it with search_records. A multilingual table has one row per record and language; filter on lang to count records.',
      input: toolInput({ db: dbArg, table: tableArg, filters: filtersArg, lang: langArg }),
      output: countOutput,
      run: async (ctx, args) => {
        const { db, info, schema } = await tableAndSchema(ctx, args.db, args.table);
        const params = new ParamsBuilder()
          .filters(args.filters)
          .set('lang', args.lang)
          .set('limit', 0)
          .set('count', true)
          .build();
        const req = parseRecordListRequest(params, info, schema);
        const total = (await listRecords(ctx, db, info.name, req)).total ?? 0;
        return {
          structured: { db, table: info.name, total },
          summary: `${total} row(s) of ${info.name} match.`,
        };
      },
    }),
    defineTool({
      name: 'fulltext_search',
      title: 'Full-text search',
      description:
        'Finds rows whose indexed text column (default transcription) contains words, best match first, each with relevance and highlighted fragments. Use fulltext_search to find interviews mentioning a word; then get_text_fragment (or get_av_fragment for the video window) for the passages. q syntax: plain words match any, +word is required, -word excluded, "a phrase", word* a prefix. get_schema lists the searchable columns.',
      input: toolInput({
        db: dbArg,
        table: tableArg,
        q: z.string().meta({
          minLength: BOUNDS.q.min,
          maxLength: BOUNDS.q.max,
          description: 'The words to search for, e.g. +memoria -guerra, or "exilio interior" for a phrase.',
        }),
        column: z
          .string()
          .optional()
          .meta({ default: DEFAULT_SEARCH_COLUMN, description: 'The full-text indexed column to search.' }),
        lang: langArg,
        fields: fieldsArg,
        filters: filtersArg,
        limit: limitArg,
        offset: offsetArg,
        count: countArg,
        relations: relationsArg,
      }),
      output: searchPageOutput,
      run: async (ctx, args) => {
        const { db, info, schema } = await tableAndSchema(ctx, args.db, args.table);
        const params = new ParamsBuilder()
          .set('q', args.q)
          .set('column', args.column)
          .set('lang', args.lang)
          .list('fields', args.fields)
          .filters(args.filters)
          .set('limit', args.limit)
          .set('offset', args.offset)
          .set('count', args.count)
          .relations(args.relations)
          .build();
        const req = parseSearchRequest(params, info, schema);
        const page = await searchRecords(ctx, db, info.name, req);
        return {
          structured: { db, table: info.name, data: page.rows, pagination: paginationOf(req, page) },
          summary: pageSummary(`matching rows of ${info.name}`, req, page),
        };
      },
    }),
  ];
}
