/**
 * How a cell is shown to a reader: empty, text, related records by name (links, pictures for
 * images), a picture or a video for a media path, a language by its name, a highlighted excerpt or
 * a rendered transcription. Relation cells are recognised the way relations-service reads them
 * (related.ts); their names were looked up before (CellContext.related). Any other cell is shown
 * as stored, as text.
 */
import type { DatabaseSchema, TableInfo } from '../db/types.js';
import type { PublicationMaps } from '../services/section-tables.js';
import { highlight } from '../text/highlight.js';
import { toPlainText } from '../text/plain-text.js';
import type { MatchTerm } from '../text/term-matching.js';
import type { Translate } from './i18n.js';
import { type RelatedRecord, relationRefs } from './related.js';
import { formatSeconds, renderTranscript, type TranscriptPiece } from './transcription.js';

export interface LinkView {
  label: string;
  href: string;
  /** The language the label is in when it is not the page's (its name). */
  fallback?: { name: string; htmlLang?: string };
}

export interface PictureView {
  src: string;
  alt: string;
  href?: string;
}

export type CellView =
  | { kind: 'null' }
  | { kind: 'text'; text: string; long?: boolean }
  | { kind: 'links'; links: LinkView[]; pictures: PictureView[]; more: number; long?: boolean }
  | { kind: 'json'; text: string; long?: boolean }
  | { kind: 'html'; html: string; long?: boolean; wide?: boolean }
  | { kind: 'picture'; picture: PictureView }
  | { kind: 'video'; src: string }
  | { kind: 'transcript'; paragraphs: TranscriptPiece[][]; long?: boolean; video?: string };

const LIST_TEXT_MAX = 160;
const LIST_LINKS = 6;
const LIST_PICTURES = 2;
const RECORD_LINKS = 50;
const IMAGE_PATH = /\.(jpe?g|png|gif|webp|avif|svg)$/i;
const VIDEO_PATH = /\.(mp4|m4v|webm|ogv|mov)$/i;

/**
 * Dédalo's bookkeeping of who points at a record: not a list column; on a record page shown as
 * "Appears in" when its locators lead to published records, else left out.
 */
export const INVERSE_COLUMN = 'dd_relations';
export const HIDDEN_COLUMNS = new Set([INVERSE_COLUMN]);

export interface CellContext {
  table: TableInfo;
  schema: DatabaseSchema;
  recordHref: (table: string, id: number) => string;
  /** Columns holding text in the tag grammar: their tags are read, not shown. */
  textColumns: ReadonlySet<string>;
  terms: readonly MatchTerm[];
  related: ReadonlyMap<string, RelatedRecord>;
  /** A stored media path as the URL a browser loads. */
  media: (path: string) => string | null;
  t: Translate;
  langName: (code: string) => string;
  htmlLang: (code: string) => string | undefined;
  /** The table of recordings (AV_MEDIA_TABLE): its records, unnamed, read "▶ Video". */
  mediaTable?: string;
  /** publication_schema's maps: which table a locator or a relation column points into. */
  maps?: PublicationMaps;
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

function relationView(
  value: unknown,
  column: string,
  c: CellContext,
  max: number,
  maxPictures = max,
): CellView | undefined {
  if (column === c.table.name) return undefined;
  const refs = relationRefs(value, column, c.schema, c.maps);
  if (!refs) return undefined;
  const seen = new Set<string>();
  const links: LinkView[] = [];
  const pictures: PictureView[] = [];
  for (const ref of refs) {
    const key = `${ref.table}:${ref.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const found = c.related.get(key);
    const href = c.recordHref(ref.table, ref.id);
    const tableName = c.t(`table:${ref.table}`, { defaultValue: ref.table });
    const label =
      found?.label ??
      (ref.table === c.mediaTable ? `▶ ${c.t('video')}` : c.t('recordId', { table: tableName, id: ref.id }));
    const src = found?.image ? c.media(found.image) : null;
    if (src) {
      if (pictures.length < maxPictures) pictures.push({ src, alt: found?.label ?? label, href });
      continue;
    }
    if (links.length < max)
      links.push({
        label,
        href,
        fallback: found?.fallbackLang
          ? { name: c.langName(found.fallbackLang), htmlLang: c.htmlLang(found.fallbackLang) }
          : undefined,
      });
  }
  const more = seen.size - links.length - pictures.length;
  return { kind: 'links', links, pictures, more };
}

function mediaView(value: unknown, c: CellContext, column: string): CellView | undefined {
  if (typeof value !== 'string') return undefined;
  if (IMAGE_PATH.test(value)) {
    const src = c.media(value);
    if (src)
      return { kind: 'picture', picture: { src, alt: c.t(`field:${column}`, { defaultValue: column }) } };
  }
  if (VIDEO_PATH.test(value)) {
    const src = c.media(value);
    if (src) return { kind: 'video', src };
  }
  return undefined;
}

/** Values written for people: languages by name, durations as a clock. */
function plainValue(value: unknown, column: string, c: CellContext): string {
  if (column === 'lang' && typeof value === 'string') return c.langName(value);
  if (column === 'duration' && typeof value === 'number') return formatSeconds(value);
  return String(value);
}

/** A cell in a list row: short, plain text, relations as names. */
export function listCell(value: unknown, column: string, c: CellContext): CellView {
  if (value === null || value === undefined || value === '') return { kind: 'null' };
  const relation = relationView(value, column, c, LIST_LINKS, LIST_PICTURES);
  if (relation) return relation;
  const media = mediaView(value, c, column);
  if (media) return media;
  if (typeof value === 'object')
    return { kind: 'json', text: shorten(JSON.stringify(value), LIST_TEXT_MAX), long: true };
  const text = plainValue(value, column, c);
  const plain = c.textColumns.has(column) && typeof value === 'string' ? toPlainText(text).text : text;
  if (c.terms.length > 0 && typeof value === 'string')
    return { kind: 'html', html: highlight(shorten(plain, LIST_TEXT_MAX), c.terms), long: plain.length > 30 };
  return { kind: 'text', text: shorten(plain, LIST_TEXT_MAX), long: plain.length > 30 };
}

/** A cell on the record page: in full; transcriptions rendered, relations as names and pictures. */
export function recordCell(value: unknown, column: string, c: CellContext, video?: string): CellView {
  if (value === null || value === undefined || value === '') return { kind: 'null' };
  const relation = relationView(value, column, c, RECORD_LINKS);
  if (relation) return relation;
  const media = mediaView(value, c, column);
  if (media) return media;
  if (typeof value === 'object') return { kind: 'json', text: JSON.stringify(value, null, 2) };
  if (typeof value === 'string' && c.textColumns.has(column)) {
    const paragraphs = renderTranscript(value, c.terms);
    // A title or a summary (one paragraph, no timecode): shown as text, not as a transcript.
    const only = paragraphs.length === 1 ? paragraphs[0]! : undefined;
    if (only?.length === 1 && only[0]!.kind === 'text') return { kind: 'html', html: only[0]!.html };
    if (paragraphs.length === 0) return { kind: 'null' };
    return { kind: 'transcript', paragraphs, video };
  }
  const text = plainValue(value, column, c);
  if (typeof value === 'string' && c.terms.length > 0)
    return { kind: 'html', html: highlight(text, c.terms) };
  return { kind: 'text', text };
}
