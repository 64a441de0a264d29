/**
 * How a cell is shown: empty, text, links to related records, JSON, a highlighted excerpt or a
 * rendered transcription. Relation cells are recognised the way relations-service reads them: a
 * column named after a table of the same database whose cell lists section ids (`["12","7"]`,
 * `[3]`), or link cells `{"table","section_id"}`; each id becomes a link to that record's page.
 */
import type { DatabaseSchema, TableInfo } from '../db/types.js';
import { highlight } from '../text/highlight.js';
import { toPlainText } from '../text/plain-text.js';
import type { MatchTerm } from '../text/term-matching.js';
import { renderTranscript, type TranscriptPiece } from './transcription.js';

export type CellView =
  | { kind: 'null' }
  | { kind: 'text'; text: string; long?: boolean }
  | { kind: 'links'; links: { label: string; href: string }[]; long?: boolean }
  | { kind: 'json'; text: string; long?: boolean }
  | { kind: 'html'; html: string; long?: boolean; wide?: boolean }
  | { kind: 'transcript'; paragraphs: TranscriptPiece[][]; long?: boolean };

const LIST_TEXT_MAX = 90;
const MAX_LINKS = 50;

function relationLinks(
  value: unknown,
  column: string,
  schema: DatabaseSchema,
  recordHref: (table: string, id: number) => string,
): { label: string; href: string }[] | undefined {
  const target = schema.tables.get(column);
  const items = Array.isArray(value) ? value : [value];
  const links: { label: string; href: string }[] = [];
  for (const item of items.slice(0, MAX_LINKS)) {
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      const { table, section_id } = item as { table?: unknown; section_id?: unknown };
      const id = Number(section_id);
      if (typeof table !== 'string' || !schema.tables.has(table) || !Number.isSafeInteger(id) || id < 1)
        return undefined;
      links.push({ label: `${table} ${id}`, href: recordHref(table, id) });
      continue;
    }
    const id =
      typeof item === 'number'
        ? item
        : typeof item === 'string' && /^\d{1,15}$/.test(item)
          ? Number(item)
          : NaN;
    if (!target?.columnsByName.has('section_id') || !Number.isSafeInteger(id) || id < 1) return undefined;
    links.push({ label: `${column} ${id}`, href: recordHref(column, id) });
  }
  return links.length > 0 ? links : undefined;
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

export interface CellContext {
  table: TableInfo;
  schema: DatabaseSchema;
  recordHref: (table: string, id: number) => string;
  /**
   * Columns holding text in the tag grammar (full-text indexed columns and the transcription
   * column): their tags are read, not shown. Any other cell is shown exactly as stored.
   */
  textColumns: ReadonlySet<string>;
  terms: readonly MatchTerm[];
}

/** A cell in a table row: short, one line of plain text, relations as links. */
export function listCell(value: unknown, column: string, c: CellContext): CellView {
  if (value === null || value === undefined || value === '') return { kind: 'null' };
  const links = column !== c.table.name ? relationLinks(value, column, c.schema, c.recordHref) : undefined;
  if (links) return { kind: 'links', links };
  if (typeof value === 'object')
    return { kind: 'json', text: shorten(JSON.stringify(value), LIST_TEXT_MAX), long: true };
  const text = String(value);
  const plain = c.textColumns.has(column) && typeof value === 'string' ? toPlainText(text).text : text;
  return { kind: 'text', text: shorten(plain, LIST_TEXT_MAX), long: plain.length > 30 };
}

/** A cell on the record page: in full; transcriptions rendered, relations as links. */
export function recordCell(value: unknown, column: string, c: CellContext): CellView {
  if (value === null || value === undefined || value === '') return { kind: 'null' };
  const links = relationLinks(value, column, c.schema, c.recordHref);
  if (links) return { kind: 'links', links };
  if (typeof value === 'object') return { kind: 'json', text: JSON.stringify(value, null, 2) };
  if (typeof value === 'string' && c.textColumns.has(column)) {
    return { kind: 'transcript', paragraphs: renderTranscript(value, c.terms) };
  }
  if (typeof value === 'string' && c.terms.length > 0)
    return { kind: 'html', html: highlight(value, c.terms) };
  return { kind: 'text', text: String(value) };
}
