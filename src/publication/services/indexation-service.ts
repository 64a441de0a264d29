/**
 * av-indexation-fragment: the passage of a transcription that an indexation locator points at,
 * with its media window, speakers and the thesaurus terms indexing it.
 *
 * The record comes from `section_id` in the table `section_tipo` maps to (publication_schema's
 * dd_relations), by default AV_TABLE. The passage is the text between `[index-*-<tag_id>]` and
 * its closing tag when tag_id is given and found; otherwise the timed segments overlapping
 * tc_in..tc_out when either is given (a missing tc_in is 0, a missing tc_out the end); otherwise
 * the whole transcription. Without `lang` the first language variant (by lang) that holds the
 * tag is read.
 */
import type { TableInfo } from '../db/types.js';
import { invalidQuery, notFound, ProblemError } from '../problems.js';
import type { IndexationRequest } from '../query/fragment-requests.js';
import { escapeHtml } from '../text/highlight.js';
import { indexPassage, type Passage, timecodePassage } from '../text/passages.js';
import { plainSlice } from '../text/plain-text.js';
import { speakersIn } from '../text/speakers.js';
import { buildTimeline, timecodesOfSpan } from '../text/timecodes.js';
import { type AvMedia, avRecordColumns, durationOf, findMediaAsset, mediaOf } from './av-media.js';
import { requireTranscriptionColumn } from './av-service.js';
import { findInformants, mergeSpeakers, type Speaker } from './av-speakers.js';
import { requireDatabase, requireTable } from './catalog-service.js';
import type { PublicationContext } from './context.js';
import { type VariantText, variantTexts } from './fragments-service.js';
import { readRecordVariants } from './record-variants.js';
import { readSectionTables, tiposOfTable } from './section-tables.js';
import { type IndexingTerm, indexingTerms } from './thesaurus-terms.js';

export type PassageKind = 'index' | 'timecodes' | 'whole';

export interface IndexationFragment {
  locator: { section_id: number; tag_id: number | null; tc_in: number; tc_out: number };
  transcription: string;
  media: AvMedia;
  speakers: Speaker[];
  terms: IndexingTerm[];
}

export interface IndexationAnswer {
  data: IndexationFragment;
  /** How the passage was chosen, and from which variant. */
  passage: PassageKind;
  lang?: string;
  /** The thesaurus scan hit its bound; `terms` may be incomplete. */
  termsTruncated: boolean;
}

async function sourceTable(
  ctx: PublicationContext,
  db: string,
  req: IndexationRequest,
  sectionTables: ReadonlyMap<string, string>,
): Promise<{ table: TableInfo; column: string }> {
  if (req.sectionTipo === undefined) {
    const table = await requireTable(ctx, db, ctx.config.av.table);
    try {
      return { table, column: requireTranscriptionColumn(ctx, table) };
    } catch {
      throw notFound(`the audiovisual table "${table.name}" (AV_TABLE) has no transcription column`);
    }
  }
  const name = sectionTables.get(req.sectionTipo);
  const table = name === undefined ? undefined : (await ctx.schemas.get(db)).tables.get(name);
  if (!table) {
    const known = [...sectionTables.keys()].join(', ');
    throw invalidQuery(
      'section_tipo',
      name === undefined
        ? `section_tipo "${req.sectionTipo}" is not in publication_schema's dd_relations map${known ? ` (known: ${known})` : ''}`
        : `section_tipo "${req.sectionTipo}" maps to table "${name}", which is not published in "${db}"`,
    );
  }
  try {
    return { table, column: requireTranscriptionColumn(ctx, table) };
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err;
    throw invalidQuery(
      'section_tipo',
      `section_tipo "${req.sectionTipo}" maps to table "${table.name}", which has no transcription column "${ctx.config.av.transcriptionColumn}"`,
    );
  }
}

function choosePassage(
  variant: VariantText,
  req: IndexationRequest,
  timeline: ReturnType<typeof buildTimeline>,
) {
  const length = variant.text.stored.length;
  if (req.tagId !== undefined) {
    const p = indexPassage(variant.text.tags, req.tagId, length);
    if (p) return { kind: 'index' as const, passage: p };
  }
  if (req.tcIn !== undefined || req.tcOut !== undefined) {
    const p = timecodePassage(timeline, req.tcIn ?? 0, req.tcOut ?? Number.POSITIVE_INFINITY);
    if (p) return { kind: 'timecodes' as const, passage: p };
  }
  return { kind: 'whole' as const, passage: { start: 0, end: length } satisfies Passage };
}

function hasIndexTag(variant: VariantText, tagId: number): boolean {
  return variant.text.tags.some((t) => t.kind === 'index-open' && t.tagId === tagId);
}

export async function indexationFragment(
  ctx: PublicationContext,
  db: string,
  req: IndexationRequest,
): Promise<IndexationAnswer> {
  requireDatabase(ctx, db);
  const sectionTables = await readSectionTables(ctx, db);
  const { table, column } = await sourceTable(ctx, db, req, sectionTables);
  // `lang` also picks the thesaurus language, so it is no error on a monolingual record table.
  const lang = table.hasLang ? req.lang : undefined;
  const rows = await readRecordVariants(
    ctx,
    db,
    table,
    req.sectionId,
    [column, ...avRecordColumns(ctx)],
    lang,
  );
  const variants = variantTexts(rows, column);
  const variant =
    (req.tagId !== undefined ? variants.find((v) => hasIndexTag(v, req.tagId!)) : undefined) ??
    variants.find((v) => v.text.plain.text !== '') ??
    variants[0]!;
  const tipos = req.sectionTipo !== undefined ? [req.sectionTipo] : tiposOfTable(sectionTables, table.name);
  const [asset, informants, found] = await Promise.all([
    findMediaAsset(ctx, db, variant.row, req.sectionId),
    findInformants(ctx, db, variant.row),
    indexingTerms(
      ctx,
      db,
      { sectionId: req.sectionId, sectionTipos: tipos, tagId: req.tagId, componentTipo: req.componentTipo },
      req.lang,
    ),
  ]);
  const timeline = buildTimeline(variant.text.tags, variant.text.plain, durationOf(asset, variant.row));
  const { kind, passage } = choosePassage(variant, req, timeline);
  const window = timecodesOfSpan(timeline, passage.start, passage.end);
  const passageSpeakers = speakersIn(variant.text.tags, passage.start, passage.end);
  const answer: IndexationAnswer = {
    data: {
      locator: {
        section_id: req.sectionId,
        tag_id: req.tagId ?? null,
        tc_in: window.tcIn,
        tc_out: window.tcOut,
      },
      transcription: escapeHtml(plainSlice(variant.text.plain, passage.start, passage.end)),
      media: mediaOf(asset, window.tcIn, window.tcOut, ctx.config.mediaBaseUrl),
      speakers: mergeSpeakers(informants, passageSpeakers, sectionTables, ctx.config.av.speakerTable),
      terms: found.terms,
    },
    passage: kind,
    termsTruncated: found.truncated,
  };
  if (variant.lang !== undefined) answer.lang = variant.lang;
  return answer;
}
