/**
 * Restricted passages (docs/publication-v1.md): every passage indexed by the term
 * V1_TERM_ID_RESTRICTED is replaced by ` *** ` in the transcription before any fragment,
 * search excerpt, full text or subtitle is made from it. All of a record's restricted passages
 * are masked (docs/publication-v1.md: upstream kept only the last one masked), at their own place.
 */

import { parseTags } from '../../common/text/tag-grammar.js';
import { indexPassage, type Passage } from '../text/passages.js';
import { thesaurusMap } from './thesaurus-tables.js';
import type { V1Call } from './v1-call.js';

export const MASK = ' *** ';

/** Record id -> the tag ids the restricted term indexes in it; empty when none is configured. */
export async function restrictedTags(call: V1Call, lang: string): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  const termId = call.v1.termIdRestricted;
  if (!termId) return out;
  const table = (await thesaurusMap(call))[termId.split('_')[0] ?? ''];
  const info = table ? (await call.ctx.schemas.get(call.db)).tables.get(table) : undefined;
  if (!info?.columnsByName.has('indexation')) return out;
  const where = [{ column: 'term_id', op: 'eq' as const, value: termId }];
  if (info.hasLang) where.push({ column: 'lang', op: 'eq', value: lang } as never);
  const rows = await call.ctx.driver.select(call.db, {
    table: info.name,
    columns: ['indexation'],
    where,
    orderBy: [],
  });
  for (const row of rows) {
    let list: unknown;
    try {
      list = JSON.parse(String(row.indexation));
    } catch {
      continue;
    }
    if (!Array.isArray(list)) continue;
    for (const l of list as { section_id?: unknown; tag_id?: unknown }[]) {
      const tag = Number(l?.tag_id);
      if (!Number.isInteger(tag)) continue;
      const id = String(l.section_id);
      out.set(id, [...(out.get(id) ?? []), tag]);
    }
  }
  return out;
}

/**
 * The stored text with the text of each restricted passage (at least 5 characters) replaced by
 * MASK; the marks inside it (time codes, other index tags) are kept, so timing and the other
 * fragments stay where they were.
 */
export function maskText(stored: string, tagIds: readonly number[]): { text: string; passages: Passage[] } {
  if (tagIds.length === 0) return { text: stored, passages: [] };
  const tags = parseTags(stored);
  const passages = tagIds
    .map((id) => indexPassage(tags, id, stored.length))
    .filter((p): p is Passage => p !== undefined && p.end - p.start >= 5)
    .sort((a, b) => b.start - a.start);
  let text = stored;
  let lastStart = Number.POSITIVE_INFINITY;
  for (const p of passages) {
    if (p.end > lastStart) continue; // nested in a passage already masked
    const marks = tags
      .filter((t) => t.kind !== 'html' && t.start >= p.start && t.end <= p.end)
      .map((t) => stored.slice(t.start, t.end))
      .join('');
    text = text.slice(0, p.start) + MASK + marks + text.slice(p.end);
    lastStart = p.start;
  }
  return { text, passages };
}
