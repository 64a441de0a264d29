/**
 * The thesaurus as a tree, for reading (`dd_ts_api`, docs/work-api.md): one level of terms at a
 * time (the roots, or the children of a term) and a search by term with each match's ancestors
 * (its breadcrumb). A thesaurus section is any section with a parent component
 * (component_relation_parent); its term is its first text component. Writes (add a child, rename,
 * move) are ordinary `create` and `save` requests.
 */

import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import type { OntologyNode } from '../ontology/ontology-schema.js';
import { checkedTable, componentItems, type MatrixRow, readRecords } from '../store/record-rows.js';
import type { SqlQueryable } from '../store/sql-client.js';

export interface ThesaurusShape {
  sectionTipo: string;
  table: ReturnType<typeof checkedTable>;
  termTipo: string;
  parentTipo: string;
  childrenTipo: string | undefined;
  indexTipo: string | undefined;
}

export interface TermNode {
  section_tipo: string;
  section_id: number;
  /** The term in the language asked for; another language's when it has none (`lang` says which). */
  label: string;
  lang: string | null;
  /** How many children it has (the tree shows an expander when > 0). */
  children: number;
  /** How many indexations it holds. */
  indexations: number;
  parent: { section_tipo: string; section_id: number } | null;
}

/** The components of a thesaurus section, or undefined when the section is not one. */
export function thesaurusShape(ontology: Ontology, sectionTipo: string): ThesaurusShape | undefined {
  const components = ontology.sectionComponents(sectionTipo);
  const first = (model: string): OntologyNode | undefined => components.find((c) => c.model === model);
  const term = first('component_input_text');
  const parent = first('component_relation_parent');
  const table = ontology.tableOf(sectionTipo);
  if (!term || !parent || !table) return undefined;
  return {
    sectionTipo,
    table: checkedTable(table),
    termTipo: term.tipo,
    parentTipo: parent.tipo,
    childrenTipo: first('component_relation_children')?.tipo,
    indexTipo: first('component_relation_index')?.tipo,
  };
}

/** The term's text in `lang`, else in the first language it has (and which one). */
export function termLabel(
  row: MatrixRow,
  shape: ThesaurusShape,
  lang: string,
): { label: string; lang: string | null } {
  const items = componentItems(row, 'string', shape.termTipo) as { lang?: string; value?: unknown }[];
  const texts = items.filter((i) => typeof i.value === 'string' && i.value !== '');
  const own = texts.find((i) => i.lang === lang) ?? texts.find((i) => i.lang === NO_LANG);
  if (own) return { label: own.value as string, lang: null };
  const other = texts[0];
  return other ? { label: other.value as string, lang: other.lang ?? null } : { label: '', lang: null };
}

const ROW_COLUMNS =
  'section_tipo, section_id, string, relation, date, number, media, misc, meta, versions, created_at, created_by, modified_at, modified_by';

function parentOf(row: MatrixRow, shape: ThesaurusShape): TermNode['parent'] {
  const l = componentItems(row, 'relation', shape.parentTipo)[0] as
    | { section_tipo?: string; section_id?: unknown }
    | undefined;
  if (!l || typeof l.section_tipo !== 'string') return null;
  const id = Number(l.section_id);
  return Number.isInteger(id) ? { section_tipo: l.section_tipo, section_id: id } : null;
}

async function childCounts(db: SqlQueryable, shape: ThesaurusShape, ids: readonly number[]) {
  const counts = new Map<number, number>();
  if (ids.length === 0) return counts;
  // Counted from the children's parent locators (the parent side is what a move writes).
  const { rows } = await db.query<{ parent_id: string; n: string | number }>(
    `SELECT p.value ->> 'section_id' AS parent_id, count(*) AS n
       FROM ${shape.table} t, jsonb_array_elements(COALESCE(t.relation -> $2, '[]'::jsonb)) p
      WHERE t.section_tipo = $1 AND p.value ->> 'section_tipo' = $1
        AND p.value ->> 'section_id' = ANY($3::text[])
      GROUP BY 1`,
    [shape.sectionTipo, shape.parentTipo, ids.map(String)],
  );
  for (const r of rows) counts.set(Number(r.parent_id), Number(r.n));
  return counts;
}

async function toNodes(db: SqlQueryable, shape: ThesaurusShape, rows: MatrixRow[], lang: string) {
  const counts = await childCounts(
    db,
    shape,
    rows.map((r) => Number(r.section_id)),
  );
  return rows.map((row): TermNode => {
    const id = Number(row.section_id);
    return {
      section_tipo: shape.sectionTipo,
      section_id: id,
      ...termLabel(row, shape, lang),
      children: counts.get(id) ?? 0,
      indexations: shape.indexTipo ? componentItems(row, 'relation', shape.indexTipo).length : 0,
      parent: parentOf(row, shape),
    };
  });
}

const byLabel = (a: TermNode, b: TermNode) =>
  a.label.localeCompare(b.label, undefined, { sensitivity: 'base' }) || a.section_id - b.section_id;

/** Most terms one level answers (a level larger than this is cut, `truncated` says so). */
export const MAX_LEVEL = 500;

/** The terms under `parentId` (undefined: the roots, terms without a parent), by label. */
export async function childrenOf(
  db: SqlQueryable,
  shape: ThesaurusShape,
  parentId: number | undefined,
  lang: string,
): Promise<{ terms: TermNode[]; truncated: boolean }> {
  const where =
    parentId === undefined
      ? `(t.relation -> $2 IS NULL OR jsonb_array_length(t.relation -> $2) = 0)`
      : `EXISTS (SELECT 1 FROM jsonb_array_elements(t.relation -> $2) p
                  WHERE p.value ->> 'section_tipo' = $1 AND p.value ->> 'section_id' = $3)`;
  const { rows } = await db.query<MatrixRow>(
    `SELECT ${ROW_COLUMNS} FROM ${shape.table} t WHERE t.section_tipo = $1 AND ${where}
      ORDER BY t.section_id LIMIT ${MAX_LEVEL + 1}`,
    parentId === undefined
      ? [shape.sectionTipo, shape.parentTipo]
      : [shape.sectionTipo, shape.parentTipo, String(parentId)],
  );
  const truncated = rows.length > MAX_LEVEL;
  const terms = (await toNodes(db, shape, rows.slice(0, MAX_LEVEL), lang)).sort(byLabel);
  return { terms, truncated };
}

/** Deepest breadcrumb followed (a deeper chain, or a cycle left by hand, is cut there). */
const MAX_DEPTH = 32;

/** Each term's ancestors, root first (one statement per level, for all terms at once). */
export async function ancestorsOf(
  db: SqlQueryable,
  shape: ThesaurusShape,
  terms: readonly TermNode[],
  lang: string,
): Promise<Map<number, TermNode[]>> {
  const known = new Map<number, TermNode>(terms.map((t) => [t.section_id, t]));
  let wanted = new Set<number>();
  for (const t of terms) if (t.parent?.section_tipo === shape.sectionTipo) wanted.add(t.parent.section_id);
  for (let depth = 0; depth < MAX_DEPTH && wanted.size > 0; depth++) {
    const missing = [...wanted].filter((id) => !known.has(id));
    const rows = await readRecords(db, shape.table, shape.sectionTipo, missing);
    for (const node of await toNodes(db, shape, rows, lang)) known.set(node.section_id, node);
    const next = new Set<number>();
    for (const id of wanted) {
      const p = known.get(id)?.parent;
      if (p && p.section_tipo === shape.sectionTipo && !known.has(p.section_id)) next.add(p.section_id);
    }
    wanted = next;
  }
  const out = new Map<number, TermNode[]>();
  for (const t of terms) {
    const chain: TermNode[] = [];
    const seen = new Set<number>([t.section_id]);
    let p = t.parent;
    while (p && p.section_tipo === shape.sectionTipo && !seen.has(p.section_id) && chain.length < MAX_DEPTH) {
      const node = known.get(p.section_id);
      if (!node) break;
      seen.add(p.section_id);
      chain.unshift(node);
      p = node.parent;
    }
    out.set(t.section_id, chain);
  }
  return out;
}

/** Most matches a search answers. */
export const MAX_MATCHES = 50;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Terms whose text (any language) contains `q` (case-blind; accents count), with breadcrumbs. */
export async function searchTerms(
  db: SqlQueryable,
  shape: ThesaurusShape,
  q: string,
  lang: string,
  limit = 25,
): Promise<(TermNode & { path: TermNode[] })[]> {
  const { rows } = await db.query<MatrixRow>(
    `SELECT ${ROW_COLUMNS} FROM ${shape.table} t WHERE t.section_tipo = $1
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(t.string -> $2, '[]'::jsonb)) e
                     WHERE e.value ->> 'value' ILIKE $3)
      ORDER BY t.section_id LIMIT ${Math.min(Math.max(limit, 1), MAX_MATCHES) * 4}`,
    [shape.sectionTipo, shape.termTipo, `%${escapeLike(q)}%`],
  );
  const needle = q.toLocaleLowerCase();
  const nodes = (await toNodes(db, shape, rows, lang))
    // Matches that start with the words typed first, then by label.
    .sort((a, b) => {
      const sa = a.label.toLocaleLowerCase().startsWith(needle) ? 0 : 1;
      const sb = b.label.toLocaleLowerCase().startsWith(needle) ? 0 : 1;
      return sa - sb || byLabel(a, b);
    })
    .slice(0, Math.min(Math.max(limit, 1), MAX_MATCHES));
  const paths = await ancestorsOf(db, shape, nodes, lang);
  return nodes.map((n) => ({ ...n, path: paths.get(n.section_id) ?? [] }));
}

/** Some terms by id, with breadcrumbs (the picker shows the terms a passage holds). */
export async function termsById(
  db: SqlQueryable,
  shape: ThesaurusShape,
  ids: readonly number[],
  lang: string,
): Promise<(TermNode & { path: TermNode[] })[]> {
  const rows = await readRecords(db, shape.table, shape.sectionTipo, ids);
  const nodes = await toNodes(db, shape, rows, lang);
  const paths = await ancestorsOf(db, shape, nodes, lang);
  return nodes.map((n) => ({ ...n, path: paths.get(n.section_id) ?? [] }));
}

/** Whether `candidateParent` is `termId` or one of its descendants (a move there would make a cycle). */
export async function isSelfOrDescendant(
  db: SqlQueryable,
  shape: ThesaurusShape,
  termId: number,
  candidateParent: number,
): Promise<boolean> {
  let current: number | undefined = candidateParent;
  const seen = new Set<number>();
  for (let depth = 0; current !== undefined && depth <= MAX_DEPTH * 4; depth++) {
    if (current === termId) return true;
    if (seen.has(current)) return false;
    seen.add(current);
    const [row] = await readRecords(db, shape.table, shape.sectionTipo, [current]);
    const p: TermNode['parent'] = row ? parentOf(row, shape) : null;
    current = p && p.section_tipo === shape.sectionTipo ? p.section_id : undefined;
  }
  return false;
}
