/**
 * Sqo -> SQL. Identifiers come only from the closed table/column lists (matrix-tables.ts) and
 * the ontology (checked again here); every value is a bound parameter. One SELECT per searched
 * section (a section lives in one table), joined by UNION ALL, each branch carrying
 * `section_id > 0`, the caller's project scope for that section and the filter.
 *
 * How each leaf is answered (docs/work-sqo.md):
 * - text: the `matrix_string_search` side table (lower(unaccent(value)) with a trigram index,
 *   migration 4) through LIKE patterns; a record matches when one of its values matches.
 *   The activity log is not in it (string-search-tables.ts): the same patterns on its rows' items.
 * - numbers and dates: the component's items (work_jsonb_numeric / work_date_time).
 * - relations: containment `relation @> {"<tipo>":[{section_tipo, section_id}]}` (the GIN index),
 *   once with a numeric and once with a text section_id (imported data stores "3").
 * - a multi-step path: EXISTS over the portal's locators joined to the next section's table.
 */
import { COMPONENT_MODELS, isComponentModel } from '../ontology/component-models.js';
import type { Ontology } from '../ontology/load-ontology.js';
import { DATA_COLUMNS, type DataColumn, isMatrixTable, type MatrixTable } from '../store/matrix-tables.js';
import { PATTERN_INDEX_CHARS } from './index-limits.js';
import type { FilterNode, LeafTest, OrderItem, PathStep, Sqo } from './sqo-types.js';
import { inStringSearch } from './string-search-tables.js';

export interface SqlCondition {
  sql: string;
  params: unknown[];
}

/**
 * The caller's record scope in a section, as a condition on that section's matrix rows
 * (placeholders numbered from `firstParam`, columns through `alias`), or undefined when nothing
 * limits it. search-scope.ts builds it from a user's access.
 */
export type ScopeFn = (sectionTipo: string, firstParam: number, alias: string) => SqlCondition | undefined;

/** No scope: every record (system tasks, global admins). */
export const NO_SCOPE: ScopeFn = () => undefined;

/** A search built for the database: text and its parameters. */
export interface BuiltQuery {
  sql: string;
  params: unknown[];
}

class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
  /** Appends an externally built condition (numbered from the next parameter). */
  external(build: (firstParam: number) => SqlCondition | undefined): string | undefined {
    const condition = build(this.values.length + 1);
    if (!condition) return undefined;
    this.values.push(...condition.params);
    return `(${condition.sql})`;
  }
}

const arrayOf = (value: string) =>
  `(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]'::jsonb END)`;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Checked identifiers: the closed lists, never request text. */
function tableOf(ontology: Ontology, sectionTipo: string): MatrixTable {
  const table = ontology.tableOf(sectionTipo);
  if (!table || !isMatrixTable(table)) throw new Error(`search: ${sectionTipo} has no matrix table`);
  return table;
}

function columnOf(ontology: Ontology, tipo: string): DataColumn {
  const column = ontology.dataColumnOf(tipo);
  if (!column || !(DATA_COLUMNS as readonly string[]).includes(column)) {
    throw new Error(`search: ${tipo} is not a component`);
  }
  return column;
}

const ALIAS = /^[a-z][a-z0-9_]*$/;

/** Builds the SQL of one SQO; aliases are numbered so nested paths never collide. */
export class SqoSqlBuilder {
  private aliasCount = 0;
  readonly params = new Params();

  constructor(
    private readonly ontology: Ontology,
    private readonly scope: ScopeFn,
    /**
     * Words already normalised by the database (lower(unaccent(word)), search-records.ts
     * normaliseWords), so the LIKE patterns are constants the planner matches against the
     * trigram index. A word missing here is normalised inside the statement (same result).
     */
    private readonly normalised: ReadonlyMap<string, string> = new Map(),
  ) {}

  private alias(prefix: string): string {
    this.aliasCount += 1;
    const alias = `${prefix}${this.aliasCount}`;
    if (!ALIAS.test(alias)) throw new Error('search: bad alias');
    return alias;
  }

  scopeOf(sectionTipo: string, alias: string): string | undefined {
    return this.params.external((first) => this.scope(sectionTipo, first, alias));
  }

  /** The filter as a condition on the rows of `sectionTipo` seen through `alias`. */
  filter(node: FilterNode, sectionTipo: string, alias: string): string {
    if (node.kind === 'group') {
      const parts = node.children.map((c) => this.filter(c, sectionTipo, alias));
      if (node.op === '$not') return `NOT (${parts.join(' AND ')})`;
      return `(${parts.join(node.op === '$and' ? ' AND ' : ' OR ')})`;
    }
    const first = node.path[0]!;
    // A leaf about another section of a multi-section SQO does not hold in this one.
    if (first.section_tipo !== undefined && first.section_tipo !== sectionTipo) return 'FALSE';
    return this.leafAt(node.path, 0, alias, sectionTipo, (a, step, section) =>
      this.tests(node.tests, step, a, node.lang, section),
    );
  }

  /**
   * Walks `path` from step `i` on the row `alias`: the last step is tested by `test`, every
   * earlier one hops through its locators into the next section's table.
   */
  private leafAt(
    path: PathStep[],
    i: number,
    alias: string,
    sectionTipo: string,
    test: (alias: string, step: PathStep, sectionTipo: string) => string,
  ): string {
    const step = path[i]!;
    if (i === path.length - 1) return test(alias, step, sectionTipo);
    const next = path[i + 1]!;
    const nextSection = next.section_tipo!;
    const nextTable = tableOf(this.ontology, nextSection);
    const l = this.alias('l');
    const h = this.alias('h');
    const value = `${alias}.${columnOf(this.ontology, step.component_tipo)} -> ${this.params.add(step.component_tipo, '::text')}`;
    const sectionParam = this.params.add(nextSection, '::text');
    const scope = this.scopeOf(nextSection, h);
    return `EXISTS (SELECT 1 FROM jsonb_array_elements(${arrayOf(value)}) AS ${l}(v)
      JOIN ${nextTable} ${h} ON ${h}.section_tipo = ${sectionParam}
        AND ${h}.section_id = (CASE WHEN ${l}.v ->> 'section_id' ~ '^-?[0-9]{1,9}$' THEN (${l}.v ->> 'section_id')::integer END)
      WHERE ${l}.v ->> 'section_tipo' = ${sectionParam} AND ${h}.section_id > 0${scope ? ` AND ${scope}` : ''}
        AND ${this.leafAt(path, i + 1, h, nextSection, test)})`;
  }

  private tests(
    tests: LeafTest[],
    step: PathStep,
    alias: string,
    lang: string | undefined,
    sectionTipo: string,
  ): string {
    const parts = tests.map((t) => this.test(t, step, alias, lang, sectionTipo));
    return parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`;
  }

  private test(
    test: LeafTest,
    step: PathStep,
    alias: string,
    lang: string | undefined,
    sectionTipo: string,
  ): string {
    const tipo = step.component_tipo;
    if (tipo === 'section_id' || tipo === 'id') return this.structural(test, `${alias}.section_id`, alias);
    if (tipo === 'section_tipo') return this.structural(test, `${alias}.section_tipo`, alias);
    const node = this.ontology.node(tipo);
    if (!node || !isComponentModel(node.model)) throw new Error(`search: ${tipo} is not a component`);
    const column = COMPONENT_MODELS[node.model].column;
    if (column === 'string') {
      return inStringSearch(tableOf(this.ontology, sectionTipo))
        ? this.textTest(test, tipo, alias, lang)
        : this.ownTextTest(test, tipo, alias, lang);
    }
    if (column === 'number' || column === 'date') return this.numberTest(test, tipo, alias);
    const items = () =>
      arrayOf(`${alias}.${columnOf(this.ontology, tipo)} -> ${this.params.add(tipo, '::text')}`);
    if (test.kind === 'presence') {
      const any = `jsonb_array_length(${items()}) > 0`;
      return test.present ? any : `NOT ${any}`;
    }
    if (test.kind === 'locators' && column === 'relation') {
      const parts = test.locators.flatMap((l) =>
        [l.section_id, String(l.section_id)].map(
          (id) =>
            `${alias}.relation @> ${this.params.add(JSON.stringify({ [tipo]: [{ section_tipo: l.section_tipo, section_id: id }] }), '::jsonb')}`,
        ),
      );
      const cond = `(${parts.join(' OR ')})`;
      return test.negate ? `NOT ${cond}` : cond;
    }
    throw new Error(`search: test ${test.kind} does not apply to ${tipo}`);
  }

  private bounds(expr: string, test: Extract<LeafTest, { kind: 'range' }>): string {
    const parts = [`${expr} IS NOT NULL`];
    if (test.lower)
      parts.push(
        `${expr} ${test.lower.inclusive ? '>=' : '>'} ${this.params.add(String(test.lower.value), '::numeric')}`,
      );
    if (test.upper)
      parts.push(
        `${expr} ${test.upper.inclusive ? '<=' : '<'} ${this.params.add(String(test.upper.value), '::numeric')}`,
      );
    return parts.join(' AND ');
  }

  private structural(test: LeafTest, column: string, alias: string): string {
    if (test.kind === 'presence') return test.present ? 'TRUE' : 'FALSE';
    if (test.kind === 'range') {
      const cond = this.bounds(column, test);
      return test.negate ? `NOT (${cond})` : `(${cond})`;
    }
    if (test.kind === 'text') {
      const cond = `${column} = ANY(ARRAY(SELECT jsonb_array_elements_text(${this.params.add(JSON.stringify(test.words), '::jsonb')})))`;
      return test.negate ? `NOT (${cond})` : cond;
    }
    throw new Error(`search: test ${test.kind} does not apply to ${alias} structural columns`);
  }

  /** Numbers and dates: through matrix_number_search (btree on component and value). */
  private numberTest(test: LeafTest, tipo: string, alias: string): string {
    const n = this.alias('n');
    const where = [`${n}.component_tipo = ${this.params.add(tipo, '::text')}`];
    let negate = false;
    if (test.kind === 'presence') {
      negate = !test.present;
    } else if (test.kind === 'range') {
      negate = test.negate;
      where.push(this.bounds(`${n}.value`, test));
    } else {
      throw new Error(`search: test ${test.kind} does not apply to ${tipo}`);
    }
    const cond = `(${alias}.section_tipo, ${alias}.section_id) IN (SELECT ${n}.section_tipo, ${n}.section_id
      FROM matrix_number_search ${n} WHERE ${where.join(' AND ')})`;
    return negate ? `NOT ${cond}` : cond;
  }

  /** Text: through the normalised side table (trigram index). */
  private textTest(test: LeafTest, tipo: string, alias: string, lang: string | undefined): string {
    const s = this.alias('s');
    const { where, negate } = this.textConditions(test, tipo, lang, `${s}.lang`, `${s}.value_norm`, true);
    where.unshift(`${s}.component_tipo = ${this.params.add(tipo, '::text')}`);
    const cond = `(${alias}.section_tipo, ${alias}.section_id) IN (SELECT ${s}.section_tipo, ${s}.section_id
      FROM matrix_string_search ${s} WHERE ${where.join(' AND ')})`;
    return negate ? `NOT ${cond}` : cond;
  }

  /**
   * Text of a table outside the side table (string-search-tables.ts: the activity log): the same
   * test on the row's own items, normalised as the side table's trigger would (migration 4's
   * stringRowsOf), so a filter matches the same records either way, without an index.
   */
  private ownTextTest(test: LeafTest, tipo: string, alias: string, lang: string | undefined): string {
    const e = this.alias('e');
    const { where, negate } = this.textConditions(
      test,
      tipo,
      lang,
      `COALESCE(NULLIF(${e}.item ->> 'lang', ''), 'lg-nolan')`,
      `lower(unaccent(${e}.item ->> 'value'))`,
      false,
    );
    where.unshift(`jsonb_typeof(${e}.item -> 'value') = 'string'`);
    const items = arrayOf(`${alias}.string -> ${this.params.add(tipo, '::text')}`);
    const cond = `EXISTS (SELECT 1 FROM jsonb_array_elements(${items}) AS ${e}(item) WHERE ${where.join(' AND ')})`;
    return negate ? `NOT ${cond}` : cond;
  }

  /** A text test's conditions on a language and a normalised value (side table or own items). */
  private textConditions(
    test: LeafTest,
    tipo: string,
    lang: string | undefined,
    langSql: string,
    valueSql: string,
    /** `valueSql` is matrix_string_search.value_norm (its btree can bound a prefix). */
    sideTable: boolean,
  ): { where: string[]; negate: boolean } {
    const where: string[] = [];
    if (lang !== undefined) where.push(`${langSql} = ${this.params.add(lang, '::text')}`);
    let negate = false;
    if (test.kind === 'presence') {
      where.push(`${valueSql} <> ''`);
      negate = !test.present;
    } else if (test.kind === 'text') {
      negate = test.negate;
      for (const word of test.words) {
        const known = this.normalised.get(word);
        const w = escapeLike(known ?? word);
        const pattern =
          test.op === 'contains'
            ? `%${w}%`
            : test.op === 'begins'
              ? `${w}%`
              : test.op === 'ends'
                ? `%${w}`
                : w;
        const param = this.params.add(pattern, '::text');
        where.push(`${valueSql} LIKE ${known === undefined ? `lower(unaccent(${param}))` : param}`);
        // In the side table, a prefix or a whole value short enough also bounds the btree on the
        // value's first characters (migration 16): a range scan instead of every leading
        // trigram's postings.
        if (
          sideTable &&
          known !== undefined &&
          known.length <= PATTERN_INDEX_CHARS &&
          (test.op === 'begins' || test.op === 'exact')
        ) {
          where.push(`left(${valueSql}, ${PATTERN_INDEX_CHARS}) LIKE ${param}`);
        }
      }
    } else {
      throw new Error(`search: test ${test.kind} does not apply to text ${tipo}`);
    }
    return { where, negate };
  }

  /**
   * The value a record is ordered by for one order item: text (lower, unaccented; the item in
   * `lang` for translatable components) or numeric; NULL when the record has none.
   */
  orderValue(
    item: OrderItem,
    sectionTipo: string,
    alias: string,
    lang: string,
  ): { sql: string; text: boolean } {
    const last = item.path[item.path.length - 1]!;
    const text = this.orderIsText(last);
    const first = item.path[0]!;
    if (first.section_tipo !== undefined && first.section_tipo !== sectionTipo) {
      return { sql: text ? 'NULL::text' : 'NULL::numeric', text };
    }
    return { sql: this.orderAt(item.path, 0, alias, item.lang ?? lang), text };
  }

  orderIsText(step: PathStep): boolean {
    if (step.component_tipo === 'section_tipo') return true;
    return this.ontology.dataColumnOf(step.component_tipo) === 'string';
  }

  /**
   * Where a component's order value is kept in matrix_sort_key (migration 16): text under its
   * language (translatable) or `*` (the first value whatever its language), numbers and dates
   * under `*`. Undefined for components ordered otherwise (relations: the first locator).
   */
  sortKeyOf(tipo: string, lang: string): { column: 'text_key' | 'num_key'; lang: string } | undefined {
    const column = this.ontology.dataColumnOf(tipo);
    if (column === 'string') {
      return { column: 'text_key', lang: this.ontology.node(tipo)?.translatable === true ? lang : '*' };
    }
    if (column === 'number' || column === 'date') return { column: 'num_key', lang: '*' };
    return undefined;
  }

  private orderAt(path: PathStep[], i: number, alias: string, lang: string): string {
    const step = path[i]!;
    const tipo = step.component_tipo;
    if (i < path.length - 1) {
      const next = path[i + 1]!;
      const nextSection = next.section_tipo!;
      const l = this.alias('l');
      const h = this.alias('h');
      const value = `${alias}.${columnOf(this.ontology, tipo)} -> ${this.params.add(tipo, '::text')}`;
      const sectionParam = this.params.add(nextSection, '::text');
      return `(SELECT ${this.orderAt(path, i + 1, h, lang)}
        FROM jsonb_array_elements(${arrayOf(value)}) WITH ORDINALITY AS ${l}(v, n)
        JOIN ${tableOf(this.ontology, nextSection)} ${h} ON ${h}.section_tipo = ${sectionParam}
          AND ${h}.section_id = (CASE WHEN ${l}.v ->> 'section_id' ~ '^-?[0-9]{1,9}$' THEN (${l}.v ->> 'section_id')::integer END)
        WHERE ${l}.v ->> 'section_tipo' = ${sectionParam}
        ORDER BY ${l}.n LIMIT 1)`;
    }
    if (tipo === 'section_id' || tipo === 'id') return `${alias}.section_id::numeric`;
    if (tipo === 'section_tipo') return `${alias}.section_tipo`;
    const key = this.sortKeyOf(tipo, lang);
    if (key) {
      // The value migration 16's triggers keep in matrix_sort_key (the same for every path).
      const k = this.alias('k');
      return `(SELECT ${k}.${key.column} FROM matrix_sort_key ${k}
        WHERE ${k}.section_tipo = ${alias}.section_tipo AND ${k}.section_id = ${alias}.section_id
          AND ${k}.component_tipo = ${this.params.add(tipo, '::text')} AND ${k}.lang = ${this.params.add(key.lang, '::text')}
          AND ${k}.${key.column} IS NOT NULL LIMIT 1)`;
    }
    const column = columnOf(this.ontology, tipo);
    const value = `${alias}.${column} -> ${this.params.add(tipo, '::text')}`;
    const e = this.alias('e');
    const items = `jsonb_array_elements(${arrayOf(value)}) WITH ORDINALITY AS ${e}(v, n)`;
    switch (column) {
      case 'relation':
        return `(SELECT (${e}.v ->> 'section_id')::numeric FROM ${items}
          WHERE ${e}.v ->> 'section_id' ~ '^-?[0-9]{1,9}$' ORDER BY ${e}.n LIMIT 1)`;
      default:
        throw new Error(`search: ${tipo} cannot be ordered by`);
    }
  }
}

/** How a branch is restricted besides the filter: a fixed record set or "points at". */
export interface BranchOptions {
  /** Normalised text words (see SqoSqlBuilder). */
  normalised?: ReadonlyMap<string, string>;
  /** Related mode: records holding a locator to one of these (optionally from one component). */
  relatedTo?: { section_tipo: string; section_id: number; tipo?: string }[];
  /**
   * The union feeds a page (ORDER BY, LIMIT, OFFSET): a branch ordered by one component's sort
   * key may then read its first `offset + limit` rows in order from the sort-key index.
   */
  page?: boolean;
}

/** Relation components of a section (the keys of its `relation` column). */
function relationComponents(ontology: Ontology, sectionTipo: string): string[] {
  return ontology
    .sectionComponents(sectionTipo)
    .filter((c) => isComponentModel(c.model) && COMPONENT_MODELS[c.model].relation)
    .map((c) => c.tipo);
}

/**
 * The UNION ALL of one branch per section, each projecting section_tipo, section_id, the order
 * keys (k0, k1 ...) and `fl_ord` (the position in filter_by_locators, or NULL).
 */
export function buildSearchUnion(
  ontology: Ontology,
  sqo: Sqo,
  scope: ScopeFn,
  sections: readonly string[],
  options: BranchOptions = {},
):
  | {
      builder: SqoSqlBuilder;
      union: string;
      /** Common table expressions the union reads (`kdN AS (...)`), for a page only. */
      ctes: string[];
      orderKeys: { text: boolean; direction: 'ASC' | 'DESC' }[];
    }
  | undefined {
  const b = new SqoSqlBuilder(ontology, scope, options.normalised);
  const p = b.params;
  const related = options.relatedTo !== undefined;
  const locators = related ? undefined : sqo.filter_by_locators;
  const orderKeys = (sqo.order ?? []).map((o) => ({
    text: b.orderIsText(o.path[o.path.length - 1]!),
    direction: o.direction,
  }));
  const branches: string[] = [];
  const ctes: string[] = [];
  const sorted = options.page && !related && !locators ? sortedPageOrder(b, sqo) : undefined;
  let pageRows: string | undefined;
  for (const sectionTipo of sections) {
    const table = tableOf(ontology, sectionTipo);
    const r = 'r0';
    // What decides that a branch selects nothing is settled before any parameter is bound.
    const pointing: [string, unknown][] = [];
    if (related) {
      const components = relationComponents(ontology, sectionTipo);
      for (const target of options.relatedTo ?? []) {
        for (const tipo of components) {
          if (target.tipo !== undefined && target.tipo !== tipo) continue;
          for (const id of [target.section_id, String(target.section_id)]) {
            pointing.push([tipo, { section_tipo: target.section_tipo, section_id: id }]);
          }
        }
      }
      if (pointing.length === 0) continue;
    }
    const mine: { sid: number; ord: number }[] = [];
    if (locators) {
      const seen = new Set<number>();
      locators.forEach((l, i) => {
        if (l.section_tipo !== sectionTipo || seen.has(l.section_id)) return;
        seen.add(l.section_id);
        mine.push({ sid: l.section_id, ord: i + 1 });
      });
      if (mine.length === 0 && !(sqo.filter && sqo.filter_by_locators_op === 'OR')) continue;
    }
    const where = [`${r}.section_tipo = ${p.add(sectionTipo, '::text')}`, `${r}.section_id > 0`];
    const scopeSql = b.scopeOf(sectionTipo, r);
    if (scopeSql) where.push(scopeSql);
    let join = '';
    let flOrd = 'NULL::integer';
    if (related) {
      const conditions = pointing.map(
        ([tipo, target]) => `${r}.relation @> ${p.add(JSON.stringify({ [tipo]: [target] }), '::jsonb')}`,
      );
      where.push(`(${conditions.join(' OR ')})`);
    } else {
      const filterSql = sqo.filter ? b.filter(sqo.filter, sectionTipo, r) : undefined;
      if (locators) {
        const set = `jsonb_to_recordset(${p.add(JSON.stringify(mine), '::jsonb')}) AS fl(sid integer, ord integer)`;
        if (filterSql && sqo.filter_by_locators_op === 'OR') {
          join = `LEFT JOIN ${set} ON fl.sid = ${r}.section_id`;
          where.push(`(fl.ord IS NOT NULL OR ${filterSql})`);
        } else {
          join = `JOIN ${set} ON fl.sid = ${r}.section_id`;
          if (filterSql) where.push(filterSql);
        }
        flOrd = 'fl.ord';
      } else if (filterSql) {
        where.push(filterSql);
      }
    }
    const first = sorted?.item.path[0];
    if (sorted && (first?.section_tipo === undefined || first.section_tipo === sectionTipo)) {
      pageRows ??= p.add(sqo.offset + sqo.limit, '::integer');
      const cte = `kd${ctes.length}`;
      const { column, lang } = sorted.key;
      const sk = (alias: string) =>
        `${alias}.component_tipo = ${p.add(sorted.tipo, '::text')} AND ${alias}.lang = ${p.add(lang, '::text')}
          AND ${alias}.${column} IS NOT NULL`;
      // The records holding a key, in order from the index; those without one come after all of
      // them (NULLS LAST, by section_id), so they are read only when the first part falls short.
      // Nothing but the section and section_id > 0 restricts the branch: the keys alone answer
      // (a key row exists exactly while its record does: the triggers write both in one
      // transaction), without a lookup of every record read in order.
      const keysAlone = where.length === 2;
      ctes.push(`${cte} AS (SELECT sk.section_tipo, sk.section_id, NULL::integer AS fl_ord, sk.${column} AS k0
        FROM matrix_sort_key sk${keysAlone ? '' : ` JOIN ${table} ${r} ON ${r}.section_tipo = sk.section_tipo AND ${r}.section_id = sk.section_id`}
        WHERE sk.section_tipo = ${p.add(sectionTipo, '::text')} AND sk.section_id > 0 AND ${sk('sk')}${keysAlone ? '' : ` AND ${where.join(' AND ')}`}
        ORDER BY sk.${column} ${sorted.item.direction}, sk.section_id ASC LIMIT ${pageRows})`);
      branches.push(`SELECT * FROM ${cte}`);
      branches.push(`(SELECT ${r}.section_tipo, ${r}.section_id, NULL::integer AS fl_ord, NULL::${column === 'text_key' ? 'text' : 'numeric'} AS k0
        FROM ${table} ${r}
        WHERE ${where.join(' AND ')} AND (SELECT count(*) FROM ${cte}) < ${pageRows}
          AND NOT EXISTS (SELECT 1 FROM matrix_sort_key skn WHERE skn.section_tipo = ${r}.section_tipo
            AND skn.section_id = ${r}.section_id AND ${sk('skn')})
        ORDER BY ${r}.section_id ASC LIMIT ${pageRows})`);
      continue;
    }
    const keys = (sqo.order ?? []).map((o, i) => `${b.orderValue(o, sectionTipo, r, sqo.lang).sql} AS k${i}`);
    branches.push(
      `SELECT ${r}.section_tipo, ${r}.section_id, ${flOrd} AS fl_ord${keys.map((k) => `, ${k}`).join('')}
       FROM ${table} ${r} ${join}
       WHERE ${where.join(' AND ')}`,
    );
  }
  if (branches.length === 0) return undefined;
  return { builder: b, union: branches.join('\nUNION ALL\n'), ctes, orderKeys };
}

/** A page ordered by exactly one component of the record itself that has a sort key. */
function sortedPageOrder(b: SqoSqlBuilder, sqo: Sqo) {
  const item = sqo.order?.length === 1 ? sqo.order[0] : undefined;
  if (item?.path.length !== 1) return undefined;
  const tipo = item.path[0]!.component_tipo;
  const key = b.sortKeyOf(tipo, item.lang ?? sqo.lang);
  return key ? { item, tipo, key } : undefined;
}

/** ORDER BY of the union: order keys (NULLS LAST), else the locators' order, then section_id. */
export function orderByOf(
  orderKeys: { text: boolean; direction: 'ASC' | 'DESC' }[],
  hasLocators: boolean,
): string {
  const parts = orderKeys.map((k, i) => `u.k${i}${k.text ? ' COLLATE "C"' : ''} ${k.direction} NULLS LAST`);
  if (parts.length === 0 && hasLocators) parts.push('u.fl_ord ASC NULLS LAST');
  parts.push('u.section_id ASC', 'u.section_tipo ASC');
  return parts.join(', ');
}

/** Every word a text test of the filter searches for (to normalise them in one round trip). */
export function textWords(sqo: Sqo): string[] {
  const words = new Set<string>();
  const visit = (node: FilterNode) => {
    if (node.kind === 'group') node.children.forEach(visit);
    else for (const t of node.tests) if (t.kind === 'text') for (const w of t.words) words.add(w);
  };
  if (sqo.filter) visit(sqo.filter);
  return [...words];
}
