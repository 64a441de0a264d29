/**
 * The thesaurus terms that index a passage: rows of every `ts_*` table with an `indexation`
 * column whose indexation locators name the record (and tag, and component, when given).
 *
 * Locators are compared as parsed JSON, never as text: key order and string-vs-number ids vary
 * between publications (docs/publishing.md). Rather than searching JSON text in SQL,
 * each thesaurus table is read once (in bounded pages), its locators parsed and indexed by the
 * record they name, and kept for a short time like the schema (IndexationCache); a lookup is
 * then a map access plus the exact locator comparison below.
 */
import type { SchemaCache } from '../db/schema-cache.js';
import type { Driver, Row, TableInfo } from '../db/types.js';
import { parseJsonText } from './cell-values.js';

/**
 * What the index reads through: the parts of the PublicationContext (context.ts) it uses, so
 * the context may hold the cache without the two modules importing each other.
 */
interface IndexSource {
  driver: Driver;
  schemas: SchemaCache;
}

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
/** Rows per statement while indexing a thesaurus table, and the most statements spent on one. */
const PAGE_SIZE = 5000;
const MAX_PAGES = 40;

function idOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*\d{1,16}\s*$/.test(value)) return Number(value);
  return Number.NaN;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A locator names the record either directly (section_tipo / section_id: the recording) or as the
 * record holding it (section_top_tipo / section_top_id: the interview of the recording).
 */
function namesRecord(id: unknown, tipo: unknown, m: LocatorMatch): boolean {
  if (idOf(id) !== m.sectionId) return false;
  return (
    m.sectionTipos.length === 0 ||
    tipo === undefined ||
    tipo === null ||
    m.sectionTipos.includes(String(tipo))
  );
}

export function locatorMatches(locator: unknown, m: LocatorMatch): boolean {
  if (!isObject(locator)) return false;
  if (
    !namesRecord(locator.section_id, locator.section_tipo, m) &&
    !(
      locator.section_top_id !== undefined && namesRecord(locator.section_top_id, locator.section_top_tipo, m)
    )
  )
    return false;
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

/** One thesaurus table, indexed by the record its locators name. */
interface TableIndex {
  table: string;
  /** record section_id -> (term section_id, locator) pairs. */
  byRecord: Map<number, { term: number; locator: unknown }[]>;
  /** term section_id -> its rows (one per language), without the indexation cell. */
  terms: Map<number, Row[]>;
  truncated: boolean;
}

async function indexTable(ctx: IndexSource, db: string, table: TableInfo): Promise<TableIndex> {
  const columns = ['section_id', 'term', INDEXATION, 'term_id', 'lang'].filter((c) =>
    table.columnsByName.has(c),
  );
  const orderBy = [
    { column: 'section_id', desc: false },
    ...(table.hasLang ? [{ column: 'lang', desc: false }] : []),
  ];
  const index: TableIndex = { table: table.name, byRecord: new Map(), terms: new Map(), truncated: true };
  for (let page = 0; page < MAX_PAGES; page++) {
    const rows = await ctx.driver.select(db, {
      table: table.name,
      columns,
      where: [{ column: INDEXATION, op: 'is_not_null' }],
      orderBy,
      limit: PAGE_SIZE,
      offset: page * PAGE_SIZE,
    });
    for (const row of rows) {
      const term = idOf(row.section_id);
      if (!Number.isSafeInteger(term)) continue;
      const variants = index.terms.get(term);
      const { [INDEXATION]: cell, ...rest } = row;
      if (variants) {
        variants.push(rest);
        continue; // language variants repeat the same locators: index them once
      }
      index.terms.set(term, [rest]);
      const value = typeof cell === 'string' ? parseJsonText(cell) : cell;
      for (const locator of Array.isArray(value) ? value : [value]) {
        // Under the record it names and the record holding that one (section_top_id), if any.
        const records = isObject(locator) ? [idOf(locator.section_id), idOf(locator.section_top_id)] : [];
        for (const record of new Set(records)) {
          if (!Number.isSafeInteger(record)) continue;
          const list = index.byRecord.get(record) ?? [];
          list.push({ term, locator });
          index.byRecord.set(record, list);
        }
      }
    }
    if (rows.length < PAGE_SIZE) {
      index.truncated = false;
      break;
    }
  }
  return index;
}

function termsOf(index: TableIndex, m: LocatorMatch, lang: string | undefined): IndexingTerm[] {
  const matched = new Set<number>();
  for (const c of index.byRecord.get(m.sectionId) ?? [])
    if (locatorMatches(c.locator, m)) matched.add(c.term);
  const terms: IndexingTerm[] = [];
  for (const term of [...matched].sort((a, b) => a - b)) {
    const row = preferredVariant(index.terms.get(term) ?? [], lang);
    if (!row) continue;
    const termId = row.term_id;
    terms.push({
      term_id: typeof termId === 'string' && termId !== '' ? termId : `${index.table}_${term}`,
      term: String(row.term),
    });
  }
  return terms;
}

/**
 * The parsed indexation locators of every thesaurus table of each database, read on first use
 * and kept for `ttlMs` (single-flight, like the schema cache). Published data changes only when
 * a publication runs, so a short-lived copy is as fresh as the schema the API already caches.
 */
export class IndexationCache {
  private readonly entries = new Map<string, { loadedAt: number; value: Promise<TableIndex[]> }>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  clear(): void {
    this.entries.clear();
  }

  get(ctx: IndexSource, db: string): Promise<TableIndex[]> {
    const entry = this.entries.get(db);
    if (entry && this.now() - entry.loadedAt < this.ttlMs) return entry.value;
    const value = ctx.schemas.get(db).then((schema) => {
      const tables = [...schema.tables.values()]
        .filter(isThesaurus)
        .sort((a, b) => a.name.localeCompare(b.name));
      return Promise.all(tables.map((t) => indexTable(ctx, db, t)));
    });
    // A failed load is not kept: the next request tries again.
    value.catch(() => this.entries.delete(db));
    this.entries.set(db, { loadedAt: this.now(), value });
    return value;
  }
}

/** Terms of every thesaurus table (in table-name order, then by section_id) indexing the locator. */
export async function indexingTerms(
  ctx: IndexSource & { indexations: IndexationCache },
  db: string,
  m: LocatorMatch,
  lang?: string,
): Promise<IndexingTerms> {
  const indexes = await ctx.indexations.get(ctx, db);
  return {
    terms: indexes.flatMap((index) => termsOf(index, m, lang)),
    truncated: indexes.some((index) => index.truncated),
  };
}
