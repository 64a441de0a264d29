/**
 * Indexing from the client: the index marks of the tag grammar (src/common/text/tag-grammar.ts,
 * the one the publication API reads) and the calls of `dd_ts_api` (the thesaurus tree) and
 * `dd_component_text_area_api` (indexations), in one place for the tree screen, the picker and
 * the transcription editor.
 */
import { parseTags } from '../../../src/common/text/tag-grammar.js';
import type { RqoClient } from '../api/rqo-client.js';

/** A thesaurus term as dd_ts_api answers it. */
export interface TermNode {
  section_tipo: string;
  section_id: number;
  label: string;
  /** The language the label is in when it is not the one asked for (a fallback). */
  lang: string | null;
  children: number;
  indexations: number;
  parent: { section_tipo: string; section_id: number } | null;
  /** Ancestors, root first (searches and named terms). */
  path?: TermNode[];
}

export interface TreeLevel {
  section_tipo: string;
  term_tipo: string;
  parent_tipo: string;
  editable: { add: boolean; rename: boolean; move: boolean };
  terms: TermNode[];
  truncated: boolean;
}

export interface IndexationTag {
  tag_id: number | null;
  terms: TermNode[];
}

export interface RecordIndexations {
  tags: IndexationTag[];
  /** This user may index here (save rights on the text and on the terms' indexations). */
  may_index?: boolean;
  /** Some thesaurus may index this record as a whole (asked without a text component). */
  indexable?: boolean;
  next_tag_id?: number;
}

/** `[index-n-<id>--data::data]`, the opening mark of a passage (no label: the terms are the label). */
export const indexOpen = (id: number) => `[index-n-${id}--data::data]`;
/** `[/index-n-<id>--data::data]`, its closing mark. */
export const indexClose = (id: number) => `[/index-n-${id}--data::data]`;

/** The text without the marks of tag `id` (both ends, in any state or form). */
export function withoutIndexTag(text: string, id: number): string {
  let out = '';
  let at = 0;
  for (const tag of parseTags(text)) {
    if ((tag.kind === 'index-open' || tag.kind === 'index-close') && tag.tagId === id) {
      out += text.slice(at, tag.start);
      at = tag.end;
    }
  }
  return out + text.slice(at);
}

/** The tag ids marked in a text, in text order. */
export function indexTagIds(text: string): number[] {
  const ids: number[] = [];
  for (const tag of parseTags(text)) {
    if (tag.kind === 'index-open' && !ids.includes(tag.tagId)) ids.push(tag.tagId);
  }
  return ids;
}

/** "Guerra › Guerra civil": a term's ancestors, root first. */
export const breadcrumb = (term: TermNode) => (term.path ?? []).map((p) => p.label).join(' › ');

export const termKey = (t: { section_tipo: string; section_id: number }) =>
  `${t.section_tipo}_${t.section_id}`;

export function childrenData(api: RqoClient, sectionTipo: string, lang: string, parentId?: number) {
  return api
    .call<TreeLevel>({
      dd_api: 'dd_ts_api',
      action: 'get_children_data',
      source: {
        section_tipo: sectionTipo,
        lang,
        ...(parentId !== undefined ? { section_id: parentId } : {}),
      },
    })
    .then((a) => a.data);
}

export function searchTerms(api: RqoClient, sectionTipo: string, lang: string, q: string) {
  return api
    .call<{ terms: TermNode[] }>({
      dd_api: 'dd_ts_api',
      action: 'search_terms',
      source: { section_tipo: sectionTipo, lang },
      options: { q, limit: 25 },
    })
    .then((a) => a.data.terms);
}

export function indexationsOf(
  api: RqoClient,
  record: { section_tipo: string; section_id: number; tipo?: string },
  lang: string,
) {
  return api
    .call<RecordIndexations>({
      dd_api: 'dd_component_text_area_api',
      action: 'get_indexations',
      source: { ...record, lang },
    })
    .then((a) => a.data);
}

export interface SetIndexation {
  record: { section_tipo: string; section_id: number; tipo?: string };
  lang: string;
  tagId?: number;
  terms: { section_tipo: string; section_id: number }[];
  /** The text with (or without) the passage's marks, and the version it was edited from. */
  value?: string;
  version?: number;
}

export function setIndexation(api: RqoClient, s: SetIndexation) {
  return api
    .call<{ version?: number; terms: TermNode[] }>({
      dd_api: 'dd_component_text_area_api',
      action: 'set_indexation',
      source: { ...s.record, lang: s.lang },
      data: {
        terms: s.terms.map((t) => ({ section_tipo: t.section_tipo, section_id: t.section_id })),
        ...(s.tagId !== undefined ? { tag_id: s.tagId } : {}),
        ...(s.value !== undefined ? { value: s.value } : {}),
        ...(s.version !== undefined ? { version: s.version } : {}),
      },
    })
    .then((a) => a.data);
}
