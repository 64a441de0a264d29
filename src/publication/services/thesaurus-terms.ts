/**
 * The thesaurus terms that index a passage: rows of every `ts_*` table with an `indexation`
 * column whose indexation locators name the record (and tag, and component, when given).
 *
 * Locators are compared as parsed JSON, never as text: key order and string-vs-number ids vary
 * between publications (PUBLICATION-CONVENTIONS.md). The SQL only narrows the candidates with a
 * coarse LIKE on the digits of the ids (a locator naming record 12 must contain "12" somewhere),
 * which can let extra rows through but never drops a true one; the decision is made here.
 * Candidate rows are read in bounded pages.
 */
import type { Condition, Row, TableInfo } from '../db/types.js';
import { parseJsonText } from './cell-values.js';
import type { PublicationContext } from './context.js';

export interface LocatorMatch {
  sectionId: number;
  /** Accepted section_tipos; empty accepts any (and a locator without one always passes). */
  sectionTipos: readonly string[];
  tagId?: number;
  componentTipo?: string;
}

export interface IndexingTerm {
  term_id: string;
  term: string;
}

export interface IndexingTerms {
  terms: IndexingTerm[];
  /** Some table had more candidate rows than the scan reads; the list may be incomplete. */
  truncated: boolean;
}

const INDEXATION = 'indexation';
const PAGE_SIZE = 500;
const MAX_PAGES = 40;

function idOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*\d{1,16}\s*$/.test(value)) return Number(value);
  return Number.NaN;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function locatorMatches(locator: unknown, m: LocatorMatch): boolean {
  if (!isObject(locator)) return false;
  if (idOf(locator.section_id) !== m.sectionId) return false;
  const tipo = locator.section_tipo;
  if (m.sectionTipos.length > 0 && tipo !== undefined && !m.sectionTipos.includes(String(tipo))) return false;
  if (m.tagId !== undefined && idOf(locator.tag_id) !== m.tagId) return false;
  if (m.componentTipo !== undefined && locator.component_tipo !== m.componentTipo) return false;
  return true;
}

/** Does an indexation cell (JSON text or parsed; an array of locators or one) hold a matching locator? */
export function indexationMatches(cell: unknown, m: LocatorMatch): boolean {
  const value = typeof cell === 'string' ? parseJsonText(cell) : cell;
  const locators = Array.isArray(value) ? value : [value];
  return locators.some((l) => locatorMatches(l, m));
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function prefilter(m: LocatorMatch): Condition[] {
  const where: Condition[] = [
    { column: INDEXATION, op: 'is_not_null' },
    { column: INDEXATION, op: 'like', value: `%${m.sectionId}%` },
  ];
  if (m.tagId !== undefined) where.push({ column: INDEXATION, op: 'like', value: `%${m.tagId}%` });
  if (m.componentTipo !== undefined) {
    where.push({ column: INDEXATION, op: 'like', value: `%${escapeLike(m.componentTipo)}%` });
  }
  return where;
}

function isThesaurus(t: TableInfo): boolean {
  return (
    t.name.startsWith('ts_') &&
    t.columnsByName.get(INDEXATION)?.kind === 'text' &&
    t.columnsByName.has('section_id') &&
    t.columnsByName.has('term')
  );
}

/** The variant to show: the requested language when the term has it, else the first by lang. */
function preferredVariant(rows: readonly Row[], lang: string | undefined): Row | undefined {
  const named = rows.filter((r) => typeof r.term === 'string' && r.term.trim() !== '');
  return named.find((r) => lang !== undefined && r.lang === lang) ?? named[0];
}

async function termsOfTable(
  ctx: PublicationContext,
  db: string,
  table: TableInfo,
  m: LocatorMatch,
  lang: string | undefined,
): Promise<IndexingTerms> {
  const columns = ['section_id', 'term', INDEXATION, 'term_id', 'lang'].filter((c) =>
    table.columnsByName.has(c),
  );
  const orderBy = [
    { column: 'section_id', desc: false },
    ...(table.hasLang ? [{ column: 'lang', desc: false }] : []),
  ];
  const where = prefilter(m);
  const groups = new Map<string, { rows: Row[]; matched: boolean }>();
  let truncated = true;
  for (let page = 0; page < MAX_PAGES; page++) {
    const rows = await ctx.driver.select(db, {
      table: table.name,
      columns,
      where,
      orderBy,
      limit: PAGE_SIZE,
      offset: page * PAGE_SIZE,
    });
    for (const row of rows) {
      const key = String(row.section_id);
      const group = groups.get(key) ?? { rows: [], matched: false };
      groups.set(key, group);
      group.rows.push(row);
      if (!group.matched && indexationMatches(row[INDEXATION], m)) group.matched = true;
    }
    if (rows.length < PAGE_SIZE) {
      truncated = false;
      break;
    }
  }
  const terms: IndexingTerm[] = [];
  for (const [sectionId, group] of groups) {
    if (!group.matched) continue;
    const row = preferredVariant(group.rows, lang);
    if (!row) continue;
    const termId = row.term_id;
    terms.push({
      term_id: typeof termId === 'string' && termId !== '' ? termId : `${table.name}_${sectionId}`,
      term: String(row.term),
    });
  }
  return { terms, truncated };
}

/** Terms of every thesaurus table (in table-name order, then by section_id) indexing the locator. */
export async function indexingTerms(
  ctx: PublicationContext,
  db: string,
  m: LocatorMatch,
  lang?: string,
): Promise<IndexingTerms> {
  const schema = await ctx.schemas.get(db);
  const tables = [...schema.tables.values()].filter(isThesaurus).sort((a, b) => a.name.localeCompare(b.name));
  const results = await Promise.all(tables.map((t) => termsOfTable(ctx, db, t, m, lang)));
  return { terms: results.flatMap((r) => r.terms), truncated: results.some((r) => r.truncated) };
}
