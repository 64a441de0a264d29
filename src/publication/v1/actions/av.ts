/**
 * The audiovisual actions (docs/publication-v1.md) over the v2 audiovisual services: an
 * "audiovisual record" of v1 is the record holding the transcription (AV_TABLE and
 * AV_TRANSCRIPTION_COLUMN, as the v2 routes read it), its video and poster come from the media
 * table (AV_MEDIA_TABLE) with MEDIA_BASE_URL, exactly as v2 composes them (docs/publication-v1.md: one
 * rule for every action, URLs kept relative when MEDIA_BASE_URL is).
 */

import { CANDIDATES_COLUMN, rowKeyOf } from '../../db/search-sql.js';
import type { Row } from '../../db/types.js';
import { withStableOrder } from '../../query/sort-and-fields.js';
import { withTimeWindow } from '../../services/av-media.js';
import { requireTranscriptionColumn } from '../../services/av-service.js';
import { analyseText, findFragments } from '../../text/fragments.js';
import { indexPassage } from '../../text/passages.js';
import { highlightTermsOf, parseSearchQuery } from '../../text/search-query.js';
import { buildTimeline, timecodesOfSpan } from '../../text/timecodes.js';
import { avShapeOf } from '../av-shape.js';
import { maskText, restrictedTags } from '../restricted.js';
import { parseCondition } from '../sql-subset.js';
import { thesaurusMap, thesaurusTables } from '../thesaurus-tables.js';
import { optBool, optInt, optLang, optString, tableOf, type V1Call } from '../v1-call.js';
import { V1Error } from '../v1-errors.js';
import { interviewFields, nodeImage } from './av-interview.js';
import { avRecordIds } from './av-locator.js';
import { fragmentOf, loadAvRecord, recordMedia, subtitlesUrl } from './av-record.js';

export interface IndexLocator {
  section_id?: unknown;
  section_tipo?: unknown;
  tag_id?: unknown;
  component_tipo?: unknown;
}

export function readLocator(value: unknown): IndexLocator | undefined {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  if (Array.isArray(v)) v = v[0];
  return v !== null && typeof v === 'object' ? (v as IndexLocator) : undefined;
}

export async function fragmentFromIndexLocatorAction(call: V1Call): Promise<unknown> {
  const locator = readLocator(call.options.index_locator);
  const lang = optLang(call.options) ?? call.lang;
  const id = Number(locator?.section_id);
  const tagId = Number(locator?.tag_id);
  if (!locator || !Number.isInteger(id) || id <= 0 || !Number.isInteger(tagId) || tagId < 0) {
    throw new V1Error('Error. index_locator needs section_id and tag_id');
  }
  const record = await loadAvRecord(call, id, lang);
  if (!record) return { result: null, msg: `Error. Empty audiovisual records. Not found section_id: ${id})` };
  const fragment = fragmentOf(call, record, tagId);
  if (!fragment) return { result: null, msg: 'Request done successfully' };
  delete fragment.tag_id;
  if (optBool(call.options, 'fragment_terms', false)) {
    const map = await thesaurusMap(call);
    const terms = (await termsIndexing(call, new Set([String(id)]), lang)).filter((t) =>
      t.locators.some((l) => String(l.tag_id) === String(tagId)),
    );
    fragment.terms = terms.map((t) => ({
      table: map[String(t.term_id).split('_')[0] ?? ''] ?? null,
      term_id: t.term_id,
      term: t.term,
    }));
    fragment.fragment_terms_inside = Object.fromEntries(terms.map((t) => [String(t.term_id), t.term]));
  }
  fragment.index_locator = call.options.index_locator;
  return { result: fragment, msg: 'Request done successfully' };
}

/** The terms indexing records `ids` (any table's locators with those section_ids), once each, by term. */
export async function termsIndexing(
  call: V1Call,
  ids: ReadonlySet<string>,
  lang: string,
): Promise<{ term_id: unknown; term: unknown; locators: IndexLocator[] }[]> {
  const out: { term_id: unknown; term: unknown; locators: IndexLocator[] }[] = [];
  const seen = new Set<unknown>();
  const recordIdOf = await avRecordIds(call);
  for (const name of await thesaurusTables(call)) {
    const info = await tableOf(call, name);
    if (!info.columnsByName.has('indexation')) continue;
    const rows = await call.ctx.driver.select(call.db, {
      table: info.name,
      columns: ['term_id', 'term', 'indexation'],
      where: [
        { column: 'indexation', op: 'is_not_null' },
        ...(info.hasLang ? [{ column: 'lang', op: 'eq' as const, value: lang }] : []),
        ...(call.v1.restrictedTerms.length > 0
          ? [{ column: 'term_id', op: 'not_in' as const, value: call.v1.restrictedTerms }]
          : []),
      ],
      orderBy: [{ column: 'term', desc: false }],
    });
    for (const row of rows) {
      let list: IndexLocator[] = [];
      try {
        list = JSON.parse(String(row.indexation)) as IndexLocator[];
      } catch {
        continue;
      }
      const locators = Array.isArray(list) ? list.filter((l) => l && ids.has(recordIdOf(l))) : [];
      // Upstream never removed duplicate terms (docs/publication-v1.md): each term once here.
      if (locators.length === 0 || seen.has(row.term_id)) continue;
      seen.add(row.term_id);
      out.push({ term_id: row.term_id, term: row.term, locators });
    }
  }
  return out.sort((a, b) => String(a.term).localeCompare(String(b.term)));
}

/** A search row without the ranking columns the search adds. */
function withoutSearchColumns(row: Row): Row {
  const { relevance: _r, [CANDIDATES_COLUMN]: _c, ...rest } = row;
  return rest;
}

/** `reel_terms`: the terms indexing one or more records, each with its locators on them. */
export async function reelTermsAction(call: V1Call): Promise<unknown> {
  const raw = optString(call.options, 'av_section_id') ?? '';
  if (!/^\d+(\s*,\s*\d+)*$/.test(raw.trim())) throw new V1Error(`Error. Illegal av_section_id: ${raw}`);
  const ids = new Set(raw.split(',').map((s) => s.trim()));
  return { result: await termsIndexing(call, ids, optLang(call.options) ?? call.lang) };
}

/** `free_search`: full-text search in the transcriptions, a page of records with fragments. */
export async function freeSearchAction(call: V1Call): Promise<unknown> {
  const { options, ctx, db } = call;
  let q = optString(options, 'q') ?? '';
  if (q.trim() === '') throw new V1Error('Error. Request free_search failed. Empty q');
  if (optBool(options, 'is_literal', false)) q = `"${q.replaceAll('"', ' ')}"`;
  const lang = optLang(options) ?? call.lang;
  const rowsPerPage = optInt(options, 'rows_per_page', 10);
  const page = Math.max(1, optInt(options, 'page_number', 1));
  const offset = page > 1 ? (page - 1) * rowsPerPage : optInt(options, 'offset', 0);
  const count = optBool(options, 'count', true);
  const appearances = Math.max(1, optInt(options, 'appearances_limit', 1));
  const matchSelect = optInt(options, 'match_select', 0);
  const listFragment = optBool(options, 'list_fragment', true);
  const videoFragment = optBool(options, 'video_fragment', false);
  const fragmentTerms = optBool(options, 'fragment_terms', false);
  const shape = await avShapeOf(ctx, db);
  const table = await tableOf(call, shape.table);
  const column = shape.kind === 'dedalo' ? shape.column : requireTranscriptionColumn(ctx, table);
  if (!table.fulltextColumns.has(column))
    throw new V1Error('Error. Request free_search failed. No full-text index');
  let search: ReturnType<typeof parseSearchQuery>;
  try {
    search = parseSearchQuery(q);
  } catch {
    throw new V1Error('Error. Request free_search failed. q has no word to search for');
  }
  const extra = optString(options, 'filter');
  // Ranked in two steps like v2's search (db/search-sql.ts): at most SEARCH_MAX_CANDIDATES
  // best-ranked matches are paged and counted, so a common word costs bounded work.
  const query = {
    table: table.name,
    column,
    search,
    where: table.hasLang ? [{ column: 'lang', op: 'eq' as const, value: lang }] : [],
    filter: extra && extra.trim() !== '' ? parseCondition('filter', extra, { tables: [table] }) : undefined,
    maxCandidates: ctx.config.searchMaxCandidates,
  };
  const [rows, total] = await Promise.all([
    ctx.driver.search(db, {
      ...query,
      columns: table.columns.filter((c) => c.name !== 'id').map((c) => c.name),
      orderBy: withStableOrder([], table),
      rowKey: rowKeyOf(table),
      limit: rowsPerPage,
      offset,
    }),
    count ? ctx.driver.searchCount(db, query) : Promise.resolve(false as const),
  ]);
  const terms = highlightTermsOf(search);
  const restricted = await restrictedTags(call, lang);
  const result = [];
  // Each row's media and interview are a lookup or two: all rows' at once, not one after the other.
  const media = await Promise.all(
    rows.map((row) => recordMedia(call, shape, table, row, Number(row.section_id), lang)),
  );
  for (const [i, row] of rows.entries()) {
    const id = Number(row.section_id);
    const { video, image, duration, interview } = media[i]!;
    const raw = typeof row[column] === 'string' ? (row[column] as string) : '';
    const stored = maskText(raw, restricted.get(String(id)) ?? []).text;
    // The whole text's tags serve video fragments and fragment terms only; without them a long
    // text may be answered from its first pages (findFragments).
    const text = videoFragment || fragmentTerms ? analyseText(stored) : undefined;
    const found = findFragments(text ?? stored, terms, { maxCharacters: 400, maxOccurrences: appearances });
    const picked = matchSelect > 0 ? found.filter((_, i) => i === matchSelect - 1) : found;
    const node: Record<string, unknown> = {
      av_section_id: id,
      q,
      appearances_limit: appearances,
      match_select: matchSelect || false,
      image_type: optString(options, 'image_type') ?? 'posterframe',
      video_fragment: videoFragment,
      list_fragment: listFragment,
      fragment_terms: fragmentTerms,
      lang,
      video,
    };
    const fields = await interviewFields(
      call,
      interview && { ...interview, row: withoutSearchColumns(interview.row) },
      shape.kind === 'configured' ? column : undefined,
    );
    Object.assign(node, fields);
    node.image_url = nodeImage(call, fields, image);
    node.ar_restricted_fragments = call.v1.termIdRestricted ? [] : null;
    // fragment_terms: the terms of the index tags whose passage spans the match.
    const byTag = new Map<string, { term_id: unknown; term: unknown }[]>();
    const passages = new Map<number, { start: number; end: number }>();
    if (text && fragmentTerms) {
      for (const t of await termsIndexing(call, new Set([String(id)]), lang)) {
        for (const l of t.locators) byTag.set(String(l.tag_id), [...(byTag.get(String(l.tag_id)) ?? []), t]);
      }
      for (const tag of text.tags) {
        if (tag.kind !== 'index-open' || passages.has(tag.tagId)) continue;
        const p = indexPassage(text.tags, tag.tagId, stored.length);
        if (p) passages.set(tag.tagId, p);
      }
    }
    const timeline = text && videoFragment ? buildTimeline(text.tags, text.plain, duration) : undefined;
    node.fragments = picked.map((f) => {
      const out: Record<string, unknown> = { word: terms[f.term]?.words.join(' ') ?? '', match: f.position };
      if (listFragment) out.list_fragment = `.. ${f.text} ..`;
      if (byTag.size > 0 || passages.size > 0) {
        const spanning: Record<string, unknown> = {};
        for (const [tagId, p] of passages) {
          if (p.start > f.match.start || p.end < f.match.end) continue;
          for (const t of byTag.get(String(tagId)) ?? []) spanning[String(t.term_id)] = t.term;
        }
        out.terms = spanning;
      }
      if (timeline) {
        // The passage around the match, its window, and the video cut to it (float seconds, docs/publication-v1.md).
        const window = timecodesOfSpan(timeline, f.passage.start, f.passage.end);
        out.fragm = f.text;
        out.tcin_secs = window.tcIn;
        out.tcout_secs = window.tcOut;
        out.video_url = video === null ? null : withTimeWindow(video, window.tcIn, window.tcOut);
        out.subtitles_url = subtitlesUrl(call, id, lang, window.tcIn, window.tcOut);
      }
      return out;
    });
    result.push(node);
  }
  return {
    result,
    msg: 'Ok. Request free_search done successfully',
    page_number: page,
    rows_per_page: rowsPerPage,
    total,
  };
}
