/**
 * One v1 "audiovisual record" read once and analysed: its row (one language, in the table the
 * database's shape names: av-shape.ts), the tagged transcription, its media, its interview, the
 * time line, and the fragment of any index tag computed from them without further statements
 * (docs/publication-v1.md). Shared by every v1 audiovisual action and the subtitles.
 */
import type { Row, TableInfo } from '../../db/types.js';
import {
  durationOf,
  findMediaAsset,
  type MediaAsset,
  mediaUrl,
  withTimeWindow,
} from '../../services/av-media.js';
import { requireTranscriptionColumn } from '../../services/av-service.js';
import type { PublicationContext } from '../../services/context.js';
import { type AnalysedText, analyseText } from '../../text/fragments.js';
import { escapeHtml } from '../../text/highlight.js';
import { indexPassage } from '../../text/passages.js';
import { plainSlice } from '../../text/plain-text.js';
import { buildTimeline, type Timeline, type TimeWindow } from '../../text/timecodes.js';
import {
  avShapeOf,
  DEDALO_AV_RELATION_COLUMN,
  dedaloDuration,
  dedaloVideo,
  posterframeOf,
  relationIdsOf,
  type V1AvShape,
} from '../av-shape.js';
import { maskText, restrictedTags } from '../restricted.js';
import { v1FragmentWindow } from '../tc-estimate.js';
import { optString, recordRow, tableOf, type V1Call } from '../v1-call.js';
import { V1Error } from '../v1-errors.js';

/** The subtitles URL of a record and window (docs/publication-v1.md); empty or zero bounds are left out. */
export function subtitlesUrl(
  call: V1Call,
  id: number | string,
  lang: string,
  tcIn?: number,
  tcOut?: number,
): string {
  let url = `${call.v1.subtitlesUrlBase}?section_id=${id}&lang=${lang}`;
  if (tcIn) url += `&tc_in=${Math.floor(tcIn)}`;
  if (tcOut) url += `&tc_out=${Math.ceil(tcOut)}`;
  return url;
}

/** The interview a record belongs to: in the configured shape the record itself. */
export interface AvInterview {
  table: TableInfo;
  row: Row;
}

export interface AvRecord {
  id: number;
  lang: string;
  shape: V1AvShape;
  table: TableInfo;
  column: string;
  row: Row;
  text: AnalysedText;
  asset?: MediaAsset;
  video: string | null;
  /** The poster of the record (posterframe_url, image_url). */
  image: string | null;
  /** The poster of an index tag (posterframe_tag_url): Dédalo's `_<tag_id>` frame, else the record's. */
  tagImage(tagId: number): string | null;
  interview?: AvInterview;
  duration?: number;
  timeline: Timeline;
  /** Fragments of the restricted passages (docs/publication-v1.md), null when no restricted term is set. */
  restricted: Record<string, unknown>[] | null;
}

export async function loadAvRecord(
  call: V1Call,
  id: number,
  lang: string,
  restrictedMap?: Map<string, number[]>,
): Promise<AvRecord | undefined> {
  const shape = await avShapeOf(call.ctx, call.db);
  const table = await tableOf(call, shape.table);
  const column = shape.kind === 'dedalo' ? shape.column : requireTranscriptionColumn(call.ctx, table);
  const row = await recordRow(call, table, id, lang);
  if (!row) return undefined;
  const { asset, video, image, tagImage, duration, interview } = await recordMedia(
    call,
    shape,
    table,
    row,
    id,
    lang,
  );
  const stored = typeof row[column] === 'string' ? (row[column] as string) : '';
  const tags = call.v1.termIdRestricted
    ? ((restrictedMap ?? (await restrictedTags(call, lang))).get(String(id)) ?? [])
    : [];
  const text = analyseText(maskText(stored, tags).text);
  const record: AvRecord = {
    id,
    lang,
    shape,
    table,
    column,
    row,
    text,
    asset,
    video,
    image,
    tagImage,
    interview,
    duration,
    timeline: buildTimeline(text.tags, text.plain, duration),
    restricted: call.v1.termIdRestricted ? [] : null,
  };
  if (tags.length > 0) {
    const original = analyseText(stored);
    const unmasked = {
      ...record,
      text: original,
      timeline: buildTimeline(original.tags, original.plain, duration),
    };
    record.restricted = tags
      .map((t) => fragmentOf(call, unmasked, t))
      .filter((f): f is Record<string, unknown> => f !== null);
    for (const f of record.restricted) delete f.fragm;
  }
  return record;
}

export interface RecordMedia {
  asset?: MediaAsset;
  video: string | null;
  image: string | null;
  tagImage(tagId: number): string | null;
  duration?: number;
  interview?: AvInterview;
}

/** The media, duration and interview of record `id` (its `row` of `table`), by the database's shape. */
export async function recordMedia(
  call: V1Call,
  shape: V1AvShape,
  table: TableInfo,
  row: Row,
  id: number,
  lang: string,
): Promise<RecordMedia> {
  const base = call.ctx.config.mediaBaseUrl;
  if (shape.kind === 'dedalo') {
    const video = dedaloVideo(row, id, base);
    return {
      video,
      image: posterframeOf(video),
      tagImage: (tagId) => posterframeOf(video, tagId),
      duration: dedaloDuration(row.duration),
      interview: await interviewOf(call, shape, id, lang),
    };
  }
  const asset = await findMediaAsset(call.ctx, call.db, row, id);
  const image = mediaUrl(asset?.image, base);
  return {
    asset,
    video: mediaUrl(asset?.video, base),
    image,
    tagImage: () => image,
    duration: durationOf(asset, row),
    interview: { table, row },
  };
}

/**
 * Dédalo shape: the interview row (in `lang`) whose `audiovisual` column lists record `id`.
 * The LIKE narrows the rows; the cell is then parsed, never pattern-matched.
 */
export async function interviewOf(
  call: V1Call | { ctx: PublicationContext; db: string },
  shape: V1AvShape,
  id: number,
  lang: string,
): Promise<AvInterview | undefined> {
  const table = shape.interview;
  if (!table) return undefined;
  // The id as a JSON list item, quoted or not: `"7"`, `[7]`, `[7,`, `,7,`, `,7]`.
  const patterns = [`%"${id}"%`, `%[${id}]%`, `%[${id},%`, `%,${id},%`, `%,${id}]%`];
  const rows = await call.ctx.driver.select(call.db, {
    table: table.name,
    columns: table.columns.map((c) => c.name),
    where: table.hasLang ? [{ column: 'lang', op: 'eq', value: lang }] : [],
    filter: {
      kind: 'or',
      items: patterns.map((p) => ({
        kind: 'compare' as const,
        op: 'LIKE' as const,
        left: { kind: 'column' as const, name: DEDALO_AV_RELATION_COLUMN },
        right: { kind: 'literal' as const, value: p },
      })),
    },
    orderBy: [{ column: 'section_id', desc: false }],
    limit: 20,
  });
  const row = rows.find((r) => relationIdsOf(r[DEDALO_AV_RELATION_COLUMN]).includes(String(id)));
  return row ? { table, row } : undefined;
}

/** The index tag ids of a transcription, in text order. */
export function indexTagIds(record: AvRecord): number[] {
  const ids: number[] = [];
  for (const t of record.text.tags) if (t.kind === 'index-open' && !ids.includes(t.tagId)) ids.push(t.tagId);
  return ids;
}

/** Seconds of an optional margin option (`margin_seconds_in`, `margin_seconds_out`); 0 when absent. */
function marginOf(call: V1Call, name: string): number {
  const raw = optString(call.options, name);
  if (raw === undefined || raw.trim() === '') return 0;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 86_400) throw new V1Error(`Error. Illegal ${name}: ${raw}`);
  return n;
}

/** The window widened by the call's margins (docs/publication-v1.md); the start never below 0. */
function widened(call: V1Call, window: TimeWindow): TimeWindow {
  const before = marginOf(call, 'margin_seconds_in');
  const after = marginOf(call, 'margin_seconds_out');
  if (before === 0 && after === 0) return window;
  return { tcIn: Math.max(0, window.tcIn - before), tcOut: window.tcOut + after };
}

/** The fragment object of index tag `tagId`, or null when the tag is not in the text. */
export function fragmentOf(
  call: V1Call,
  record: AvRecord,
  tagId: number,
  video = record.video,
): Record<string, unknown> | null {
  const passage = indexPassage(record.text.tags, tagId, record.text.stored.length);
  if (!passage) return null;
  const window = widened(call, v1FragmentWindow(record.timeline, passage.start, passage.end));
  return {
    tag_id: String(tagId),
    tcin_secs: window.tcIn,
    tcout_secs: window.tcOut,
    video_url:
      video === null ? null : withTimeWindow(video, Math.floor(window.tcIn), Math.ceil(window.tcOut)),
    posterframe_url: record.image,
    posterframe_tag_url: record.tagImage(tagId),
    subtitles_url: subtitlesUrl(call, record.id, record.lang, window.tcIn, window.tcOut),
    fragm: escapeHtml(plainSlice(record.text.plain, passage.start, passage.end)),
  };
}

/** The whole transcription as plain text (marks deleted). */
export function wholeText(record: AvRecord): string {
  return escapeHtml(record.text.plain.text);
}
