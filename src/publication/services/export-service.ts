/**
 * Exports: every row of a records list or a search, read in chunks through the same services
 * that serve the JSON pages (listRecords, searchRecords: same filters, sort, fields, languages,
 * relations, decoding), so an export holds one chunk in memory whatever its size.
 *
 * A records export whose order starts with `section_id` (the default order) reads by key:
 * each chunk asks for `section_id >= last` and skips the rows already sent with that same
 * `section_id` (its language variants), so a chunk costs the same at the end of a 100k-row
 * table as at the start. Any other order reads chunk after chunk by offset.
 *
 * Each chunk runs in a context of its own (`chunkContext`): a fresh statement budget and deadline,
 * as one JSON page would have, so a long export is bounded per chunk rather than refused for
 * being long; its length is bounded by the row limit instead.
 */
import type { Condition, Row } from '../db/types.js';
import type { RecordListRequest } from '../query/record-requests.js';
import type { SearchRequest } from '../query/search-request.js';
import { withStableOrder } from '../query/sort-and-fields.js';
import { requireTable } from './catalog-service.js';
import type { PublicationContext } from './context.js';
import { listRecords } from './records-service.js';
import { searchRecords } from './search-service.js';

/** Rows per read: small enough that a chunk of long transcriptions stays a few MB. */
export const EXPORT_CHUNK_ROWS = 200;

export interface ExportSource {
  /** The header: the columns every row is written with, in order. */
  columns: string[];
  rows: AsyncIterable<Row>;
}

/** Where an export starts and how many rows it may send at most. */
export interface ExportWindow {
  offset: number;
  maxRows: number;
  /** Rows per read; EXPORT_CHUNK_ROWS unless a test wants chunk edges to fall everywhere. */
  chunkRows?: number;
}

export async function exportRecords(
  chunkContext: () => PublicationContext,
  db: string,
  tableName: string,
  req: RecordListRequest,
  window: ExportWindow,
): Promise<ExportSource> {
  const table = await requireTable(chunkContext(), db, tableName);
  const columns = req.fields ?? table.columns.map((c) => c.name);
  const order = withStableOrder(req.sort, table);
  const byKey = order[0]?.column === 'section_id' ? order[0] : undefined;
  // Reading by key needs the key of each row, even when `fields` left it out (the writers only
  // write `columns`).
  const fields =
    byKey && req.fields && !req.fields.includes('section_id') ? [...req.fields, 'section_id'] : req.fields;
  const chunkRows = window.chunkRows ?? EXPORT_CHUNK_ROWS;

  async function* rows(): AsyncGenerator<Row> {
    let sent = 0;
    let offset = window.offset;
    let keyFrom: { column: string; op: 'gte' | 'lte'; value: number } | undefined;
    while (sent < window.maxRows) {
      const limit = Math.min(chunkRows, window.maxRows - sent);
      const where: Condition[] = keyFrom ? [...req.where, keyFrom] : req.where;
      const page = await listRecords(chunkContext(), db, table.name, {
        ...req,
        fields,
        where,
        limit,
        offset,
        count: false,
      });
      for (const row of page.rows) yield row;
      sent += page.rows.length;
      if (!page.hasMore || page.rows.length === 0) return;
      if (byKey) {
        // Continue from the last key; skip the rows of that key already sent.
        const lastRow = page.rows[page.rows.length - 1]!;
        const lastKey = lastRow.section_id as number;
        const prior = keyFrom?.value === lastKey ? offset : 0;
        offset = prior + page.rows.filter((r) => r.section_id === lastKey).length;
        keyFrom = { column: 'section_id', op: byKey.desc ? 'lte' : 'gte', value: lastKey };
      } else {
        offset += page.rows.length;
      }
    }
  }
  return { columns, rows: rows() };
}

export async function exportSearch(
  chunkContext: () => PublicationContext,
  db: string,
  tableName: string,
  req: SearchRequest,
  window: ExportWindow,
): Promise<ExportSource> {
  const table = await requireTable(chunkContext(), db, tableName);
  const columns = [...(req.fields ?? table.columns.map((c) => c.name)), 'relevance', 'fragments'];

  async function* rows(): AsyncGenerator<Row> {
    let sent = 0;
    let offset = window.offset;
    while (sent < window.maxRows) {
      const limit = Math.min(window.chunkRows ?? EXPORT_CHUNK_ROWS, window.maxRows - sent);
      const page = await searchRecords(chunkContext(), db, table.name, {
        ...req,
        limit,
        offset,
        count: false,
      });
      for (const row of page.rows) yield row;
      sent += page.rows.length;
      if (!page.hasMore || page.rows.length === 0) return;
      offset += page.rows.length;
    }
  }
  return { columns, rows: rows() };
}
