/**
 * The browse pages as data: each builder calls the same operations the JSON routes serve
 * (databases, tables, records list, search, facets, record) and shapes their answers for a
 * template. Nothing here reads the database another way.
 */

import { rowObjects } from '../db/raw-json.js';
import type { TableInfo } from '../db/types.js';
import { databasesOperation, tablesOperation } from '../operations/discovery.js';
import { facetsOperation } from '../operations/facets.js';
import type { Envelope, Operation, OperationAnswer } from '../operations/operation.js';
import {
  getRecordOperation,
  listRecordsOperation,
  type PageBody,
  type RecordBody,
} from '../operations/records.js';
import { searchOperation } from '../operations/search.js';
import { type ProblemError, ValidationError } from '../problems.js';
import type { QueryParams } from '../query/query-string.js';
import { requireTable } from '../services/catalog-service.js';
import type { PublicationContext } from '../services/context.js';
import type { Facet } from '../services/facets-service.js';
import { highlightTermsOf, parseSearchQuery } from '../text/search-query.js';
import {
  apiHref,
  apiParams,
  type BrowseState,
  browseHref,
  OP_LABELS,
  opsFor,
  PAGE_SIZES,
  readBrowseState,
  searchColumnOf,
  selectionParams,
} from './browse-query.js';
import { type CellContext, listCell, recordCell } from './cells.js';
import type { LayoutData } from './views.js';

/** Where things are: the browse root and the API root (both under BASE_PATH). */
export interface BrowseUrls {
  browse: string;
  api: string;
}

const enc = encodeURIComponent;

/** Columns whose text follows the tag grammar: full-text indexed ones and the transcription. */
function taggedColumns(ctx: PublicationContext, table: TableInfo): Set<string> {
  const columns = new Set(table.fulltextColumns);
  if (table.columnsByName.has(ctx.config.av.transcriptionColumn))
    columns.add(ctx.config.av.transcriptionColumn);
  return columns;
}

/** Dédalo's lg-xxx codes (ISO 639-2/3) as BCP 47 tags for the lang attribute, where known. */
const BCP47: Record<string, string> = {
  spa: 'es',
  eng: 'en',
  cat: 'ca',
  fra: 'fr',
  deu: 'de',
  ita: 'it',
  por: 'pt',
  eus: 'eu',
  glg: 'gl',
  ell: 'el',
  nld: 'nl',
  ara: 'ar',
  rus: 'ru',
  vlca: 'ca',
};

function htmlLang(lang: string): string | undefined {
  const code = lang.replace(/^lg-/, '');
  return BCP47[code] ?? (/^[a-z]{2}$/.test(code) ? code : undefined);
}
const FACET_COLUMNS_MAX = 6;
const FACET_VALUES = 8;

function run<B>(
  ctx: PublicationContext,
  op: Operation<Envelope | undefined>,
  params: Record<string, string>,
  query: QueryParams = new Map(),
) {
  return op.run(ctx, { params, query: () => query }) as Promise<
    OperationAnswer<B & { [k: string]: unknown }>
  >;
}

function layout(urls: BrowseUrls, title: string, crumbs: LayoutData['crumbs']): LayoutData {
  return {
    title,
    base: urls.browse,
    docsHref: `${urls.api}/docs`,
    crumbs: [{ label: 'Databases', href: `${urls.browse}/` }, ...crumbs],
  };
}

export async function homePage(ctx: PublicationContext, urls: BrowseUrls) {
  const answer = await run<{ data: { name: string }[] }>(ctx, databasesOperation, {});
  return {
    ...layout(urls, 'Databases', []),
    crumbs: [{ label: 'Databases' }],
    databases: answer.body.data.map((d) => ({ name: d.name, href: `${urls.browse}/${enc(d.name)}/` })),
    apiHref: `${urls.api}/`,
  };
}

export async function databasePage(ctx: PublicationContext, urls: BrowseUrls, db: string) {
  const answer = await run<{ data: { name: string; row_count: number; column_count: number }[] }>(
    ctx,
    tablesOperation,
    { db },
  );
  return {
    ...layout(urls, db, [{ label: db }]),
    db,
    tables: answer.body.data.map((t) => ({
      name: t.name,
      href: `${urls.browse}/${enc(db)}/${enc(t.name)}`,
      rows: t.row_count.toLocaleString('en'),
      columns: t.column_count,
    })),
  };
}

function facetViews(facets: Facet[], state: BrowseState, action: string) {
  return facets.map((f) => ({
    column: f.column,
    truncated: f.truncated,
    values: f.values.map((v) => {
      const value =
        v.value === null ? '' : typeof v.value === 'object' ? JSON.stringify(v.value) : String(v.value);
      const active =
        state.filters.some((x) => x.column === f.column && x.op === 'eq' && x.value === value) ||
        (f.column === 'lang' && state.lang === value);
      const others = state.filters.filter((x) => x.column !== f.column);
      const next: BrowseState =
        f.column === 'lang'
          ? { ...state, offset: 0, lang: active ? '' : value }
          : {
              ...state,
              offset: 0,
              filters: active
                ? others
                : [
                    ...others,
                    v.value === null
                      ? { column: f.column, op: 'is_null', value: '' }
                      : { column: f.column, op: 'eq', value },
                  ],
            };
      return {
        label: v.value === null ? '(empty)' : value,
        count: v.count.toLocaleString('en'),
        href: browseHref(action, next),
        active,
      };
    }),
  }));
}

export async function tablePage(
  ctx: PublicationContext,
  urls: BrowseUrls,
  db: string,
  tableName: string,
  query: QueryParams,
) {
  const table = await requireTable(ctx, db, tableName);
  const schema = await ctx.schemas.get(db);
  const state = readBrowseState(query, table);
  const action = `${urls.browse}/${enc(db)}/${enc(table.name)}`;
  const params = { db, table: table.name };
  const searching = state.q !== '' && table.fulltextColumns.size > 0;
  if (!searching) state.q = '';
  const apiQuery = apiParams(state, table);
  let page: OperationAnswer<PageBody> | undefined;
  let error: { detail: string; errors: { name: string; detail: string }[] } | undefined;
  try {
    page = await run<PageBody>(ctx, searching ? searchOperation : listRecordsOperation, params, apiQuery);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    error = { detail: err.detail, errors: err.problems.map((p) => ({ name: p.name, detail: p.detail })) };
  }

  // Facets of the indexed columns (not the record key) under the same selection; languages
  // for the switch from the unfiltered lang facet.
  const facetColumns = [...table.indexedColumns]
    .filter((c) => c !== 'section_id' && c !== 'id')
    .slice(0, FACET_COLUMNS_MAX);
  let facets: Facet[] = [];
  let languages: string[] = [];
  if (!error) {
    const facetQuery = selectionParams(state, table);
    for (const k of ['q', 'column', 'sort']) facetQuery.delete(k);
    if (facetColumns.length > 0) {
      facetQuery.set('columns', [facetColumns.join(',')]);
      facetQuery.set('limit', [String(FACET_VALUES)]);
      facets = (await run<{ data: Facet[] }>(ctx, facetsOperation, params, facetQuery)).body.data;
    }
    if (table.hasLang && table.indexedColumns.has('lang')) {
      const langs = new Map([
        ['columns', ['lang']],
        ['limit', ['100']],
      ]);
      languages = (
        await run<{ data: Facet[] }>(ctx, facetsOperation, params, langs)
      ).body.data[0]!.values.map((v) => String(v.value));
    }
  }
  if (state.lang && !languages.includes(state.lang)) languages.push(state.lang);

  const cellContext: CellContext = {
    table,
    schema,
    recordHref: (t, id) => `${urls.browse}/${enc(db)}/${enc(t)}/${id}`,
    textColumns: taggedColumns(ctx, table),
    terms: [],
  };
  const rows = page ? rowObjects(page.body.data) : [];
  const columns = table.columns.map((c) => c.name);
  // A search shows its fragments where the searched column would be.
  const searched = searching ? apiQuery.get('column')?.[0] : undefined;
  const shown = searching ? columns.map((name) => (name === searched ? 'fragments' : name)) : columns;
  const sortTerms = state.sort.split(',').filter(Boolean);
  const headers = shown.map((name) => {
    if (searching) return { name, ariaSort: 'none', arrow: '' };
    const current = sortTerms[0] === name ? 'ascending' : sortTerms[0] === `-${name}` ? 'descending' : 'none';
    const nextSort = current === 'ascending' ? `-${name}` : current === 'descending' ? '' : name;
    return {
      name,
      href: browseHref(action, { ...state, sort: nextSort, offset: 0 }),
      ariaSort: current,
      arrow: current === 'ascending' ? ' ▲' : current === 'descending' ? ' ▼' : '',
    };
  });
  const recordQuery = () => {
    const parts: string[] = [];
    if (searching) parts.push(`q=${enc(state.q)}`);
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  };
  const rowViews = rows.map((row) => {
    const id = row.section_id;
    const href =
      typeof id === 'number'
        ? `${cellContext.recordHref(table.name, id)}${recordQuery()}${row.lang ? `#${enc(String(row.lang))}` : ''}`
        : undefined;
    const cells = shown.map((name, i) => {
      if (name === 'fragments') {
        const fragments = (row.fragments as { text: string }[] | undefined) ?? [];
        return { kind: 'html' as const, html: fragments.map((f) => f.text).join('<br>'), wide: true };
      }
      if (i === 0 && href) return { kind: 'text' as const, text: String(row[name]) };
      return listCell(row[name], name, cellContext);
    });
    return { href, cells };
  });

  const total = page?.body.pagination.total;
  const from = rows.length > 0 ? state.offset + 1 : 0;
  const to = state.offset + rows.length;
  const pager = {
    label:
      rows.length === 0
        ? 'No rows'
        : `Rows ${from.toLocaleString('en')}–${to.toLocaleString('en')}${total !== undefined ? ` of ${total.toLocaleString('en')}` : ''}`,
    prevHref:
      state.offset > 0
        ? browseHref(action, { ...state, offset: Math.max(0, state.offset - state.limit) })
        : undefined,
    nextHref: page?.page?.hasMore
      ? browseHref(action, { ...state, offset: state.offset + state.limit })
      : undefined,
  };
  const apiPath = `${urls.api}/${enc(db)}/tables/${enc(table.name)}/${searching ? 'search' : 'records'}`;
  const selection = selectionParams(state, table);
  const exports = [
    { label: 'CSV', href: apiHref(apiPath, selection, { format: 'csv' }) },
    { label: 'CSV for Excel', href: apiHref(apiPath, selection, { format: 'csv', bom: 'true' }) },
    { label: 'NDJSON', href: apiHref(apiPath, selection, { format: 'ndjson' }) },
    { label: 'JSON page', href: apiHref(apiPath, apiParams(state, table)) },
  ];
  const filters = table.columns.map((c) => {
    const active = state.filters.find((f) => f.column === c.name);
    return {
      column: c.name,
      type: c.type || c.kind,
      op: active?.op ?? opsFor(c)[0]!,
      value: active?.value ?? '',
      ops: opsFor(c).map((o) => ({ value: o, label: OP_LABELS[o] })),
    };
  });
  const summary =
    total === undefined
      ? ''
      : `${total.toLocaleString('en')} ${searching ? 'matching' : ''} row${total === 1 ? '' : 's'}`.replace(
          '  ',
          ' ',
        );
  return {
    ...layout(urls, table.name, [{ label: db, href: `${urls.browse}/${enc(db)}/` }, { label: table.name }]),
    db,
    table: table.name,
    summary,
    error,
    form: {
      action,
      q: state.q,
      column: state.column || searchColumnOf(table),
      searchColumns: [...table.fulltextColumns],
      hasLang: table.hasLang,
      lang: state.lang,
      languages,
      limit: state.limit,
      limits: PAGE_SIZES,
      sort: searching ? '' : state.sort,
    },
    filters,
    filtersOpen: state.filters.length > 0,
    headers,
    rows: rowViews,
    pager,
    exports,
    facets: facetViews(facets, state, action),
  };
}

export async function recordPage(
  ctx: PublicationContext,
  urls: BrowseUrls,
  db: string,
  tableName: string,
  id: string,
  query: QueryParams,
) {
  const table = await requireTable(ctx, db, tableName);
  const schema = await ctx.schemas.get(db);
  const answer = await run<RecordBody>(ctx, getRecordOperation, { db, table: table.name, id });
  const q = (query.get('q')?.[0] ?? '').trim().slice(0, 512);
  const terms = q ? highlightTermsOf(parseSearchQuery(q)) : [];
  const textColumns = taggedColumns(ctx, table);
  const cellContext: CellContext = {
    table,
    schema,
    recordHref: (t, rid) => `${urls.browse}/${enc(db)}/${enc(t)}/${rid}`,
    textColumns,
    terms,
  };
  const sectionId = answer.body.meta.section_id;
  const variants = rowObjects(answer.body.data).map((row, i) => {
    const lang = typeof row.lang === 'string' ? row.lang : undefined;
    return {
      lang,
      htmlLang: lang ? htmlLang(lang) : undefined,
      anchor: lang ?? `variant-${i + 1}`,
      fields: Object.entries(row)
        .filter(([name]) => name !== 'lang')
        .map(([name, value]) => ({ name, cell: recordCell(value, name, cellContext) })),
    };
  });
  return {
    ...layout(urls, `${table.name} ${sectionId}`, [
      { label: db, href: `${urls.browse}/${enc(db)}/` },
      { label: table.name, href: `${urls.browse}/${enc(db)}/${enc(table.name)}` },
      { label: String(sectionId) },
    ]),
    table: table.name,
    id: sectionId,
    q,
    backHref: `${urls.browse}/${enc(db)}/${enc(table.name)}${q && table.fulltextColumns.size > 0 ? `?q=${enc(q)}` : ''}`,
    variants,
  };
}

/** A problem as an HTML page: status, title, the detail and each bad parameter; never a stack. */
export function errorPage(urls: BrowseUrls, err: ProblemError) {
  return {
    ...layout(urls, `${err.status} ${err.title}`, [{ label: err.title }]),
    status: err.status,
    heading: err.title,
    detail: err.detail,
    errors: (err.errors ?? []).map((e) => ({ name: e.name, detail: e.detail })),
  };
}
