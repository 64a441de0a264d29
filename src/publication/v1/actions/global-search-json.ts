/**
 * global_search_json (alias global_search_mdcat, docs/publication-v1.md): the JSON search of the
 * `global_search` table that MDCat-style websites send as one `json_search` string
 * `{database, lang, query, filters, pagination:{limit, offset}, sort:{name, direction}}`.
 * Every filter name maps to a kind of condition on the column of that name; values are bound
 * parameters, columns are checked against the live table (a filter whose column the table lacks
 * is refused, naming it). Its own answer shape: `{total, results}`, `{results:false}` for
 * invalid JSON, `{results:false, error_msg, error_id:1}` for a failed query.
 */
import type { Expr, ExprOrder, TableInfo } from '../../db/types.js';
import { parseSearchQuery } from '../../text/search-query.js';
import { tableOf, type V1Call } from '../v1-call.js';
import { failureBody, V1Error } from '../v1-errors.js';
import { relationItems } from '../v1-rows.js';

const LANGS: Record<string, string> = { ca: 'lg-cat', es: 'lg-spa', en: 'lg-eng', fr: 'lg-fra' };

type FilterKind =
  | 'contains_any' // a value (or any of several) inside a JSON list column
  | 'substring'
  | 'equal'
  | 'int'
  | 'date' // a unix timestamp, or [from, to]
  | 'dead_at_prison'
  | 'contains_all' // every value of an array inside a JSON list column
  | 'contains_any_or_star' // any value of an array; "*" means "not empty"
  | 'data_mod';

const FILTERS: Record<string, FilterKind> = {
  ...Object.fromEntries(
    [
      'birth_place',
      'exile_place',
      'municipality',
      'neighborhood',
      'prison',
      'project',
      'region',
      'fons_code',
    ].map((n) => [n, 'contains_any']),
  ),
  ...Object.fromEntries(
    ['name_surname', 'prison_municipality', 'pub_author', 'pub_editor', 'residence_place', 'title'].map(
      (n) => [n, 'substring'],
    ),
  ),
  theme: 'equal',
  typology: 'equal',
  pub_year: 'equal',
  gender: 'int',
  ...Object.fromEntries(['start_date', 'end_date', 'stolpersteine_date'].map((n) => [n, 'date'])),
  dead_at_prison: 'dead_at_prison',
  ...Object.fromEntries(
    [
      'thesaurus',
      'situation_place',
      'nazi_camp',
      'nazi_sub_camp',
      'prisoner_number',
      'stolpersteine_place',
      'archeological_site_type',
      'intervention_types',
      'result',
      'graves_genders',
      'ages',
      'death_context',
      'buried_type',
    ].map((n) => [n, 'contains_all']),
  ),
  ...Object.fromEntries(
    ['situation', 'symbol_state', 'stolpersteine'].map((n) => [n, 'contains_any_or_star']),
  ),
  ...Object.fromEntries(
    ['graves_category', 'conservation', 'marked', 'dignified', 'inside_cemetery', 'grave_by_number'].map(
      (n) => [n, 'int'],
    ),
  ),
  data_mod: 'data_mod',
};

const col = (name: string): Expr => ({ kind: 'column', name });
const lit = (value: string | number | null): Expr => ({ kind: 'literal', value });
const cmp = (op: '=' | '<' | '<=' | '>' | '>=' | 'LIKE', left: Expr, right: Expr): Expr => ({
  kind: 'compare',
  op,
  left,
  right,
});

const scalar = (name: string, v: unknown): string | number => {
  if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
  throw new V1Error(`filter ${name}: expected a text or a number`);
};

const integer = (name: string, v: unknown): number => {
  const n =
    typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw new V1Error(`filter ${name}: expected an integer`);
  return n;
};

/** The value as a list: an array as is, one value as a list of one. */
const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

/** `value` inside a JSON list column: the stored text holds `"value"` (LIKE, bound). */
const contains = (name: string, v: unknown): Expr => cmp('LIKE', col(name), lit(`%"${scalar(name, v)}"%`));

function filterExpr(table: TableInfo, name: string, value: unknown): Expr | undefined {
  const kind = Object.hasOwn(FILTERS, name) ? FILTERS[name] : undefined;
  if (!kind) throw new V1Error(`unknown filter ${name}`);
  if (!table.columnsByName.has(name)) throw new V1Error(`filter ${name}: the table has no column ${name}`);
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0))
    return undefined;
  switch (kind) {
    case 'contains_any':
      return { kind: 'or', items: listOf(value).map((v) => contains(name, v)) };
    case 'substring':
      return cmp('LIKE', col(name), lit(`%${scalar(name, value)}%`));
    case 'equal':
      return cmp('=', col(name), lit(scalar(name, value)));
    case 'int':
      return cmp('=', col(name), lit(integer(name, value)));
    case 'date': {
      if (!Array.isArray(value)) return cmp('=', col(name), lit(integer(name, value)));
      if (value.length !== 2) throw new V1Error(`filter ${name}: expected a timestamp or [from, to]`);
      return {
        kind: 'between',
        expr: col(name),
        low: lit(integer(name, value[0])),
        high: lit(integer(name, value[1])),
        negated: false,
      };
    }
    case 'dead_at_prison':
      if (value === true || value === 'true' || value === 1) return cmp('=', col(name), lit(1));
      if (value === false || value === 'false' || value === 0)
        return { kind: 'is_null', expr: col(name), negated: false };
      throw new V1Error(`filter ${name}: expected true or false`);
    case 'contains_all':
      return { kind: 'and', items: listOf(value).map((v) => contains(name, v)) };
    case 'contains_any_or_star':
      if (value === '*' || (Array.isArray(value) && value.includes('*'))) {
        return {
          kind: 'and',
          items: [
            { kind: 'is_null', expr: col(name), negated: true },
            { kind: 'compare', op: '<>', left: col(name), right: lit('') },
            { kind: 'compare', op: '<>', left: col(name), right: lit('[]') },
          ],
        };
      }
      return { kind: 'or', items: listOf(value).map((v) => contains(name, v)) };
    case 'data_mod': {
      const m = /^\s*(>=|<=|>|<)\s*(.+)$/.exec(String(scalar(name, value)));
      // Upstream used the value as a REGEXP; regular expressions differ between engines and
      // can be made arbitrarily slow, so only the comparison forms are served.
      if (!m)
        throw new V1Error(`filter ${name}: only ">=", "<=", ">" or "<" followed by a value is supported`);
      return cmp(m[1] as '>=' | '<=' | '>' | '<', col(name), lit(m[2]!.trim()));
    }
  }
}

interface JsonSearch {
  database?: unknown;
  lang?: unknown;
  query?: unknown;
  filters?: unknown;
  pagination?: { limit?: unknown; offset?: unknown };
  sort?: { name?: unknown; direction?: unknown };
}

function readJsonSearch(raw: unknown): JsonSearch | undefined {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonSearch) : undefined;
}

const pageNumber = (name: string, v: unknown, def: number): number => {
  if (v === undefined || v === null || v === '') return def;
  const n = integer(name, v);
  if (n < 0) throw new V1Error(`${name} must not be negative`);
  return n;
};

/** One answer row: `{id, table}` from `link`, then each entry of `fields`. */
function flatten(row: Record<string, unknown>): Record<string, unknown> {
  let link: unknown = row.link;
  if (typeof link === 'string') {
    try {
      link = JSON.parse(link);
    } catch {
      link = undefined;
    }
  }
  const l = (Array.isArray(link) ? link[0] : link) as { section_id?: unknown; table?: unknown } | undefined;
  const out: Record<string, unknown> = { id: l?.section_id ?? null, table: l?.table ?? null };
  let fields: unknown = row.fields;
  if (typeof fields === 'string') {
    try {
      fields = JSON.parse(fields);
    } catch {
      fields = undefined;
    }
  }
  const entries: [string, unknown][] = Array.isArray(fields)
    ? fields
        .filter((f): f is { name: string; value?: unknown } => typeof f?.name === 'string')
        .map((f) => [f.name, f.value ?? null])
    : fields !== null && typeof fields === 'object'
      ? Object.entries(fields)
      : [];
  for (const [name, value] of entries) {
    out[name] = name === 'descriptors' && typeof value === 'string' ? relationItems(value) : value;
  }
  return out;
}

export async function globalSearchJsonAction(call: V1Call): Promise<unknown> {
  const search = readJsonSearch(call.options.json_search);
  if (!search) return { results: false };
  try {
    const table = await tableOf(call, call.v1.globalSearchTable);
    for (const needed of ['link', 'fields']) {
      if (!table.columnsByName.has(needed)) throw new V1Error(`${table.name} has no column ${needed}`);
    }
    const filters: Expr[] = [];
    const lang =
      typeof search.lang === 'string' && Object.hasOwn(LANGS, search.lang) ? LANGS[search.lang] : undefined;
    if (lang && table.hasLang) filters.push(cmp('=', col('lang'), lit(lang)));
    if (typeof search.database === 'string' && search.database !== '') {
      if (!table.columnsByName.has('table')) throw new V1Error(`${table.name} has no column table`);
      filters.push(cmp('=', col('table'), lit(search.database.toLowerCase())));
    }
    if (search.filters !== undefined && search.filters !== null) {
      if (typeof search.filters !== 'object' || Array.isArray(search.filters))
        throw new V1Error('filters must be an object');
      for (const [name, value] of Object.entries(search.filters)) {
        const e = filterExpr(table, name, value);
        if (e) filters.push(e);
      }
    }
    let match: Expr | undefined;
    const query = typeof search.query === 'string' ? search.query.trim() : '';
    if (query !== '') {
      if (!table.fulltextColumns.has('full_data'))
        throw new V1Error(`${table.name} has no full-text index on full_data`);
      // A query wrapped in single quotes is a phrase.
      const q = /^'.*'$/s.test(query) ? `"${query.slice(1, -1)}"` : query;
      match = { kind: 'match', table: table.name, column: 'full_data', search: parseSearchQuery(q) };
      filters.push(match);
    }
    const order: ExprOrder[] = [];
    const sortName = typeof search.sort?.name === 'string' ? search.sort.name : '';
    if (sortName !== '') {
      const column = sortName === 'name' ? 'sort' : sortName === 'date' ? 'start_date' : sortName;
      if (!table.columnsByName.has(column)) throw new V1Error(`sort: the table has no column ${column}`);
      const dir = String(search.sort?.direction ?? 'asc').toLowerCase();
      if (dir !== 'asc' && dir !== 'desc') throw new V1Error('sort.direction must be asc or desc');
      order.push({ expr: col(column), desc: dir === 'desc' });
    } else if (match) {
      order.push({ expr: { kind: 'alias', name: 'relevance' }, desc: true });
    }
    if (table.columnsByName.has('sort_id')) {
      order.push({ expr: { kind: 'call', fn: 'CHAR_LENGTH', args: [col('sort_id')] }, desc: false });
      order.push({ expr: col('sort_id'), desc: false });
    }
    const limit = pageNumber('pagination.limit', search.pagination?.limit, 10);
    const offset = pageNumber('pagination.offset', search.pagination?.offset, 0);
    const base = {
      table: table.name,
      columns: [],
      select: [
        { expr: col('link') },
        { expr: col('fields') },
        ...(match ? [{ expr: match, as: 'relevance' }] : []),
      ],
      where: [],
      filter: filters.length === 0 ? undefined : ({ kind: 'and', items: filters } as Expr),
      orderBy: [],
      order,
    };
    const [rows, total] = await Promise.all([
      call.ctx.driver.select(call.db, { ...base, limit: limit > 0 ? limit : undefined, offset }),
      call.ctx.driver.count(call.db, base),
    ]);
    return { total, results: rows.map(flatten) };
  } catch (err) {
    // Client mistakes and budget / time-out overruns answer this action's own failure shape.
    const { body, serverFault } = failureBody(err);
    if (serverFault) throw err;
    const msg = (body as { msg?: unknown }).msg;
    return { results: false, error_msg: typeof msg === 'string' ? msg : String(body), error_id: 1 };
  }
}
