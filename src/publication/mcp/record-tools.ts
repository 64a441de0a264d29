/**
 * Record tools: a filtered page of a table, one record with its language variants, a count, and
 * full-text search, each a row mapping its arguments onto a read operation (operations/records.ts,
 * operations/search.ts): the REST route's validators judge the arguments, so bounds, defaults
 * and messages are the REST ones.
 */

import * as z from 'zod';
import { rowObjects } from '../db/raw-json.js';
import { facetsOperation } from '../operations/facets.js';
import type { OperationAnswer } from '../operations/operation.js';
import { getRecordOperation, listRecordsOperation, type PageBody } from '../operations/records.js';
import { searchOperation } from '../operations/search.js';
import { ValidationError } from '../problems.js';
import { BOUNDS } from '../query/bounds.js';
import { DEFAULT_SEARCH_COLUMN } from '../query/search-request.js';
import {
  countOutput,
  facetsOutput,
  recordOutput,
  recordPageOutput,
  searchPageOutput,
} from './output-schemas.js';
import {
  type DbArg,
  fieldsArg,
  filtersArg,
  idArg,
  integerArg,
  langArg,
  type ParamsBuilder,
  relationsArg,
  sortArg,
  tableArg,
  toolInput,
} from './tool-args.js';
import { databaseOf, defineTool, type McpTool, operationTool, runOperation } from './tool-definition.js';

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
function paginationOf({ body, page }: OperationAnswer<PageBody>) {
  const { limit, offset, total } = body.pagination;
  return {
    limit,
    offset,
    ...(total !== undefined ? { total } : {}),
    ...(page?.hasMore ? { next_offset: offset + limit } : {}),
  };
}

function pageSummary(what: string, { body, page }: OperationAnswer<PageBody>): string {
  const { limit, offset, total } = body.pagination;
  const of = total !== undefined ? ` of ${total}` : '';
  const more = page?.hasMore ? `; more rows follow: call again with offset ${offset + limit}` : '';
  return `${body.data.length}${of} ${what} from offset ${offset}${more}.`;
}

/** The record id of get_record: `id`, or the reference implementation's `section_id`. */
function recordIdOf(args: { id?: number; section_id?: number }): number {
  const { id, section_id: sectionId } = args;
  if (id !== undefined && sectionId !== undefined && id !== sectionId) {
    throw new ValidationError([
      {
        name: 'section_id',
        in: 'body',
        detail: `id ${id} and section_id ${sectionId} differ; give one of them`,
      },
    ]);
  }
  const chosen = id ?? sectionId;
  if (chosen === undefined) {
    throw new ValidationError([
      { name: 'id', in: 'body', detail: 'get_record needs the record id, as id or section_id' },
    ]);
  }
  return chosen;
}

export function recordTools(dbArg: DbArg): McpTool[] {
  return [
    operationTool({
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
      operation: listRecordsOperation,
      call: (args) => ({
        params: { table: args.table },
        query: (p) =>
          p
            .filters(args.filters)
            .list('sort', args.sort)
            .list('fields', args.fields)
            .set('lang', args.lang)
            .set('limit', args.limit)
            .set('offset', args.offset)
            .set('count', args.count)
            .relations(args.relations),
      }),
      answer: (answer, args, db) => ({
        structured: {
          db,
          table: args.table,
          data: rowObjects(answer.body.data),
          pagination: paginationOf(answer),
        },
        summary: pageSummary(`rows of ${args.table}`, answer),
      }),
    }),
    operationTool({
      name: 'get_record',
      title: 'Read one record',
      description:
        "Returns one record by id (section_id) with every language variant (one row per lang), or just one variant with lang. Use it after search_records or fulltext_search to read a record in full, optionally resolving its relations (informants, images, thesaurus terms). The id may also be given as section_id, the reference implementation's name for it.",
      input: toolInput({
        db: dbArg,
        table: tableArg,
        id: idArg.optional(),
        section_id: idArg.optional().describe('Same as id (the name the reference implementation uses).'),
        fields: fieldsArg,
        lang: langArg,
        relations: relationsArg,
      }),
      output: recordOutput,
      operation: getRecordOperation,
      call: (args) => ({
        params: { table: args.table, id: String(recordIdOf(args)) },
        query: (p) => p.list('fields', args.fields).set('lang', args.lang).relations(args.relations),
      }),
      answer: ({ body }, args, db) => {
        const { section_id, languages } = body.meta;
        const exists = languages ? ` (exists in ${languages.join(', ')})` : '';
        return {
          structured: { db, table: args.table, data: rowObjects(body.data), meta: body.meta },
          summary: `Record ${section_id} of ${args.table}: ${body.data.length} row(s)${exists}.`,
        };
      },
    }),
    defineTool({
      name: 'count_records',
      title: 'Count records',
      description:
        'Returns how many rows of a table match the filters (and lang), without reading them. Use it to size a result before paging through it with search_records. A multilingual table has one row per record and language; filter on lang to count records. With q (as the reference implementation takes it), counts the rows whose full-text column (column, default transcription) matches those words instead, exactly as fulltext_search with count would.',
      input: toolInput({
        db: dbArg,
        table: tableArg,
        filters: filtersArg,
        lang: langArg,
        q: z.string().optional().meta({
          minLength: BOUNDS.q.min,
          maxLength: BOUNDS.q.max,
          description: 'Words: count full-text matches.',
        }),
        column: z
          .string()
          .optional()
          .meta({ default: DEFAULT_SEARCH_COLUMN, description: 'With q: the full-text indexed column.' }),
      }),
      output: countOutput,
      run: async (ctx, args) => {
        const db = databaseOf(ctx, args.db);
        const filtered = (p: ParamsBuilder) =>
          p.filters(args.filters).set('lang', args.lang).set('limit', 0).set('count', true);
        const params = { table: args.table };
        const { body } =
          args.q === undefined
            ? await runOperation(ctx, listRecordsOperation, db, { params, query: filtered })
            : await runOperation(ctx, searchOperation, db, {
                params,
                query: (p) => filtered(p.set('q', args.q).set('column', args.column)),
              });
        const total = body.pagination.total ?? 0;
        const what = args.q === undefined ? 'match' : `match "${args.q}"`;
        return {
          structured: { db, table: args.table, total },
          summary: `${total} row(s) of ${args.table} ${what}.`,
        };
      },
    }),
    operationTool({
      name: 'get_facets',
      title: 'Count the values of columns',
      description:
        'Returns, for each of up to 10 indexed columns, its distinct values with the number of matching rows, most frequent first (top limit values; truncated when more exist), under the same filters and lang as search_records. Use it to see what values a column takes (places, years, languages) before filtering on them. get_schema lists the columns; only indexed ones can be counted (an error names them).',
      input: toolInput({
        db: dbArg,
        table: tableArg,
        columns: z
          .array(z.string())
          .min(1)
          .max(BOUNDS.facets.maxColumns)
          .describe('Indexed columns to count values of.'),
        filters: filtersArg,
        lang: langArg,
        limit: integerArg('Values per column, most frequent first.', BOUNDS.facets.limit),
      }),
      output: facetsOutput,
      operation: facetsOperation,
      call: (args) => ({
        params: { table: args.table },
        query: (p) =>
          p
            .list('columns', args.columns)
            .filters(args.filters)
            .set('lang', args.lang)
            .set('limit', args.limit),
      }),
      answer: ({ body }, args, db) => ({
        structured: { db, table: args.table, data: body.data },
        summary: body.data
          .map((f) => `${f.column}: ${f.values.length}${f.truncated ? '+' : ''} value(s)`)
          .join('; '),
      }),
    }),
    operationTool({
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
      operation: searchOperation,
      call: (args) => ({
        params: { table: args.table },
        query: (p) =>
          p
            .set('q', args.q)
            .set('column', args.column)
            .set('lang', args.lang)
            .list('fields', args.fields)
            .filters(args.filters)
            .set('limit', args.limit)
            .set('offset', args.offset)
            .set('count', args.count)
            .relations(args.relations),
      }),
      answer: (answer, args, db) => ({
        structured: {
          db,
          table: args.table,
          data: rowObjects(answer.body.data),
          pagination: paginationOf(answer),
        },
        summary: pageSummary(`matching rows of ${args.table}`, answer),
      }),
    }),
  ];
}
