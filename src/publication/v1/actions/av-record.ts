/**
 * One v1 "audiovisual record" read once and analysed: its row (AV_TABLE, one language), the
 * tagged transcription, the media asset, the time line, and the fragment of any index tag
 * computed from them without further statements (docs/publication-v1.md). Shared by
 * reel_fragments_of_type, full_reel, thesaurus_indexation_node and thesaurus_video_view_data.
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
import { type AnalysedText, analyseText } from '../../text/fragments.js';
import { escapeHtml } from '../../text/highlight.js';
import { indexPassage } from '../../text/passages.js';
import { plainSlice } from '../../text/plain-text.js';
import { buildTimeline, type Timeline, timecodesOfSpan } from '../../text/timecodes.js';
import { maskText, restrictedTags } from '../restricted.js';
import { recordRow, tableOf, type V1Call } from '../v1-call.js';

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

export interface AvRecord {
  id: number;
  lang: string;
  table: TableInfo;
  column: string;
  row: Row;
  text: AnalysedText;
  asset?: MediaAsset;
  video: string | null;
  image: string | null;
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
  const table = await tableOf(call, call.ctx.config.av.table);
  const column = requireTranscriptionColumn(call.ctx, table);
  const row = await recordRow(call, table, id, lang);
  if (!row) return undefined;
  const asset = await findMediaAsset(call.ctx, call.db, row, id);
  const stored = typeof row[column] === 'string' ? (row[column] as string) : '';
  const tags = call.v1.termIdRestricted
    ? ((restrictedMap ?? (await restrictedTags(call, lang))).get(String(id)) ?? [])
    : [];
  const text = analyseText(maskText(stored, tags).text);
  const base = call.ctx.config.mediaBaseUrl;
  const record: AvRecord = {
    id,
    lang,
    table,
    column,
    row,
    text,
    asset,
    video: mediaUrl(asset?.video, base),
    image: mediaUrl(asset?.image, base),
    timeline: buildTimeline(text.tags, text.plain, durationOf(asset, row)),
    restricted: call.v1.termIdRestricted ? [] : null,
  };
  if (tags.length > 0) {
    const original = analyseText(stored);
    const unmasked = {
      ...record,
      text: original,
      timeline: buildTimeline(original.tags, original.plain, durationOf(asset, row)),
    };
    record.restricted = tags
      .map((t) => fragmentOf(call, unmasked, t))
      .filter((f): f is Record<string, unknown> => f !== null);
    for (const f of record.restricted) delete f.fragm;
  }
  return record;
}

/** The index tag ids of a transcription, in text order. */
export function indexTagIds(record: AvRecord): number[] {
  const ids: number[] = [];
  for (const t of record.text.tags) if (t.kind === 'index-open' && !ids.includes(t.tagId)) ids.push(t.tagId);
  return ids;
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
  const window = timecodesOfSpan(record.timeline, passage.start, passage.end);
  return {
    tag_id: String(tagId),
    tcin_secs: window.tcIn,
    tcout_secs: window.tcOut,
    video_url:
      video === null ? null : withTimeWindow(video, Math.floor(window.tcIn), Math.ceil(window.tcOut)),
    posterframe_url: record.image,
    posterframe_tag_url: record.image,
    subtitles_url: subtitlesUrl(call, record.id, record.lang, window.tcIn, window.tcOut),
    fragm: escapeHtml(plainSlice(record.text.plain, passage.start, passage.end)),
  };
}

/** The whole transcription as plain text (marks deleted). */
export function wholeText(record: AvRecord): string {
  return escapeHtml(record.text.plain.text);
}
