/**
 * Audiovisual fragments of one transcribed record: the text fragments of its transcription
 * (config AV_TRANSCRIPTION_COLUMN), each with the media window of its match (video URL with
 * vbegin/vend, poster image) and the speakers of the excerpt.
 *
 * One recording, one language variant: the variants of a transcription are translations of the
 * same passages over the same timecodes, so reading them all would return each passage once per
 * language. Without `lang`, the variant read is the first, in lang order, in which a term occurs
 * (each fragment names it in `lang`); with `lang`, that one.
 */
import type { Row, TableInfo } from '../db/types.js';
import { ValidationError } from '../problems.js';
import type { FragmentsRequest } from '../query/fragment-requests.js';
import { speakersIn } from '../text/speakers.js';
import { buildTimeline, type Timeline, timecodesAt } from '../text/timecodes.js';
import { type AvMedia, avRecordColumns, durationOf, findMediaAsset, mediaOf } from './av-media.js';
import { findInformants, mergeSpeakers, type Speaker } from './av-speakers.js';
import { requireTable } from './catalog-service.js';
import type { PublicationContext } from './context.js';
import {
  fragmentsOfVariants,
  type VariantFragment,
  type VariantText,
  variantTexts,
} from './fragments-service.js';
import { readRecordVariants } from './record-variants.js';
import { readSectionTables } from './section-tables.js';

export interface AvFragment {
  transcription: string;
  media: AvMedia;
  speakers: Speaker[];
  /** Extension: offset of the match in the stored transcription. */
  position: number;
  /** Extension: page of the last page marker before the match. */
  page?: number;
  /** Extension: the language variant the fragment comes from (multilingual tables). */
  lang?: string;
}

/** The table must hold the configured transcription column as text; the route is meaningless otherwise. */
export function requireTranscriptionColumn(ctx: PublicationContext, table: TableInfo): string {
  const column = ctx.config.av.transcriptionColumn;
  if (table.columnsByName.get(column)?.kind !== 'text') {
    throw new ValidationError([
      {
        name: 'table',
        in: 'path',
        detail: `table "${table.name}" has no text column "${column}" (AV_TRANSCRIPTION_COLUMN), so it has no audiovisual fragments`,
      },
    ]);
  }
  return column;
}

/** The fragments of the first variant row (in the given order) that has any; later rows are not analysed. */
function fragmentsOfOneVariant(
  rows: readonly Row[],
  column: string,
  terms: FragmentsRequest['matchTerms'],
  options: { maxCharacters: number; maxOccurrences: number },
): VariantFragment[] {
  for (const row of rows) {
    const found = fragmentsOfVariants(variantTexts([row], column), terms, options);
    if (found.length > 0) return found;
  }
  return [];
}

export async function avFragments(
  ctx: PublicationContext,
  db: string,
  tableName: string,
  id: number,
  req: FragmentsRequest,
): Promise<AvFragment[]> {
  const table = await requireTable(ctx, db, tableName);
  const column = requireTranscriptionColumn(ctx, table);
  const rows = await readRecordVariants(ctx, db, table, id, [column, ...avRecordColumns(ctx)], req.lang);
  const found = fragmentsOfOneVariant(rows, column, req.matchTerms, req);
  if (found.length === 0) return [];
  const record = found[0]!.variant.row;
  const [asset, informants, sectionTables] = await Promise.all([
    findMediaAsset(ctx, db, record, id),
    findInformants(ctx, db, record),
    readSectionTables(ctx, db),
  ]);
  const timelines = new Map<VariantText, Timeline>();
  return found.map(({ variant, fragment }) => {
    let timeline = timelines.get(variant);
    if (!timeline) {
      timeline = buildTimeline(variant.text.tags, variant.text.plain, durationOf(asset, variant.row));
      timelines.set(variant, timeline);
    }
    const window = timecodesAt(timeline, fragment.position);
    const passageSpeakers = speakersIn(variant.text.tags, fragment.passage.start, fragment.passage.end);
    const item: AvFragment = {
      transcription: fragment.text,
      media: mediaOf(asset, window.tcIn, window.tcOut, ctx.config.mediaBaseUrl),
      speakers: mergeSpeakers(informants, passageSpeakers, sectionTables, ctx.config.av.speakerTable),
      position: fragment.position,
    };
    if (fragment.page !== undefined) item.page = fragment.page;
    if (variant.lang !== undefined) item.lang = variant.lang;
    return item;
  });
}
