/**
 * Text actions (docs/publication-v1.md): text_fragment (excerpts around words of a text with the
 * page they are on), bibliography_rows (publications ordered by author) and global_search
 * (full-text search in the global_search table).
 */
import type { Condition, Expr } from '../../db/types.js';
import { findFragments } from '../../text/fragments.js';
import { parseSearchQuery } from '../../text/search-query.js';
import type { WordTerm } from '../../text/term-matching.js';
import { parseCondition, parseFieldList } from '../sql-subset.js';
import { optBool, optInt, optLang, optList, optString, tableOf, type V1Call } from '../v1-call.js';
import { V1Error } from '../v1-errors.js';
import { shapeRow, type V1Row } from '../v1-rows.js';
import { queryRecords } from './records.js';

/** Words of q, a double-quoted phrase counting as one term. */
function termsOf(q: string): { label: string; term: WordTerm }[] {
  const out: { label: string; term: WordTerm }[] = [];
  for (const m of q.matchAll(/"([^"]+)"|(\S+)/g)) {
    const text = (m[1] ?? m[2] ?? '').trim();
    const words = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
    if (words.length > 0)
      out.push({ label: text, term: { words: words.map((w) => w.toLowerCase()), prefix: false } });
  }
  return out;
}

export async function textFragmentAction(call: V1Call): Promise<unknown> {
  const { options } = call;
  const fail = (msg: string) => ({ result: false, msg });
  let lang: string;
  try {
    lang = optLang(options) ?? call.lang;
  } catch {
    return fail('Error. Invalid lang');
  }
  const q = optString(options, 'q') ?? '';
  if (q.trim() === '') return fail('Empty q');
  const ids = optString(options, 'section_id') ?? '';
  if (!/^\d+(\s*,\s*\d+)*$/.test(ids.trim())) return fail('Invalid section_id');
  const tableName = optString(options, 'table') ?? 'publications';
  const schema = await call.ctx.schemas.get(call.db);
  const table = schema.tables.get(tableName);
  if (!table) return fail('Invalid table');
  const column = optString(options, 'column') ?? 'transcription';
  if (!table.columnsByName.has(column)) return fail('Invalid column');
  let maxChars: number;
  let maxOccurrences: number;
  try {
    maxChars = optInt(options, 'max_chars', 320);
  } catch {
    return fail('Invalid max_chars');
  }
  try {
    maxOccurrences = optInt(options, 'max_occurrences', 1);
  } catch {
    return fail('Invalid max_occurrences');
  }
  const where: Condition[] = [
    { column: 'section_id', op: 'in', value: ids.split(',').map((s) => Number(s.trim())) },
  ];
  if (table.hasLang) where.push({ column: 'lang', op: 'eq', value: lang });
  const rows = await call.ctx.driver.select(call.db, {
    table: table.name,
    columns: ['section_id', column],
    where,
    orderBy: [{ column: 'section_id', desc: false }],
  });
  const terms = termsOf(q);
  const result = [];
  for (const row of rows) {
    const text = typeof row[column] === 'string' ? (row[column] as string) : '';
    const found = findFragments(
      text,
      terms.map((t) => t.term),
      { maxCharacters: Math.max(1, maxChars), maxOccurrences: Math.max(1, maxOccurrences) },
    );
    if (found.length === 0) continue;
    result.push({
      section_id: row.section_id,
      search: q,
      fragments: found.map((f) => ({
        word: terms[f.term]?.label ?? '',
        page_number: f.page ?? 1,
        fragm: `.. ${f.text} ..`,
      })),
    });
  }
  return { result, msg: 'Request done successfully' };
}

/**
 * bibliography_rows: `records` on the publications table in the request language, each row with
 * `ordinal` (0), ordered single-author records first (`authors_count = 1`), then author_main,
 * author_others, publication_date (those of these columns the table has) and section_id. Limit 0
 * means no limit (docs/publication-v1.md: upstream returned nothing).
 *
 * `use_union` (docs/publication-v1.md): the records whose main author matches come first (ordinal 0), then
 * those matching only through the other authors (ordinal 1): `authors` in sql_filter names
 * author_main in the first part and author_others in the second (a column reference only, never
 * a word inside a quoted value), and each record comes once, in its first part (upstream's
 * GROUP BY section_id). Both parts are read whole and merged before paging, so `total` counts
 * records, not rows of the two parts.
 */
export async function bibliographyRowsAction(call: V1Call): Promise<unknown> {
  const table = await tableOf(call, optString(call.options, 'table') ?? 'publications');
  const has = (c: string) => table.columnsByName.has(c);
  const order = [
    ...(has('authors_count') ? ['authors_count = 1 DESC'] : []),
    ...['author_main', 'author_others', 'publication_date', 'section_id'].filter(has),
  ];
  const options = {
    ...call.options,
    table: table.name,
    lang: optLang(call.options) ?? call.lang,
    order: order.join(', '),
  };
  const withOrdinal = (rows: V1Row[], ordinal: number) => rows.map((r) => ({ ...r, ordinal }));
  if (!optBool(call.options, 'use_union', false)) {
    const { rows, total } = await queryRecords({ ...call, options });
    return { result: withOrdinal(rows, 0), total, msg: 'Ok request done. bibliography_rows' };
  }
  for (const c of ['author_main', 'author_others']) {
    if (!has(c)) throw new V1Error(`Error. use_union needs the column ${c} in ${table.name}`);
  }
  const filter = optString(call.options, 'sql_filter') ?? '';
  const whole = { ...options, limit: 0, offset: 0, count: false };
  const [main, others] = await Promise.all(
    ['author_main', 'author_others'].map((column) =>
      queryRecords({ ...call, options: { ...whole, sql_filter: renameAuthors(filter, column) } }),
    ),
  );
  const key = (r: V1Row) => ('section_id' in r ? String(r.section_id) : JSON.stringify(r));
  const seen = new Set(main!.rows.map(key));
  const merged = [
    ...withOrdinal(main!.rows, 0),
    ...withOrdinal(
      others!.rows.filter((r) => !seen.has(key(r))),
      1,
    ),
  ];
  const limit = optInt(call.options, 'limit', 0);
  const offset = limit > 0 ? optInt(call.options, 'offset', 0) : 0;
  const total = optBool(call.options, 'count', false) ? merged.length : false;
  return {
    result: limit > 0 ? merged.slice(offset, offset + limit) : merged,
    total,
    msg: 'Ok request done. bibliography_rows',
  };
}

/** `authors` as an identifier (bare or back-quoted) renamed; quoted values are left alone. */
export function renameAuthors(sql: string, column: string): string {
  return sql.replace(/('(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*")|`authors`|\bauthors\b/g, (m, quoted) =>
    quoted ? m : column,
  );
}

/** global_search: MATCH on `full_data` of the global_search table, by relevance, paged. */
export async function globalSearchAction(call: V1Call): Promise<unknown> {
  const { options } = call;
  try {
    const table = await tableOf(call, call.v1.globalSearchTable);
    const column = 'full_data';
    const modifier = (optString(options, 'search_modifier') ?? 'IN BOOLEAN MODE').trim().toUpperCase();
    if (modifier !== 'IN BOOLEAN MODE' && modifier !== 'IN NATURAL LANGUAGE MODE') {
      throw new V1Error(`Error. Illegal search_modifier: ${modifier}`);
    }
    const rowsPerPage = optInt(options, 'rows_per_page', 10);
    const page = Math.max(1, optInt(options, 'page_number', 1));
    const offset = page > 1 ? (page - 1) * rowsPerPage : optInt(options, 'offset', 0);
    const count = optBool(options, 'count', true);
    const lang = optLang(options);
    const fields = parseFieldList(
      'ar_fields',
      (optList(options, 'ar_fields') ?? ['section_id', 'list_data', 'link']).join(', '),
      {
        tables: [table],
      },
    );
    const filters: Expr[] = [];
    const q = optString(options, 'q') ?? '';
    let match: Expr | undefined;
    if (q.trim() !== '') {
      if (!table.fulltextColumns.has(column))
        throw new V1Error('Error. global_search has no full-text index on full_data');
      match = { kind: 'match', table: table.name, column, search: parseSearchQuery(q) };
      filters.push(match);
    }
    const sqlFilter = optString(options, 'sql_filter');
    if (sqlFilter && sqlFilter.trim() !== '')
      filters.push(parseCondition('sql_filter', sqlFilter, { tables: [table] }));
    const base = {
      table: table.name,
      columns: [],
      select: match ? [...fields.items, { expr: match, as: 'relevance' }] : fields.items,
      where: lang && table.hasLang ? [{ column: 'lang', op: 'eq' as const, value: lang }] : [],
      filter: filters.length === 0 ? undefined : ({ kind: 'and', items: filters } as Expr),
      orderBy: [],
      // Without q there is no relevance (docs/publication-v1.md): the record key orders instead.
      order: match
        ? [{ expr: { kind: 'alias', name: 'relevance' } as Expr, desc: true }]
        : [{ expr: { kind: 'column', name: 'section_id' } as Expr, desc: false }],
    };
    const [rows, total] = await Promise.all([
      call.ctx.driver.select(call.db, { ...base, limit: rowsPerPage > 0 ? rowsPerPage : undefined, offset }),
      count ? call.ctx.driver.count(call.db, base) : Promise.resolve(false as const),
    ]);
    return {
      result: rows.map((r) => shapeRow(table.name, r, call.v1.numbersAsStrings)),
      msg: 'OK. Request global_search done successfully',
      page_number: page,
      rows_per_page: rowsPerPage,
      total,
    };
  } catch (err) {
    if (err instanceof V1Error) throw new V1Error(`Error. Request global_search failed. ${err.message}`);
    throw err;
  }
}
