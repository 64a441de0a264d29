/**
 * The search functions other actions call with a parsed Sqo (parse-sqo.ts) and the caller's
 * record scope (search-scope.ts):
 * - searchRecords / countRecords: records of the SQO's sections matching its filter (and
 *   filter_by_locators), ordered, limited;
 * - searchHistory / countHistory (`mode: 'tm'`): rows of matrix_time_machine;
 * - searchRelated / countRelated (`mode: 'related'`): records holding a locator that points at
 *   one of `filter_by_locators`.
 * Records with section_id <= 0 (root, -1) are never listed. Permission levels are the caller's
 * business: these functions search exactly the sections they are given.
 */

import type { Ontology } from '../ontology/load-ontology.js';
import type { HistoryRow } from '../store/history.js';
import { DATA_COLUMNS, isMatrixTable, type MatrixTable } from '../store/matrix-tables.js';
import type { SqlQueryable } from '../store/sql-client.js';
import {
  type BranchOptions,
  buildSearchUnion,
  orderByOf,
  type ScopeFn,
  type SqlCondition,
  textWords,
} from './sqo-sql.js';
import type { Sqo } from './sqo-types.js';

export interface RecordRef {
  section_tipo: string;
  section_id: number;
}

export interface SearchResult {
  records: RecordRef[];
  /** Present when the SQO asked for `full_count`. */
  total?: number;
}

/** `['all']` (related mode) is every section of the ontology. */
export function sectionsOf(ontology: Ontology, sqo: Pick<Sqo, 'section_tipo'>): string[] {
  if (sqo.section_tipo.length === 1 && sqo.section_tipo[0] === 'all') {
    return ontology.sections().map((s) => s.tipo);
  }
  return sqo.section_tipo;
}

/**
 * Words already normalised, per database client: a word's lower(unaccent()) never changes for a
 * database (the side tables' stored values were made by the same function), so a filter typed
 * again (the next page, the same code prefix from another cataloguer) needs no statement. Keyed
 * by the client object, so two databases in one process (PGlite and PostgreSQL) never share an
 * answer; emptied when full rather than ordered, since a word costs one statement to learn again.
 */
const normalisedByDb = new WeakMap<SqlQueryable, Map<string, string>>();
const NORMALISED_WORDS_KEPT = 5000;

/**
 * The database's lower(unaccent()) of every text word of the filter, so the search's LIKE
 * patterns are constants (index-friendly plans): the words not seen before in one statement.
 */
export async function normaliseWords(db: SqlQueryable, sqo: Sqo): Promise<Map<string, string>> {
  const words = textWords(sqo);
  if (words.length === 0) return new Map();
  let known = normalisedByDb.get(db);
  if (!known) {
    known = new Map();
    normalisedByDb.set(db, known);
  }
  const normalised = new Map<string, string>();
  const missing: string[] = [];
  for (const w of words) {
    const n = known.get(w);
    if (n === undefined) missing.push(w);
    else normalised.set(w, n);
  }
  if (missing.length === 0) return normalised;
  const { rows } = await db.query<{ w: string; n: string }>(
    'SELECT t.w, lower(unaccent(t.w)) AS n FROM jsonb_array_elements_text($1::jsonb) AS t(w)',
    [JSON.stringify(missing)],
  );
  if (known.size + rows.length > NORMALISED_WORDS_KEPT) known.clear();
  for (const r of rows) {
    known.set(r.w, r.n);
    normalised.set(r.w, r.n);
  }
  return normalised;
}

/** The UNION of an SQO's branches, its words normalised first (what every search runs). */
export async function buildSearch(
  db: SqlQueryable,
  ontology: Ontology,
  sqo: Sqo,
  scope: ScopeFn,
  sections: readonly string[],
  options: BranchOptions = {},
): Promise<ReturnType<typeof buildSearchUnion>> {
  const normalised = options.relatedTo ? new Map<string, string>() : await normaliseWords(db, sqo);
  return buildSearchUnion(ontology, sqo, scope, sections, { ...options, normalised });
}

/**
 * The statement of one page of a search: the union ordered, limited and offset (with the
 * sort-key CTEs when buildSearchUnion read the order from matrix_sort_key). Exported for the
 * plan tests.
 */
export function pageStatement(
  built: NonNullable<ReturnType<typeof buildSearchUnion>>,
  sqo: Pick<Sqo, 'limit' | 'offset'>,
  hasLocators: boolean,
): { sql: string; params: unknown[] } {
  const p = built.builder.params;
  const limit = p.add(sqo.limit, '::integer');
  const offset = p.add(sqo.offset, '::integer');
  const ctes = built.ctes.length > 0 ? `WITH ${built.ctes.join(',\n')}\n` : '';
  return {
    sql: `${ctes}SELECT u.section_tipo, u.section_id FROM (${built.union}) u
     ORDER BY ${orderByOf(built.orderKeys, hasLocators)}
     LIMIT ${limit} OFFSET ${offset}`,
    params: p.values,
  };
}

async function runUnion(
  db: SqlQueryable,
  built: NonNullable<ReturnType<typeof buildSearchUnion>>,
  sqo: Sqo,
  hasLocators: boolean,
): Promise<RecordRef[]> {
  const page = pageStatement(built, sqo, hasLocators);
  const { rows } = await db.query<{ section_tipo: string; section_id: number }>(page.sql, page.params);
  return rows.map((r) => ({ section_tipo: r.section_tipo, section_id: Number(r.section_id) }));
}

async function countUnion(db: SqlQueryable, built: ReturnType<typeof buildSearchUnion>): Promise<number> {
  if (!built) return 0;
  const { rows } = await db.query<{ n: string | number }>(
    `SELECT count(*)::text AS n FROM (${built.union}) u`,
    built.builder.params.values,
  );
  return Number(rows[0]?.n ?? 0);
}

/** The records an SQO selects, in its order; `total` too when it asks for `full_count`. */
export async function searchRecords(
  db: SqlQueryable,
  ontology: Ontology,
  sqo: Sqo,
  scope: ScopeFn,
): Promise<SearchResult> {
  const sections = sectionsOf(ontology, sqo);
  const normalised = await normaliseWords(db, sqo);
  const built = buildSearchUnion(ontology, sqo, scope, sections, { normalised, page: true });
  const records = built ? await runUnion(db, built, sqo, sqo.filter_by_locators !== undefined) : [];
  if (!sqo.full_count) return { records };
  const total =
    sqo.total ?? (await countUnion(db, buildSearchUnion(ontology, sqo, scope, sections, { normalised })));
  return { records, total };
}

/** How many records the SQO's filter selects (limit and offset ignored). */
export async function countRecords(
  db: SqlQueryable,
  ontology: Ontology,
  sqo: Sqo,
  scope: ScopeFn,
): Promise<number> {
  return countUnion(db, await buildSearch(db, ontology, sqo, scope, sectionsOf(ontology, sqo)));
}

function relatedTargets(sqo: Sqo) {
  return (sqo.filter_by_locators ?? []).map((l) => ({
    section_tipo: l.section_tipo,
    section_id: l.section_id,
    tipo: l.tipo,
  }));
}

/**
 * Related mode: the records (of the SQO's sections, or every section for `['all']`) holding a
 * locator in a relation component that points at one of `filter_by_locators` (a locator's
 * `tipo` restricts it to that pointing component). Ordered like searchRecords.
 */
export async function searchRelated(
  db: SqlQueryable,
  ontology: Ontology,
  sqo: Sqo,
  scope: ScopeFn,
): Promise<SearchResult> {
  const sections = sectionsOf(ontology, sqo);
  const targets = relatedTargets(sqo);
  const build = () =>
    targets.length === 0
      ? undefined
      : buildSearchUnion(ontology, sqo, scope, sections, { relatedTo: targets });
  const built = build();
  const records = built ? await runUnion(db, built, sqo, false) : [];
  if (!sqo.full_count) return { records };
  return { records, total: sqo.total ?? (await countUnion(db, build())) };
}

export async function countRelated(
  db: SqlQueryable,
  ontology: Ontology,
  sqo: Sqo,
  scope: ScopeFn,
): Promise<number> {
  const targets = relatedTargets(sqo);
  if (targets.length === 0) return 0;
  return countUnion(
    db,
    buildSearchUnion(ontology, sqo, scope, sectionsOf(ontology, sqo), { relatedTo: targets }),
  );
}

/** A row of matrix_time_machine as searchHistory answers it (created_at as ISO 8601). */
export type { HistoryRow } from '../store/history.js';

export interface HistoryOptions {
  /**
   * The caller's record scope: rows of a scoped section are listed only while the record still
   * exists and is in scope (a deleted record's history is then hidden).
   */
  scope?: ScopeFn;
  /** Needed with `scope` (the record's table). */
  ontology?: Ontology;
}

function historyWhere(sqo: Sqo, options: HistoryOptions): SqlCondition & { empty: boolean } {
  const params: unknown[] = [];
  const add = (v: unknown, cast: string) => {
    params.push(v);
    return `$${params.length}${cast}`;
  };
  const sections = sqo.section_tipo.filter((s) => s !== 'all');
  const where: string[] = [];
  if (!(sqo.section_tipo.length === 1 && sqo.section_tipo[0] === 'all')) {
    where.push(
      `tm.section_tipo = ANY(ARRAY(SELECT jsonb_array_elements_text(${add(JSON.stringify(sections), '::jsonb')})))`,
    );
  }
  if (sqo.filter_by_locators !== undefined) {
    if (sqo.filter_by_locators.length === 0) return { sql: 'FALSE', params: [], empty: true };
    const any = sqo.filter_by_locators.map((l) => {
      const parts = [
        `tm.section_tipo = ${add(l.section_tipo, '::text')}`,
        `tm.section_id = ${add(l.section_id, '::integer')}`,
      ];
      if (l.tipo !== undefined) parts.push(`tm.tipo = ${add(l.tipo, '::text')}`);
      if (l.lang !== undefined) parts.push(`tm.lang = ${add(l.lang, '::text')}`);
      return `(${parts.join(' AND ')})`;
    });
    where.push(`(${any.join(' OR ')})`);
  }
  if (options.scope) {
    const ontology = options.ontology;
    if (!ontology) throw new Error('searchHistory: a scope needs the ontology');
    const scoped: string[] = [];
    for (const sectionTipo of sections) {
      const table: MatrixTable | undefined = ontology.tableOf(sectionTipo);
      if (!table || !isMatrixTable(table)) continue;
      const condition = options.scope(sectionTipo, params.length + 1, 'm');
      if (!condition) continue;
      params.push(...condition.params);
      scoped.push(`(tm.section_tipo = ${add(sectionTipo, '::text')} AND NOT EXISTS (SELECT 1 FROM ${table} m
        WHERE m.section_tipo = tm.section_tipo AND m.section_id = tm.section_id AND (${condition.sql})))`);
    }
    if (scoped.length > 0) where.push(`NOT (${scoped.join(' OR ')})`);
  }
  return { sql: where.length === 0 ? 'TRUE' : where.join(' AND '), params, empty: false };
}

/**
 * History rows (`mode: 'tm'`) of the SQO's sections, selected by `filter_by_locators`
 * (`{section_tipo, section_id, tipo?, lang?}`), newest first (`id DESC`) unless the SQO orders
 * by `id`/`section_id` ascending; limit and offset apply.
 */
export async function searchHistory(
  db: SqlQueryable,
  sqo: Sqo,
  options: HistoryOptions = {},
): Promise<HistoryRow[]> {
  const where = historyWhere(sqo, options);
  if (where.empty) return [];
  const first = sqo.order?.[0]?.path.at(-1)?.component_tipo;
  const direction = sqo.order?.[0]?.direction ?? 'DESC';
  const orderBy =
    first === 'section_id'
      ? `tm.section_id ${direction}, tm.id ${direction}`
      : `tm.id ${first === 'id' ? direction : 'DESC'}`;
  const params = [...where.params, sqo.limit, sqo.offset];
  const { rows } = await db.query<{
    id: string;
    kind: 'component' | 'snapshot';
    section_tipo: string;
    section_id: number;
    tipo: string | null;
    lang: string | null;
    data: unknown;
    user_id: number | null;
    username: string | null;
    full_username: string | null;
    created_at: Date | string;
    import_id: string | null;
    undo_of_import: string | null;
    import_file: string | null;
  }>(
    // The user's names come with the row (one join), so the history can say who, not "user 7";
    // a row written by an import names it (and its file), so History can say "imported from".
    `SELECT tm.id::text AS id, tm.kind, tm.section_tipo, tm.section_id, tm.tipo, tm.lang, tm.data,
       tm.user_id, tm.created_at,
       u.string->'dd132'->0->>'value' AS username, u.string->'dd452'->0->>'value' AS full_username,
       tm.import_id::text AS import_id, tm.undo_of_import::text AS undo_of_import, i.file_name AS import_file
     FROM matrix_time_machine tm
     LEFT JOIN matrix_users u ON u.section_tipo = 'dd128' AND u.section_id = tm.user_id
     LEFT JOIN imports i ON i.id = COALESCE(tm.import_id, tm.undo_of_import)
     WHERE ${where.sql}
     ORDER BY ${orderBy}
     LIMIT $${params.length - 1}::integer OFFSET $${params.length}::integer`,
    params,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    section_tipo: r.section_tipo,
    section_id: Number(r.section_id),
    tipo: r.tipo,
    lang: r.lang,
    data: r.data,
    user_id: r.user_id === null ? null : Number(r.user_id),
    username: r.username ?? null,
    full_username: r.full_username ?? null,
    created_at: new Date(r.created_at).toISOString(),
    ...(r.import_id !== null || r.undo_of_import !== null
      ? {
          import: {
            id: Number(r.import_id ?? r.undo_of_import),
            undo: r.import_id === null,
            file_name: r.import_file ?? '',
          },
        }
      : {}),
  }));
}

export async function countHistory(
  db: SqlQueryable,
  sqo: Sqo,
  options: HistoryOptions = {},
): Promise<number> {
  const where = historyWhere(sqo, options);
  if (where.empty) return 0;
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM matrix_time_machine tm WHERE ${where.sql}`,
    where.params,
  );
  return Number(rows[0]?.n ?? 0);
}

/** A whole stored record row (read_raw). */
export interface RawRecordRow {
  section_tipo: string;
  section_id: number;
  string: Record<string, unknown>;
  relation: Record<string, unknown>;
  date: Record<string, unknown>;
  number: Record<string, unknown>;
  media: Record<string, unknown>;
  misc: Record<string, unknown>;
  meta: Record<string, unknown>;
  created_at: string;
  created_by: number | null;
  modified_at: string | null;
  modified_by: number | null;
}

/** The stored rows of these records, in the order given (missing ones skipped). */
export async function readRecordRows(
  db: SqlQueryable,
  ontology: Ontology,
  records: readonly RecordRef[],
): Promise<RawRecordRow[]> {
  const byTable = new Map<MatrixTable, RecordRef[]>();
  for (const r of records) {
    const table = ontology.tableOf(r.section_tipo);
    if (!table || !isMatrixTable(table)) continue;
    byTable.set(table, [...(byTable.get(table) ?? []), r]);
  }
  const found = new Map<string, RawRecordRow>();
  const key = (st: string, id: number) => `${st}\u0000${id}`;
  for (const [table, refs] of byTable) {
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT t.section_tipo, t.section_id, ${DATA_COLUMNS.map((c) => `t.${c}`).join(', ')}, t.meta,
         t.created_at, t.created_by, t.modified_at, t.modified_by
       FROM ${table} t
       JOIN jsonb_to_recordset($1::jsonb) AS k(section_tipo text, section_id integer)
         ON t.section_tipo = k.section_tipo AND t.section_id = k.section_id`,
      [JSON.stringify(refs)],
    );
    for (const row of rows) {
      const iso = (v: unknown) =>
        v === null || v === undefined ? null : new Date(v as string).toISOString();
      const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
      const record = {
        ...(row as object),
        section_id: Number(row.section_id),
        created_at: iso(row.created_at) ?? '',
        created_by: num(row.created_by),
        modified_at: iso(row.modified_at),
        modified_by: num(row.modified_by),
      } as RawRecordRow;
      found.set(key(record.section_tipo, record.section_id), record);
    }
  }
  return records.flatMap((r) => {
    const row = found.get(key(r.section_tipo, r.section_id));
    return row ? [row] : [];
  });
}
