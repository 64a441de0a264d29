/**
 * Exports: every row of a records list or a search, read in chunks through the same services
 * that serve the JSON pages (listRecords, searchRecords: same filters, sort, fields, languages,
 * relations, decoding), so an export holds one chunk in memory whatever its size.
 *
 * A records export from the start reads by key on its first sort column (`section_id` in the
 * default order): each chunk asks for `column >= last` (`<=` descending) and skips the rows with
 * that same value already sent (a record's other language variants, a tie), so a chunk costs the
 * same at the end of a 100k-row table as at the start. Rows where that column is NULL are read
 * by offset as a segment of their own, and so is an export from an `offset` or on a column
 * whose equality cannot be decided here (MariaDB text collations).
 *
 * Each chunk runs in a context of its own (`chunkContext`): a fresh statement budget and deadline,
 * as one JSON page would have, so a long export is bounded per chunk rather than refused for
 * being long; its length is bounded by the row limit instead.
 */
import { rowObjects } from '../db/raw-json.js';
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
  const ctx = chunkContext();
  const table = await requireTable(ctx, db, tableName);
  const columns = req.fields ?? table.columns.map((c) => c.name);
  const order = withStableOrder(req.sort, table);
  const lead = order[0];
  const leadKind = lead ? table.columnsByName.get(lead.column)?.kind : undefined;
  // Equality of the lead value is decided here, in JavaScript: exact for numbers, dates and
  // SQLite's binary text, not for MariaDB's case-insensitive text collations.
  const keyed =
    lead !== undefined &&
    window.offset === 0 &&
    (leadKind === 'integer' ||
      leadKind === 'number' ||
      leadKind === 'other' ||
      (leadKind === 'text' && ctx.driver.engine === 'sqlite'));
  // Reading by key needs each row's lead value, even when `fields` left it out (the writers
  // only write `columns`).
  const fields =
    keyed && req.fields && !req.fields.includes(lead.column) ? [...req.fields, lead.column] : req.fields;
  const chunkRows = window.chunkRows ?? EXPORT_CHUNK_ROWS;

  // NULLs sort first ascending and last descending on both engines, and `>=` never matches
  // them: they are read as a segment of their own, by offset. The record key is never NULL.
  const segments: { conditions: Condition[]; keyed: boolean }[] = [];
  if (!keyed) {
    segments.push({ conditions: [], keyed: false });
  } else {
    const nullable = lead.column !== 'section_id';
    const nulls = { conditions: [{ column: lead.column, op: 'is_null' as const }], keyed: false };
    const values = {
      conditions: nullable ? [{ column: lead.column, op: 'is_not_null' as const }] : [],
      keyed: true,
    };
    if (nullable && !lead.desc) segments.push(nulls);
    segments.push(values);
    if (nullable && lead.desc) segments.push(nulls);
  }

  async function* rows(): AsyncGenerator<Row> {
    let sent = 0;
    for (const segment of segments) {
      // Only an export that is not read by key starts at the client's offset (see `keyed`).
      const start = keyed ? 0 : window.offset;
      let offset = start;
      let inSegment = 0;
      let byKey = segment.keyed;
      let keyFrom: { column: string; op: 'gte' | 'lte'; value: string | number } | undefined;
      while (sent < window.maxRows) {
        const limit = Math.min(chunkRows, window.maxRows - sent);
        const where: Condition[] = [
          ...req.where,
          ...segment.conditions,
          ...(byKey && keyFrom ? [keyFrom] : []),
        ];
        const listed = await listRecords(chunkContext(), db, table.name, {
          ...req,
          fields,
          where,
          limit,
          offset,
          count: false,
        });
        const page = { ...listed, rows: rowObjects(listed.rows) };
        for (const row of page.rows) yield row;
        sent += page.rows.length;
        inSegment += page.rows.length;
        if (!page.hasMore || page.rows.length === 0) break;
        const last = byKey ? page.rows[page.rows.length - 1]![lead!.column] : undefined;
        if (byKey && (typeof last === 'number' || typeof last === 'string')) {
          // Continue from the last value; skip the rows with that value already sent.
          const prior = keyFrom?.value === last ? offset : 0;
          offset = prior + page.rows.filter((r) => r[lead!.column] === last).length;
          keyFrom = { column: lead!.column, op: lead!.desc ? 'lte' : 'gte', value: last };
        } else {
          // By offset within the segment (also when a value cannot be compared here: a decoded
          // JSON cell, a resolved relation).
          byKey = false;
          offset = start + inSegment;
        }
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
