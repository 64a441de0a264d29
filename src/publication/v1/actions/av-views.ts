/**
 * The v1 player and reel views (docs/publication-v1.md): fragments of a type,
 * the whole reel, the indexation nodes of a term and the video view of one of them, and the
 * image record. Each reads the record once (av-record.ts) and computes fragments from it.
 * Restricted passages (V1_TERM_ID_RESTRICTED) are masked in every text (restricted.ts).
 */
import type { Row } from '../../db/types.js';
import { avShapeOf, DEDALO_AV_RELATION_COLUMN, relationIdsOf } from '../av-shape.js';
import { thesaurusMap } from '../thesaurus-tables.js';
import { optBool, optInt, optLang, optList, optString, recordRow, tableOf, type V1Call } from '../v1-call.js';
import { V1Error } from '../v1-errors.js';
import { relationId, relationItems, shapeRow } from '../v1-rows.js';
import { type IndexLocator, readLocator, termsIndexing } from './av.js';
import { interviewFields, nodeImage } from './av-interview.js';
import { avRecordIds } from './av-locator.js';
import {
  type AvInterview,
  type AvRecord,
  fragmentOf,
  indexTagIds,
  loadAvRecord,
  wholeText,
} from './av-record.js';
import { deleteMarks } from './portals.js';

function recordId(value: string | undefined, name: string): number {
  if (value === undefined || !/^\d+$/.test(value.trim()))
    throw new V1Error(`Error. Illegal ${name}: ${value ?? ''}`);
  return Number(value.trim());
}

/** The record's fields of its interview (the transcription left out when the record is the interview). */
function recordInterviewFields(call: V1Call, record: AvRecord): Promise<Record<string, unknown>> {
  return interviewFields(
    call,
    record.interview,
    record.shape.kind === 'configured' ? record.column : undefined,
  );
}

export async function reelFragmentsOfTypeAction(call: V1Call): Promise<unknown> {
  const id = recordId(optString(call.options, 'av_section_id'), 'av_section_id');
  const lang = optLang(call.options) ?? call.lang;
  const type = optString(call.options, 'type') ?? 'indexIn';
  const record = await loadAvRecord(call, id, lang);
  if (!record) return { result: [], msg: `Error. Record not found: ${id}` };
  const only = optList(call.options, 'filter_by_tag_id');
  const returnText = optBool(call.options, 'return_text', false);
  const tags = type === 'indexIn' || type === 'index' ? indexTagIds(record) : [];
  const result = tags
    .filter((t) => !only || only.includes(String(t)))
    .map((t) => {
      const f = fragmentOf(call, record, t);
      if (f && !returnText) delete f.fragm;
      return f;
    });
  const answer: Record<string, unknown> = {
    result,
    msg: 'Ok. Request done. web_data::get_reel_fragments_of_type',
  };
  if (optBool(call.options, 'return_restricted', false))
    answer.ar_restricted_fragments = record.restricted ?? [];
  return answer;
}

/** The full node of one record (docs/publication-v1.md). */
async function fullNode(call: V1Call, record: AvRecord): Promise<Record<string, unknown>> {
  const withTerms = optBool(call.options, 'terms', false);
  const node: Record<string, unknown> = {
    av_section_id: record.id,
    lang: record.lang,
    image_type: optString(call.options, 'image_type') ?? 'posterframe',
    terms: withTerms,
    table: record.table.name,
    video: record.video,
    duration: record.row.duration ?? null,
  };
  const fields = await recordInterviewFields(call, record);
  Object.assign(node, fields);
  node.image_url = nodeImage(call, fields, record.image);
  node.ar_restricted_fragments = record.restricted;
  node.fragments = [
    {
      video_url: record.video,
      subtitles_url: `${call.v1.subtitlesUrlBase}?section_id=${record.id}&lang=${record.lang}`,
      fragm: wholeText(record),
    },
  ];
  if (withTerms) {
    const terms = await termsIndexing(call, new Set([String(record.id)]), record.lang);
    node.terms = Object.fromEntries(
      terms
        .map((t) => [String(t.term_id), t.term] as const)
        .sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true })),
    );
  } else node.terms = false;
  node.result = true;
  const mediaColumn =
    record.shape.kind === 'dedalo' ? DEDALO_AV_RELATION_COLUMN : call.ctx.config.av.mediaRelationColumn;
  node.ar_key = relationItems(record.interview?.row[mediaColumn])
    .map(relationId)
    .filter((x) => x !== undefined);
  node.key = record.id;
  return node;
}

export async function fullReelAction(call: V1Call): Promise<unknown> {
  const id = recordId(optString(call.options, 'av_section_id'), 'av_section_id');
  const record = await loadAvRecord(call, id, optLang(call.options) ?? call.lang);
  if (!record) return { result: false, msg: `Error. Request full_reel failed. Record not found: ${id}` };
  return { result: await fullNode(call, record), msg: 'Ok. Request full_reel done successfully' };
}

/**
 * A full node per audiovisual record of each interview: in Dédalo's shape the ids its
 * `audiovisual` column lists; in the configured shape the interview is the record itself.
 */
export async function fullInterviewAction(call: V1Call): Promise<unknown> {
  const raw = optString(call.options, 'section_id') ?? '';
  const ids = raw.split(',').map((s) => recordId(s, 'section_id'));
  const lang = optLang(call.options) ?? call.lang;
  const shape = await avShapeOf(call.ctx, call.db);
  const result = [];
  for (const id of ids) {
    let avIds = [id];
    if (shape.kind === 'dedalo') {
      const interview = shape.interview ? await recordRow(call, shape.interview, id, lang) : undefined;
      avIds = relationIdsOf(interview?.[DEDALO_AV_RELATION_COLUMN]).map(Number);
    }
    for (const avId of avIds) {
      const record = await loadAvRecord(call, avId, lang);
      if (record) result.push(await fullNode(call, record));
    }
  }
  return { result, msg: 'Ok. Request full_interview done successfully' };
}

function locatorList(value: unknown): IndexLocator[] {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return [];
    }
  }
  return Array.isArray(v) ? (v.filter((l) => l !== null && typeof l === 'object') as IndexLocator[]) : [];
}

async function termLocators(
  call: V1Call,
  termId: string,
  lang: string,
): Promise<{ term?: string; locators: IndexLocator[] }> {
  const table = (await thesaurusMap(call))[termId.split('_')[0] ?? ''];
  if (!table) return { locators: [] };
  const info = await tableOf(call, table);
  const where = [{ column: 'term_id', op: 'eq' as const, value: termId }];
  if (info.hasLang) where.push({ column: 'lang', op: 'eq', value: lang } as never);
  const [row] = await call.ctx.driver.select(call.db, {
    table: info.name,
    columns: ['term', 'indexation'],
    where,
    orderBy: [],
    limit: 1,
  });
  return { term: row?.term as string | undefined, locators: locatorList(row?.indexation) };
}

const topOf = (l: IndexLocator & { section_top_id?: unknown }) => String(l.section_top_id ?? l.section_id);

export async function indexationNodeAction(call: V1Call): Promise<unknown> {
  const termId = optString(call.options, 'term_id') ?? '';
  const lang = optLang(call.options) ?? call.lang;
  let locators = locatorList(call.options.ar_locators);
  if (locators.length === 0 && termId !== '') locators = (await termLocators(call, termId, lang)).locators;
  const valid = locators.filter((l) => l.tag_id !== undefined && l.tag_id !== null && l.tag_id !== '');
  if (valid.length === 0) {
    return {
      result: [],
      msg: `Error. Valid ar_locators is mandatory. Received: ${JSON.stringify(call.options.ar_locators ?? null)}`,
    };
  }
  const records = new Map<string, AvRecord | undefined>();
  const interviews = new Map<string, AvInterview | undefined>();
  const images = new Map<string, unknown>();
  const shape = await avShapeOf(call.ctx, call.db);
  const nodes = [];
  const recordIdOf = await avRecordIds(call);
  for (const l of valid) {
    const id = recordIdOf(l);
    if (!/^\d+$/.test(id)) continue;
    if (!records.has(id)) records.set(id, await loadAvRecord(call, Number(id), lang));
    const record = records.get(id);
    if (!record) continue;
    // A locator whose interview (section_top_id) has no row in the language is skipped too.
    let interview = record.interview;
    const top = topOf(l);
    if (shape.kind === 'dedalo' && shape.interview && /^\d+$/.test(top)) {
      if (!interviews.has(top)) {
        const row = await recordRow(call, shape.interview, Number(top), lang);
        interviews.set(top, row ? { table: shape.interview, row } : undefined);
      }
      interview = interviews.get(top);
      if (!interview) continue;
    }
    if (!images.has(top)) {
      const fields =
        optString(call.options, 'image_type') === 'identify_image'
          ? await interviewFields(call, interview)
          : {};
      images.set(top, nodeImage(call, fields, record.image));
    }
    nodes.push({
      term_id: termId,
      locator: l,
      node_id: String(l.tag_id),
      image_type: optString(call.options, 'image_type') ?? 'posterframe',
      lang,
      image_url: images.get(top),
      group_locators: valid.filter((o) => topOf(o) === top),
    });
  }
  return { result: nodes, msg: 'OK. Request thesaurus_indexation_node done' };
}

export async function videoViewDataAction(call: V1Call): Promise<unknown> {
  const lang = optLang(call.options) ?? call.lang;
  const addSubtitles = optBool(call.options, 'add_subtitles', false);
  const failed = { lang, add_subtitles: addSubtitles };
  const termId = optString(call.options, 'term_id') ?? '';
  const locators = locatorList(call.options.ar_locators);
  const key = optInt(call.options, 'ar_locators_key', 0);
  const locator = locators[key] ?? readLocator(call.options.ar_locators);
  const id = locator ? Number((await avRecordIds(call))(locator)) : Number.NaN;
  const tagId = Number(locator?.tag_id);
  if (!locator || !Number.isInteger(id) || !Number.isInteger(tagId)) return failed;
  const record = await loadAvRecord(call, id, lang);
  if (!record) return failed;
  const fragment = fragmentOf(call, record, tagId);
  if (!fragment) return failed;
  const { term } = termId ? await termLocators(call, termId, lang) : { term: undefined };
  const fields = await recordInterviewFields(call, record);
  const interview = record.interview?.row ?? {};
  const terms = (await termsIndexing(call, new Set([String(id)]), lang)).filter((t) =>
    t.locators.some((l) => String(l.tag_id) === String(tagId)),
  );
  fragment.terms = terms.map((t) => ({ term_id: t.term_id, term: t.term }));
  const answer: Record<string, unknown> = {
    lang,
    add_subtitles: addSubtitles,
    result: true,
    interview_id: String(topOf(locator)),
    av_section_id: String(id),
    image_url: record.image,
    terms: fragment.terms,
    informant: fields[call.ctx.config.av.speakerRelationColumn] ?? [],
    summary: interview.abstract ?? null,
    interview_date: interview.date ?? null,
    interview_code: interview.code ?? null,
    total: locators.length,
    key,
    ar_key: locators.map((_, i) => i),
    term_id: termId,
    term: term ?? null,
    fragments: [fragment],
    ar_restricted_fragments: record.restricted,
  };
  if (optBool(call.options, 'raw_text', false)) answer.raw_text = record.text.stored;
  if (optBool(call.options, 'raw_text_unrestricted', false))
    answer.raw_text_unrestricted =
      typeof record.row[record.column] === 'string' ? record.row[record.column] : '';
  return answer;
}

/** `image_data`: the image row, its description raw, with marks turned to nothing / kept. */
export async function imageDataAction(call: V1Call): Promise<unknown> {
  const id = recordId(optString(call.options, 'section_id'), 'section_id');
  const lang = optLang(call.options) ?? call.lang;
  const info = await tableOf(call, 'image');
  const row = await recordRow(call, info, id, lang);
  if (!row) return { result: false, msg: `Error. Record not found: ${id}` };
  const obj: Record<string, unknown> = { section_id: id, lang };
  for (const [k, v] of Object.entries(shapeRow(info.name, row as Row, call.v1.numbersAsStrings))) {
    obj[k === 'description' ? 'description_raw' : k] = v;
  }
  const description = typeof row.description === 'string' ? row.description : '';
  if (optBool(call.options, 'add_notes', true)) obj.notes_data = [];
  // Tag images are not published: the "with images" text is the text with its marks removed.
  if (optBool(call.options, 'description_with_images', true))
    obj.description_with_images = deleteMarks(description);
  if (optBool(call.options, 'description_clean', true)) obj.description_clean = deleteMarks(description);
  return { result: obj, msg: 'Ok. Request get_image_data done successfully' };
}
