/**
 * A list's search as the address keeps it (`#/list/oh1?search=...`): the panel's conditions (so
 * the panel shows them again), the SQO filter they made (so a reload or a shared link reads the
 * same records before the panel has loaded its fields) and the long texts whose words were
 * searched (so the list can show the excerpts that matched). One JSON value, checked on the way
 * in: an address is typed by people and a bad one must only mean "no search".
 */
import type { ReadResult } from '../api/read-shapes.js';
import { itemOf, type Locator } from '../api/read-shapes.js';
import type { RqoClient } from '../api/rqo-client.js';
import { type Excerpt, excerptsOf, searchWords } from './text-excerpts.js';

/** One step of a search path: a component of a section. */
export interface PathStep {
  section_tipo: string;
  component_tipo: string;
}

/** One row of the search panel: a field (a component tipo, or `portal>component`) and its value. */
export interface SearchCondition {
  field: string;
  q: string;
  from: string;
  to: string;
}

/** Words searched in a long text, reached by `path` from the listed section. */
export interface ExcerptSource {
  path: PathStep[];
  q: string;
}

export interface ListSearch {
  op: '$and' | '$or';
  conditions: SearchCondition[];
  filter: Record<string, unknown>;
  excerpts: ExcerptSource[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function encodeListSearch(search: ListSearch): string {
  return JSON.stringify({ op: search.op, c: search.conditions, f: search.filter, x: search.excerpts });
}

export function decodeListSearch(raw: string | undefined): ListSearch | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    if (!isObject(v) || !isObject(v.f) || !Array.isArray(v.c)) return undefined;
    const str = (x: unknown) => (typeof x === 'string' ? x : '');
    const conditions = v.c.filter(isObject).map((c) => ({
      field: str(c.field),
      q: str(c.q),
      from: str(c.from),
      to: str(c.to),
    }));
    const excerpts = (Array.isArray(v.x) ? v.x : []).filter(
      (x): x is ExcerptSource =>
        isObject(x) &&
        typeof x.q === 'string' &&
        Array.isArray(x.path) &&
        x.path.length > 0 &&
        x.path.length <= 2 &&
        x.path.every(
          (s) => isObject(s) && typeof s.section_tipo === 'string' && typeof s.component_tipo === 'string',
        ),
    );
    return { op: v.op === '$or' ? '$or' : '$and', conditions, filter: v.f, excerpts };
  } catch {
    return undefined;
  }
}

/** Excerpts of one listed record, in the order of the sources. */
export type RowExcerpts = Map<number, Excerpt[]>;

/**
 * Reads, for the records `ids` of `section`, the long texts the search looked in (one read
 * whose columns are the sources' paths: the portal, then the text through it) and cuts the
 * excerpts around the searched words.
 */
export async function fetchExcerpts(
  api: RqoClient,
  section: string,
  ids: readonly number[],
  sources: readonly ExcerptSource[],
): Promise<RowExcerpts> {
  const out: RowExcerpts = new Map();
  const usable = sources.filter((s) => s.path[0]?.section_tipo === section && searchWords(s.q).length > 0);
  if (ids.length === 0 || usable.length === 0) return out;
  const ddoMap: Record<string, string>[] = [];
  const seen = new Set<string>();
  const add = (ddo: Record<string, string>) => {
    const key = `${ddo.tipo}|${ddo.section_tipo}|${ddo.parent}`;
    if (!seen.has(key)) ddoMap.push(ddo);
    seen.add(key);
  };
  for (const s of usable) {
    const [first, second] = s.path as [PathStep, PathStep | undefined];
    add({ tipo: first.component_tipo, section_tipo: section, parent: section });
    if (second)
      add({ tipo: second.component_tipo, section_tipo: second.section_tipo, parent: first.component_tipo });
  }
  const answer = await api.call<ReadResult>({
    action: 'read',
    source: { tipo: section, section_tipo: section, model: 'section', mode: 'list', action: 'search' },
    sqo: {
      section_tipo: [section],
      filter_by_locators: ids.map((id) => ({ section_tipo: section, section_id: id })),
      limit: ids.length,
    },
    show: { ddo_map: ddoMap },
  });
  const data = answer.data.data;
  const textsOf = (item: { entries: unknown[] } | undefined): string[] =>
    (item?.entries ?? [])
      .map((e) => (isObject(e) && typeof e.value === 'string' ? e.value : ''))
      .filter(Boolean);
  for (const id of ids) {
    const found: Excerpt[] = [];
    for (const s of usable) {
      const words = searchWords(s.q);
      const [first, second] = s.path as [PathStep, PathStep | undefined];
      const texts: string[] = [];
      if (!second) texts.push(...textsOf(itemOf(data, first.component_tipo, section, id)));
      else {
        const portal = itemOf(data, first.component_tipo, section, id);
        for (const l of (portal?.entries ?? []) as Locator[]) {
          if (l.section_tipo !== second.section_tipo) continue;
          texts.push(
            ...textsOf(
              itemOf(data, second.component_tipo, l.section_tipo, l.section_id, first.component_tipo),
            ),
          );
        }
      }
      for (const text of texts) found.push(...excerptsOf(text, words));
    }
    if (found.length > 0) out.set(id, found.slice(0, 3));
  }
  return out;
}
