/**
 * The thesaurus family (docs/publication-v1.md): ts_term objects, root lists, terms, children,
 * parents, autocomplete, search, random term and the plain menu tree, read from the ts tables
 * (thesaurus-tables.ts) through the request's driver.
 *
 * Decisions (docs/publication-v1.md): a term's parent is read from its `parent` column (a JSON array with one
 * term id, or a bare id), not by matching the parent's `children` text in a fixed key order;
 * root lists without `parents` show, per tld, the children of its root `<tld>_1` (from every
 * table holding the tld, however many parentless terms it has); children
 * and parents search the table of the term's prefix matched exactly (docs/publication-v1.md).
 */
import type { Condition, Expr, Row, TableInfo } from '../../db/types.js';
import { publicationFilter } from '../publication-filter.js';
import { parseFieldList } from '../sql-subset.js';
import { thesaurusMap, thesaurusTables } from '../thesaurus-tables.js';
import { optBool, optInt, optLang, optList, optString, tableOf, type V1Call } from '../v1-call.js';
import { V1Error } from '../v1-errors.js';
import { shapeRow, type V1Row } from '../v1-rows.js';

const TERM_ID = /^[A-Za-z][A-Za-z0-9]*_\d+$/;

export type TsTerm = Record<string, unknown>;

function langOf(call: V1Call): string {
  return optLang(call.options) ?? call.lang;
}

function langWhere(info: TableInfo, lang: string): Condition[] {
  return info.hasLang ? [{ column: 'lang', op: 'eq', value: lang }] : [];
}

/** The stored parent of a term row: `["ts1_2"]` or `ts1_2`, '' when none. */
export function parentOf(row: Row): string {
  const raw = row.parent;
  if (typeof raw !== 'string' || raw.trim() === '') return '';
  const t = raw.trim();
  if (t.startsWith('[')) {
    try {
      const list = JSON.parse(t) as unknown[];
      return typeof list[0] === 'string' ? list[0] : '';
    } catch {
      return '';
    }
  }
  return t;
}

function restrictedWhere(call: V1Call, info: TableInfo): Condition[] {
  const list = call.v1.restrictedTerms;
  return list.length > 0 && info.columnsByName.has('term_id')
    ? [{ column: 'term_id', op: 'not_in', value: list }]
    : [];
}

async function selectRows(
  call: V1Call,
  info: TableInfo,
  where: Condition[],
  order = true,
  filter?: Expr,
  columns: string[] = info.columns.map((c) => c.name),
): Promise<Row[]> {
  return call.ctx.driver.select(call.db, {
    table: info.name,
    columns,
    where,
    filter,
    orderBy: order && info.columnsByName.has('norder') ? [{ column: 'norder', desc: false }] : [],
  });
}

/** Child term ids of each of `termIds` (descriptors, not restricted, by norder), one statement. */
async function childIds(
  call: V1Call,
  info: TableInfo,
  termIds: string[],
  lang: string,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(termIds.map((id) => [id, []]));
  if (termIds.length === 0 || !info.columnsByName.has('parent')) return out;
  const rows = await selectRows(call, info, childWhere(call, info, termIds, lang), true, undefined, [
    'term_id',
    'parent',
  ]);
  for (const row of rows) out.get(parentOf(row))?.push(String(row.term_id));
  return out;
}

/** The rows under any of `termIds`: descriptors, not restricted, in `lang`. */
function childWhere(call: V1Call, info: TableInfo, termIds: string[], lang: string): Condition[] {
  const parentValues = termIds.flatMap((id) => [id, JSON.stringify([id])]);
  const where: Condition[] = [{ column: 'parent', op: 'in', value: parentValues }, ...langWhere(info, lang)];
  if (info.columnsByName.has('descriptor')) where.push({ column: 'descriptor', op: 'eq', value: 'yes' });
  where.push(...restrictedWhere(call, info));
  return where;
}

/** The ts_term object (docs/publication-v1.md) of each row, with `ar_childrens`. */
export async function tsTerms(
  call: V1Call,
  info: TableInfo,
  rows: Row[],
  lang: string,
  parentTerm?: string,
): Promise<TsTerm[]> {
  const children = await childIds(
    call,
    info,
    rows.map((r) => String(r.term_id)),
    lang,
  );
  return rows.map((row) => {
    const declared: TsTerm = {
      term_id: row.term_id ?? null,
      term: row.term ?? null,
      scope_note: row.scope_note ?? null,
      indexation: row.indexation ?? null,
      time: row.time ?? null,
      space: row.space ?? null,
      lang: (row.lang as string | undefined) ?? lang,
      options: {},
      highlight: null,
      table: info.name,
    };
    if (parentTerm !== undefined) declared.parent_term = parentTerm;
    const shaped = shapeRow(info.name, row, call.v1.numbersAsStrings);
    for (const [k, v] of Object.entries(shaped)) if (!(k in declared) && k !== 'table') declared[k] = v;
    declared.ar_childrens = children.get(String(row.term_id)) ?? [];
    return declared;
  });
}

async function tableForTerm(call: V1Call, termId: string): Promise<TableInfo | undefined> {
  const name = (await thesaurusMap(call))[termId.split('_')[0] ?? ''];
  if (!name) return undefined;
  return (await call.ctx.schemas.get(call.db)).tables.get(name);
}

export async function termRow(
  call: V1Call,
  termId: string,
  lang: string,
): Promise<{ info: TableInfo; row?: Row } | undefined> {
  const info = await tableForTerm(call, termId);
  if (!info) return undefined;
  const [row] = await selectRows(
    call,
    info,
    [{ column: 'term_id', op: 'eq', value: termId }, ...langWhere(info, lang)],
    false,
    publicationFilter(call, info),
  );
  return { info, row };
}

function requireTermId(value: string | undefined, name = 'term_id'): string {
  if (value === undefined || !TERM_ID.test(value))
    throw new V1Error(`Error. Illegal ${name}: ${value ?? ''}`);
  return value;
}

async function thesaurusInfos(call: V1Call): Promise<TableInfo[]> {
  const names = optList(call.options, 'table') ?? (await thesaurusTables(call));
  return Promise.all(names.map((n) => tableOf(call, n)));
}

/** The rows of `info` whose parent is `parent` (descriptors, not restricted, by norder). */
async function childRows(call: V1Call, info: TableInfo, parent: string, lang: string): Promise<Row[]> {
  if (!info.columnsByName.has('parent')) return [];
  return selectRows(call, info, childWhere(call, info, [parent], lang));
}

/** The `name` of hierarchy record `hierarchy1_<n>` (Dédalo's `hierarchy` table), '' when unknown. */
async function hierarchyName(call: V1Call, id: string, lang: string): Promise<string> {
  const info = (await call.ctx.schemas.get(call.db)).tables.get('hierarchy');
  const n = Number(id.split('_')[1]);
  if (!info?.columnsByName.has('name') || !Number.isInteger(n)) return '';
  const [row] = await call.ctx.driver.select(call.db, {
    table: info.name,
    columns: ['name'],
    where: [{ column: 'section_id', op: 'eq', value: n }, ...langWhere(info, lang)],
    orderBy: [],
    limit: 1,
  });
  return typeof row?.name === 'string' ? row.name : '';
}

/**
 * The tlds of a thesaurus table: its distinct `tld` values, else the prefixes of its `<tld>_1`
 * term ids (the roots), read without the other columns or rows.
 */
async function tldsOf(call: V1Call, info: TableInfo): Promise<string[]> {
  const column = info.columnsByName.has('tld') ? 'tld' : 'term_id';
  const rows = await call.ctx.driver.select(call.db, {
    table: info.name,
    columns: [],
    select: [{ expr: { kind: 'column', name: column }, as: 'v' }],
    distinct: true,
    // `_` is any one character to LIKE: the exact form is checked below.
    where: column === 'tld' ? [{ column, op: 'is_not_null' }] : [{ column, op: 'like', value: '%_1' }],
    orderBy: [],
  });
  const values = rows.map((r) => String(r.v));
  return column === 'tld'
    ? values.filter((v) => v !== '').sort()
    : values
        .filter((v) => TERM_ID.test(v) && v.endsWith('_1'))
        .map((v) => v.slice(0, -2))
        .sort();
}

/** A ts_term's norder, for merging one tld's children from several tables (none last). */
const norderOf = (t: TsTerm) => {
  const n = Number(t.norder);
  return t.norder !== null && t.norder !== undefined && Number.isFinite(n) ? n : Number.POSITIVE_INFINITY;
};

export async function rootListAction(call: V1Call): Promise<unknown> {
  const lang = langOf(call);
  const exclude = new Set(optList(call.options, 'exclude_tld') ?? ['xx']);
  const parents = optList(call.options, 'parents');
  const result: Record<string, TsTerm[]> = {};
  if (parents) {
    for (const parent of parents) {
      const id = requireTermId(parent, 'parents');
      if (id.startsWith('hierarchy')) {
        // A hierarchy record is no term: its children are the terms under it in any thesaurus table.
        const name = await hierarchyName(call, id, lang);
        const terms: TsTerm[] = [];
        for (const info of await thesaurusInfos(call)) {
          terms.push(...(await tsTerms(call, info, await childRows(call, info, id, lang), lang, name)));
        }
        result[id] = terms;
        continue;
      }
      const found = await termRow(call, id, lang);
      if (!found) continue;
      const rows = await childRows(call, found.info, id, lang);
      result[id.split('_')[0] ?? id] = await tsTerms(
        call,
        found.info,
        rows,
        lang,
        String(found.row?.term ?? ''),
      );
    }
    return { result };
  }
  // §3.9: the distinct tlds of every table (a table may hold several, a tld may span tables);
  // each tld not excluded lists the children of its root `<tld>_1`, from every table holding the
  // tld, by norder.
  const tables = new Map<string, TableInfo[]>();
  for (const info of await thesaurusInfos(call)) {
    if (!info.columnsByName.has('term_id') || !info.columnsByName.has('parent')) continue;
    for (const tld of await tldsOf(call, info)) {
      if (!exclude.has(tld)) tables.set(tld, [...(tables.get(tld) ?? []), info]);
    }
  }
  const restricted = new Set(call.v1.restrictedTerms);
  for (const [tld, infos] of tables) {
    const root = `${tld}_1`;
    if (restricted.has(root)) continue;
    const terms: TsTerm[] = [];
    for (const info of infos)
      terms.push(...(await tsTerms(call, info, await childRows(call, info, root, lang), lang, '')));
    if (infos.length > 1) terms.sort((a, b) => norderOf(a) - norderOf(b));
    result[tld] = terms;
  }
  return { result };
}

interface Locator {
  section_tipo?: unknown;
  section_id?: unknown;
  tag_id?: unknown;
}

function locatorsOf(value: unknown): Locator[] {
  if (typeof value !== 'string' || value.trim() === '') return [];
  try {
    const list = JSON.parse(value) as unknown;
    return Array.isArray(list) ? (list as Locator[]) : [];
  } catch {
    return [];
  }
}

const locatorKey = (l: Locator) => `${String(l.section_tipo)}|${String(l.section_id)}|${String(l.tag_id)}`;

export async function termAction(call: V1Call): Promise<unknown> {
  const lang = langOf(call);
  const ids = optList(call.options, 'ar_term_id');
  if (!ids || ids.length === 0) throw new V1Error('Error. ar_term_id is mandatory');
  const terms: TsTerm[] = [];
  for (const raw of ids) {
    const id = requireTermId(raw, 'ar_term_id');
    const found = await termRow(call, id, lang);
    if (found?.row) terms.push(...(await tsTerms(call, found.info, [found.row], lang)));
    else {
      terms.push({
        term_id: id,
        term: null,
        scope_note: null,
        indexation: null,
        time: null,
        space: null,
        lang,
        options: {},
        highlight: null,
        table: found?.info.name ?? null,
        ar_childrens: [],
      });
    }
  }
  let matching: unknown = false;
  if (optString(call.options, 'combine') === 'combined' && terms.length >= 2) {
    const sets = terms.map((t) => locatorsOf(t.indexation));
    const common = sets[0]!.filter((l) => sets.every((s) => s.some((o) => locatorKey(o) === locatorKey(l))));
    for (const t of terms) t.indexation = JSON.stringify(common);
    if (optBool(call.options, 'get_matching_terms', false) && common.length > 0) {
      const keys = new Set(common.map(locatorKey));
      const own = new Set(terms.map((t) => t.term_id));
      const list: unknown[] = [];
      for (const info of await thesaurusInfos(call)) {
        const rows = await selectRows(
          call,
          info,
          [...langWhere(info, lang), { column: 'indexation', op: 'is_not_null' }],
          false,
        );
        for (const row of rows) {
          if (own.has(row.term_id) || !locatorsOf(row.indexation).some((l) => keys.has(locatorKey(l))))
            continue;
          list.push({ table: info.name, term_id: row.term_id, term: row.term });
        }
      }
      matching = list;
    }
  }
  return { result: terms, matching_terms: matching, msg: 'Ok. Request done' };
}

/** The rows to return for children / parents: ar_fields with term_id forced in. */
function projectRows(call: V1Call, info: TableInfo, rows: Row[]): V1Row[] {
  const fields = optString(call.options, 'ar_fields') ?? '*';
  const list =
    fields.trim() === '' || fields.trim() === '*'
      ? undefined
      : parseFieldList('ar_fields', fields, { tables: [info] });
  const names = list?.items.map((i) => i.as ?? '').filter((n) => n !== '');
  return rows.map((row) => {
    const shaped = shapeRow(info.name, row, call.v1.numbersAsStrings);
    if (!names) return shaped;
    const out: V1Row = { table: info.name, term_id: row.term_id };
    for (const n of names) out[n] = shaped[n];
    return out;
  });
}

async function childrenRows(
  call: V1Call,
  info: TableInfo,
  termId: string,
  lang: string,
  recursive: boolean,
  depth = 0,
): Promise<Row[]> {
  if (depth > 50) return [];
  const where: Condition[] = [
    { column: 'parent', op: 'in', value: [termId, JSON.stringify([termId])] },
    ...langWhere(info, lang),
  ];
  if (optBool(call.options, 'only_descriptors', true) && info.columnsByName.has('descriptor')) {
    where.push({ column: 'descriptor', op: 'eq', value: 'yes' });
  }
  if (optBool(call.options, 'remove_restricted', true)) where.push(...restrictedWhere(call, info));
  let rows = await selectRows(call, info, where);
  if (optBool(call.options, 'remove_unused_terms', false)) {
    rows = rows.filter((r) => (r.indexation ?? '') !== '' || (r.children ?? '') !== '');
  }
  if (!recursive) return rows;
  const out: Row[] = [];
  for (const row of rows) {
    out.push(row, ...(await childrenRows(call, info, String(row.term_id), lang, true, depth + 1)));
  }
  return out;
}

export async function childrenAction(call: V1Call): Promise<unknown> {
  const lang = langOf(call);
  const raw = optString(call.options, 'term_id') ?? '';
  const multiple = optBool(call.options, 'multiple', false) || raw.includes(',');
  const recursive = optBool(call.options, 'recursive', false);
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (ids.length === 0) throw new V1Error('Error. term_id is mandatory');
  const one = async (termId: string) => {
    const id = requireTermId(termId);
    const info = await tableForTerm(call, id);
    if (!info) return undefined;
    return projectRows(call, info, await childrenRows(call, info, id, lang, recursive));
  };
  if (multiple) {
    // Upstream spells the key `ter_id` here (docs/publication-v1.md); kept, with `term_id` beside it.
    const result = [];
    for (const id of ids) {
      const rows = (await one(id)) ?? [];
      result.push({ ter_id: id, term_id: id, result: rows, total: rows.length });
    }
    return { result, msg: 'Ok. Request done [web_data::get_thesaurus_children]', total: null };
  }
  const rows = await one(ids[0]!);
  if (!rows) {
    return {
      result: [],
      msg: `Error. Invalid section tipo (${ids[0]}) or not defined in table_thesaurus_map`,
      total: 0,
    };
  }
  return { result: rows, msg: 'Ok. Request done [web_data::get_thesaurus_children]', total: rows.length };
}

export async function parentsAction(call: V1Call): Promise<unknown> {
  const lang = langOf(call);
  const id = requireTermId(optString(call.options, 'term_id'));
  const recursive = optBool(call.options, 'recursive', true);
  const info = await tableForTerm(call, id);
  if (!info) return { result: [false], msg: 'Error. term_id prefix not defined in table_thesaurus_map' };
  const rows: Row[] = [];
  let current = (await termRow(call, id, lang))?.row;
  const seen = new Set([id]);
  while (current) {
    const parent = parentOf(current);
    if (parent === '' || seen.has(parent)) break;
    seen.add(parent);
    const found = await termRow(call, parent, lang);
    if (!found?.row) break;
    rows.push(found.row);
    if (!recursive) break;
    current = found.row;
  }
  return { result: projectRows(call, info, rows), msg: 'Ok. Request done [web_data::get_thesaurus_parents]' };
}

/** LIKE pattern for a substring, with % and _ of the text matched literally. */
function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function autocompleteAction(call: V1Call): Promise<unknown> {
  const q = optString(call.options, 'q');
  if (q === undefined) return { result: false, msg: 'Error. Empty search value (q)' };
  const lang = langOf(call);
  const limit = optInt(call.options, 'limit', 25);
  const full = optString(call.options, 'format') === 'full';
  const hits: { table: string; term: string; term_id: unknown }[] = [];
  for (const info of await thesaurusInfos(call)) {
    const where: Condition[] = [
      { column: 'term', op: 'like', value: containsPattern(q) },
      ...langWhere(info, lang),
      ...restrictedWhere(call, info),
    ];
    const rows = await call.ctx.driver.select(call.db, {
      table: info.name,
      columns: ['term', 'term_id'],
      where,
      orderBy: [{ column: 'term', desc: false }],
      limit: limit > 0 ? limit : undefined,
    });
    for (const r of rows) hits.push({ table: info.name, term: String(r.term), term_id: r.term_id });
  }
  hits.sort((a, b) => a.term.localeCompare(b.term));
  const page = limit > 0 ? hits.slice(0, limit) : hits;
  return { result: full ? page : page.map((h) => h.term), msg: 'Ok. Request done' };
}

export async function randomTermAction(call: V1Call): Promise<unknown> {
  const lang = langOf(call);
  const exclude = new Set(optList(call.options, 'exclude_tld') ?? ['xx']);
  const candidates: { info: TableInfo; where: Condition[]; filter?: Expr; n: number }[] = [];
  for (const info of await thesaurusInfos(call)) {
    if (!info.columnsByName.has('indexation')) continue;
    const where: Condition[] = [
      { column: 'indexation', op: 'is_not_null' },
      { column: 'indexation', op: 'not_in', value: ['', '[]'] },
      ...langWhere(info, lang),
      ...restrictedWhere(call, info),
    ];
    const filter = publicationFilter(call, info, true);
    const n = await call.ctx.driver.count(call.db, { table: info.name, where, filter });
    if (n > 0) candidates.push({ info, where, filter, n });
  }
  const total = candidates.reduce((a, c) => a + c.n, 0);
  // Two statements and a random offset instead of ORDER BY RAND(), which reads every row.
  for (let attempt = 0; attempt < 5 && total > 0; attempt++) {
    let pick = Math.floor(Math.random() * total);
    let c = candidates[0]!;
    for (const x of candidates) {
      c = x;
      if (pick < x.n) break;
      pick -= x.n;
    }
    const [row] = await call.ctx.driver.select(call.db, {
      table: c.info.name,
      columns: ['term', 'term_id', 'indexation'],
      where: c.where,
      filter: c.filter,
      orderBy: [{ column: 'term_id', desc: false }],
      limit: 1,
      offset: pick,
    });
    if (row && !exclude.has(String(row.term_id).split('_')[0] ?? ''))
      return { term: row.term, term_id: row.term_id, indexation: row.indexation };
  }
  return { term: null, term_id: null, indexation: null };
}

export async function searchAction(call: V1Call): Promise<unknown> {
  const q = optString(call.options, 'q');
  if (q === undefined || q.trim() === '') throw new V1Error('Error. Empty search value (q)');
  const lang = langOf(call);
  const rowsPerPage = optInt(call.options, 'rows_per_page', 1);
  const page = Math.max(1, optInt(call.options, 'page_number', 1));
  const treeRoot = optString(call.options, 'tree_root') === 'first_parent' ? 'first_parent' : 'last_parent';
  const hits: { info: TableInfo; row: Row }[] = [];
  for (const info of await thesaurusInfos(call)) {
    const where: Condition[] = [
      { column: 'term', op: 'like', value: containsPattern(q) },
      ...langWhere(info, lang),
      ...restrictedWhere(call, info),
    ];
    for (const row of await selectRows(call, info, where, true, publicationFilter(call, info, true)))
      hits.push({ info, row });
  }
  const total = hits.length;
  const pageHits = rowsPerPage > 0 ? hits.slice((page - 1) * rowsPerPage, page * rowsPerPage) : hits;
  const result: V1Row[] = [];
  for (const { info, row } of pageHits) {
    if (row.descriptor === 'no' && parentOf(row) !== '') {
      const parent = await termRow(call, parentOf(row), lang);
      if (parent?.row) {
        const swapped = shapeRow(parent.info.name, parent.row, call.v1.numbersAsStrings);
        swapped.term = `${String(parent.row.term)} <small class="notaND">(x ${String(row.term)})</small>`;
        result.push(swapped);
        continue;
      }
    }
    result.push(shapeRow(info.name, row, call.v1.numbersAsStrings));
  }
  const arTsTerms: Record<string, TsTerm[]> = {};
  const highlight = result.map((r) => r.term_id);
  let path: string[] = [];
  const first = result[0];
  if (first && typeof first.term_id === 'string') {
    const chain: string[] = [];
    let current = (await termRow(call, first.term_id, lang))?.row;
    const seen = new Set<string>();
    while (current && parentOf(current) !== '' && !seen.has(parentOf(current))) {
      const p = parentOf(current);
      seen.add(p);
      if (!p.startsWith('hierarchy')) chain.unshift(p);
      current = (await termRow(call, p, lang))?.row;
    }
    path = chain;
    const target =
      chain.length === 0 ? first.term_id : treeRoot === 'first_parent' ? chain[0]! : chain[chain.length - 1]!;
    const found = await termRow(call, target, lang);
    if (found?.row) arTsTerms[target.split('_')[0]!] = await tsTerms(call, found.info, [found.row], lang);
  }
  return {
    search_data: { result, total, msg: 'Ok. Request done', page_number: page, rows_per_page: rowsPerPage },
    ar_ts_terms: arTsTerms,
    ar_highlight: highlight,
    ar_parent: path,
  };
}

export async function menuTreePlainAction(call: V1Call): Promise<unknown> {
  const name = optString(call.options, 'table');
  if (!name) throw new V1Error('Empty options->table ');
  const info = await tableOf(call, name);
  const lang = langOf(call);
  const root = optString(call.options, 'term_id') ?? '';
  const fields = optString(call.options, 'fields') ?? '*';
  const list = fields.trim() === '*' ? undefined : parseFieldList('fields', fields, { tables: [info] });
  const out: V1Row[] = [];
  const walk = async (parent: string, depth: number): Promise<void> => {
    if (depth > 50) return;
    const rows =
      parent === ''
        ? (await selectRows(call, info, langWhere(info, lang))).filter((r) => parentOf(r) === '')
        : await selectRows(call, info, [
            { column: 'parent', op: 'in', value: [parent, JSON.stringify([parent])] },
            ...langWhere(info, lang),
          ]);
    for (const row of rows) {
      const shaped = shapeRow(info.name, row, call.v1.numbersAsStrings);
      if (list) {
        const picked: V1Row = { table: info.name };
        for (const item of list.items) if (item.as) picked[item.as] = shaped[item.as];
        out.push(picked);
      } else out.push(shaped);
    }
    for (const row of rows) {
      if (typeof row.children === 'string' && row.children.trim() !== '' && row.children.trim() !== '[]') {
        await walk(String(row.term_id), depth + 1);
      }
    }
  };
  await walk(root, 0);
  return { result: out, msg: 'OK. Request done!' };
}
