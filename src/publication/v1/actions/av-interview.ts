/**
 * The interview side of a v1 audiovisual node (docs/publication-v1.md): the interview's columns
 * merged into reel, free-search and player nodes, its informant and image relations resolved to
 * rows, and the node's `image_url`.
 */
import { mediaUrl } from '../../services/av-media.js';
import { optString, type V1Call } from '../v1-call.js';
import { relationId, relationItems, shapeRow, type V1Row } from '../v1-rows.js';
import type { AvInterview } from './av-record.js';

/** Rows of `table` for the ids a relation cell holds, in stored order. */
async function resolveCell(call: V1Call, table: string, cell: unknown, lang: string): Promise<V1Row[]> {
  const ids = relationItems(cell)
    .map(relationId)
    .filter((id): id is string => id !== undefined && /^\d+$/.test(id));
  const schema = await call.ctx.schemas.get(call.db);
  const info = schema.tables.get(table);
  if (!info || ids.length === 0) return [];
  const where = [{ column: 'section_id', op: 'in' as const, value: ids.map(Number) }];
  if (info.hasLang) where.push({ column: 'lang', op: 'eq', value: lang } as never);
  const rows = await call.ctx.driver.select(call.db, {
    table: info.name,
    columns: info.columns.map((c) => c.name),
    where,
    orderBy: [],
  });
  const byId = new Map(rows.map((r) => [String(r.section_id), r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [shapeRow(info.name, row, call.v1.numbersAsStrings)] : [];
  });
}

/**
 * The interview's columns as a free / full node carries them (docs/publication-v1.md): every
 * column but `table`, `lang`, `publication`, `images` (and, when the interview is the record
 * itself, the transcription), `section_id` renamed `interview_section_id`, the informant and
 * image relations resolved to rows.
 */
export async function interviewFields(
  call: V1Call,
  interview: AvInterview | undefined,
  skip?: string,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (!interview) return out;
  const { table, row } = interview;
  const shaped = shapeRow(table.name, row, call.v1.numbersAsStrings);
  for (const [k, v] of Object.entries(shaped)) {
    if (['table', 'lang', 'publication', 'images', skip].includes(k)) continue;
    out[k === 'section_id' ? 'interview_section_id' : k] = v;
  }
  const { speakerTable, speakerRelationColumn, imageColumn } = call.ctx.config.av;
  const lang = typeof row.lang === 'string' ? row.lang : call.lang;
  if (speakerRelationColumn in row) {
    out[speakerRelationColumn] = await resolveCell(call, speakerTable, row[speakerRelationColumn], lang);
  }
  if (imageColumn in row && (await call.ctx.schemas.get(call.db)).tables.has('image')) {
    out[imageColumn] = await resolveCell(call, 'image', row[imageColumn], lang);
  }
  return out;
}

/**
 * `image_url` of a node: the posterframe, or with `image_type=identify_image` the `image` of the
 * interview's first image ([] when it has none), as upstream.
 */
export function nodeImage(
  call: V1Call,
  fields: Record<string, unknown>,
  posterframe: string | null,
): unknown {
  if (optString(call.options, 'image_type') !== 'identify_image') return posterframe;
  const images = fields[call.ctx.config.av.imageColumn];
  const first = Array.isArray(images) ? (images[0] as Record<string, unknown> | undefined) : undefined;
  const value = first?.image;
  return typeof value === 'string' && value !== '' ? mediaUrl(value, call.ctx.config.mediaBaseUrl) : [];
}
