/**
 * The browse pages as data: each builder calls the same operations the JSON routes serve
 * (databases, tables, records list, search, facets, record) and shapes their answers for a
 * template, in the reader's interface language (i18n.ts). Nothing here reads the database
 * another way.
 */

import { rowObjects } from '../db/raw-json.js';
import type { Row, TableInfo } from '../db/types.js';
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
import { findMediaAsset, mediaUrl } from '../services/av-media.js';
import { requireTable } from '../services/catalog-service.js';
import type { PublicationContext } from '../services/context.js';
import type { Facet } from '../services/facets-service.js';
import { readPublicationMaps } from '../services/section-tables.js';
import { highlightTermsOf, parseSearchQuery } from '../text/search-query.js';
import {
  ALL_LANGS,
  apiHref,
  apiParams,
  type BrowseState,
  browseHref,
  opsFor,
  PAGE_SIZES,
  readBrowseState,
  selectionParams,
} from './browse-query.js';
import {
  type CellContext,
  type CellView,
  HIDDEN_COLUMNS,
  INVERSE_COLUMN,
  listCell,
  recordCell,
} from './cells.js';
import {
  dataLangOf,
  formatNumber,
  known,
  type Translate,
  translator,
  UI_LANGS,
  type UiChoice,
  type UiLang,
} from './i18n.js';
import { lookUpRelated, relationRefs } from './related.js';
import { searchAllColumns } from './search-all.js';
import type { LayoutData } from './views.js';

/** Where things are: the browse root and the API root (both under BASE_PATH). */
export interface BrowseUrls {
  browse: string;
  api: string;
}

/** What every page needs of its request: the interface language and the page's own URL. */
export interface PageRequest {
  ui: UiChoice;
  /** The path and query of this page (for the language switch). */
  url: string;
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

export function htmlLang(lang: string): string | undefined {
  const code = lang.replace(/^lg-/, '');
  return BCP47[code] ?? (/^[a-z]{2}$/.test(code) ? code : undefined);
}

/** The order in which a reader of `ui` would rather read a record's language variants. */
const PREFERRED: Record<UiLang, string[]> = {
  en: ['lg-eng', 'lg-spa', 'lg-cat'],
  es: ['lg-spa', 'lg-cat', 'lg-eng'],
  ca: ['lg-cat', 'lg-spa', 'lg-eng'],
};

const HIDDEN_TABLES = new Set(['publication_schema']);
const FACET_COLUMNS_MAX = 6;
const FACET_VALUES = 8;
/** Columns that name a record, best first (related.ts reads the same). */
const NAME_COLUMNS = ['title', 'name', 'term', 'code'];

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

/** The page's helpers: words, and links that keep a chosen interface language. */
function helpers(req: PageRequest) {
  const t = translator(req.ui.lang);
  const keep = (href: string) => {
    if (!req.ui.explicit) return href;
    const hash = href.indexOf('#');
    const [path, fragment] = hash < 0 ? [href, ''] : [href.slice(0, hash), href.slice(hash)];
    return `${path}${path.includes('?') ? '&' : '?'}ui=${req.ui.lang}${fragment}`;
  };
  const tableLabel = (name: string) => known(req.ui.lang, `table:${name}`) ?? name;
  const fieldLabel = (name: string) => known(req.ui.lang, `field:${name}`) ?? name.replaceAll('_', ' ');
  const langName = (code: string) => known(req.ui.lang, `lang:${code}`) ?? code;
  return { t, keep, tableLabel, fieldLabel, langName };
}

/** This page's URL in another interface language. */
function switchHref(url: string, lang: UiLang): string {
  const [path = '', query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  params.set('ui', lang);
  return `${path}?${params.toString()}`;
}

function layout(
  urls: BrowseUrls,
  req: PageRequest,
  title: string,
  crumbs: LayoutData['crumbs'],
): LayoutData & { t: Translate } {
  const { t, keep } = helpers(req);
  return {
    t,
    lang: req.ui.lang,
    title,
    base: urls.browse,
    homeHref: keep(`${urls.browse}/`),
    docsHref: `${urls.api}/docs`,
    crumbs: [{ label: t('crumbDatabases'), href: keep(`${urls.browse}/`) }, ...crumbs],
    languages: UI_LANGS.map((l) => ({
      code: l,
      label: known(l, `uiName:${l}`) ?? l,
      href: switchHref(req.url, l),
      current: l === req.ui.lang,
    })),
  };
}

export async function homePage(ctx: PublicationContext, urls: BrowseUrls, req: PageRequest) {
  const { t, keep } = helpers(req);
  const answer = await run<{ data: { name: string }[] }>(ctx, databasesOperation, {});
  return {
    ...layout(urls, req, t('homeTitle'), []),
    crumbs: [{ label: t('crumbDatabases') }],
    databases: answer.body.data.map((d) => ({ name: d.name, href: keep(`${urls.browse}/${enc(d.name)}/`) })),
    apiHref: `${urls.api}/`,
  };
}

export async function databasePage(ctx: PublicationContext, urls: BrowseUrls, req: PageRequest, db: string) {
  const { t, keep, tableLabel } = helpers(req);
  const answer = await run<{ data: { name: string; row_count: number; column_count: number }[] }>(
    ctx,
    tablesOperation,
    { db },
  );
  return {
    ...layout(urls, req, t('databaseTitle', { db }), [{ label: db }]),
    db,
    // Dédalo's own description of the publication is no reading for the public (its page stays).
    tables: answer.body.data
      .filter((table) => !HIDDEN_TABLES.has(table.name))
      .map((table) => ({
        name: table.name,
        label: tableLabel(table.name),
        href: keep(`${urls.browse}/${enc(db)}/${enc(table.name)}`),
        rows: t('recordsCount', {
          count: table.row_count,
          formatted: formatNumber(req.ui.lang, table.row_count),
        }),
      })),
  };
}

function facetViews(facets: Facet[], state: BrowseState, action: string, req: PageRequest) {
  const { t, fieldLabel, langName } = helpers(req);
  return facets.map((f) => ({
    column: f.column,
    label: fieldLabel(f.column),
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
          ? { ...state, offset: 0, lang: active ? ALL_LANGS : value }
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
        label: v.value === null ? t('facetEmpty') : f.column === 'lang' ? langName(value) : value,
        count: formatNumber(req.ui.lang, v.count),
        href: browseHref(action, next),
        active,
      };
    }),
  }));
}

/** The stored media path as the URL a browser loads (MEDIA_BASE_URL, or MEDIA_DIR served here). */
function mediaOf(ctx: PublicationContext) {
  return (path: string) => mediaUrl(path, ctx.config.mediaBaseUrl);
}

/** The naming column of a table (title, name, term, code), if it has one. */
function nameColumnOf(table: TableInfo): string | undefined {
  return NAME_COLUMNS.find((c) => table.columnsByName.has(c));
}

export async function tablePage(
  ctx: PublicationContext,
  urls: BrowseUrls,
  req: PageRequest,
  db: string,
  tableName: string,
  query: QueryParams,
) {
  const { t, keep, tableLabel, fieldLabel, langName } = helpers(req);
  const table = await requireTable(ctx, db, tableName);
  const schema = await ctx.schemas.get(db);
  const state = readBrowseState(query, table);
  if (req.ui.explicit) state.ui = req.ui.lang;
  const action = `${urls.browse}/${enc(db)}/${enc(table.name)}`;
  const params = { db, table: table.name };
  const searchColumns = [...table.fulltextColumns];
  const searching = state.q !== '' && searchColumns.length > 0;
  if (!searching) state.q = '';
  if (!searchColumns.includes(state.column)) state.column = '';
  const allColumns = searching && state.column === '' && searchColumns.length > 1;

  // The languages of the table (the unfiltered lang facet), and the default one: the reader's.
  let languages: string[] = [];
  if (table.hasLang && table.indexedColumns.has('lang')) {
    const langs = new Map([
      ['columns', ['lang']],
      ['limit', ['100']],
    ]);
    languages = (await run<{ data: Facet[] }>(ctx, facetsOperation, params, langs)).body.data[0]!.values.map(
      (v) => String(v.value),
    );
  }
  const readerLang = dataLangOf(req.ui.lang);
  if (table.hasLang && state.lang === '' && languages.includes(readerLang)) state.defaultLang = readerLang;

  const apiQuery = apiParams(state, table);
  let rows: Row[] = [];
  let total: number | undefined;
  let hasMore = false;
  let perColumn: { column: string; total: number }[] = [];
  const fragmentsOf = new Map<string, { column: string; fragments: { text: string }[] }[]>();
  const rowKey = (r: { section_id?: unknown; lang?: unknown }) =>
    `${String(r.section_id)}\u0000${String(r.lang ?? '')}`;
  let error: { detail: string; errors: { name: string; detail: string }[] } | undefined;
  try {
    if (allColumns) {
      const base = new Map(apiQuery);
      for (const k of ['limit', 'offset', 'count', 'column']) base.delete(k);
      const found = await searchAllColumns(ctx, db, table, searchColumns, base, state.offset, state.limit);
      total = found.total;
      hasMore = found.hasMore;
      perColumn = found.perColumn;
      for (const f of found.rows) fragmentsOf.set(rowKey(f), f.matches);
      // The found records in full, in the order found.
      const ids = [...new Set(found.rows.map((f) => String(f.section_id)))];
      if (ids.length > 0) {
        const full = await run<PageBody>(
          ctx,
          listRecordsOperation,
          params,
          new Map([
            ['filter[section_id][in]', [ids.join('|')]],
            ['limit', ['1000']],
          ]),
        );
        const byKey = new Map(rowObjects(full.body.data).map((r) => [rowKey(r), r]));
        rows = found.rows.map((f) => byKey.get(rowKey(f))).filter((r): r is Row => r !== undefined);
      }
    } else {
      const page = await run<PageBody>(
        ctx,
        searching ? searchOperation : listRecordsOperation,
        params,
        apiQuery,
      );
      rows = rowObjects(page.body.data);
      total = page.body.pagination.total;
      hasMore = page.page?.hasMore ?? false;
      if (searching) {
        const column = apiQuery.get('column')![0]!;
        for (const r of rows)
          fragmentsOf.set(rowKey(r), [{ column, fragments: (r.fragments as { text: string }[]) ?? [] }]);
      }
    }
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    error = { detail: err.detail, errors: err.problems.map((p) => ({ name: p.name, detail: p.detail })) };
  }

  // Facets of the indexed columns (not the record key) under the same selection.
  const facetColumns = [...table.indexedColumns]
    .filter((c) => c !== 'section_id' && c !== 'id' && !HIDDEN_COLUMNS.has(c))
    .slice(0, FACET_COLUMNS_MAX);
  let facets: Facet[] = [];
  if (!error && facetColumns.length > 0) {
    const facetQuery = selectionParams(state, table);
    for (const k of ['q', 'column', 'sort']) facetQuery.delete(k);
    facetQuery.set('columns', [facetColumns.join(',')]);
    facetQuery.set('limit', [String(FACET_VALUES)]);
    facets = (await run<{ data: Facet[] }>(ctx, facetsOperation, params, facetQuery)).body.data;
  }
  if (state.lang && state.lang !== ALL_LANGS && !languages.includes(state.lang)) languages.push(state.lang);

  // Names of the related records of the page, in one lookup per related table.
  const maps = await readPublicationMaps(ctx, db);
  // Records of one language need no language column (each row still carries its `lang`).
  const oneLang = state.lang === ALL_LANGS ? undefined : state.lang || state.defaultLang;
  const shownColumns = table.columns
    .map((c) => c.name)
    .filter((n) => !HIDDEN_COLUMNS.has(n) && !(oneLang && n === 'lang'));
  const refs = rows.flatMap((r) =>
    shownColumns.flatMap((name) =>
      name === table.name ? [] : (relationRefs(r[name], name, schema, maps) ?? []),
    ),
  );
  const pageLang = state.lang && state.lang !== ALL_LANGS ? state.lang : readerLang;
  const related =
    refs.length > 0
      ? await lookUpRelated(ctx, db, schema, refs, [pageLang, ...PREFERRED[req.ui.lang]])
      : new Map();
  const terms = searching ? highlightTermsOf(parseSearchQuery(state.q)) : [];
  const cellContext: CellContext = {
    table,
    schema,
    recordHref: (tn, id) => keep(`${urls.browse}/${enc(db)}/${enc(tn)}/${id}`),
    textColumns: taggedColumns(ctx, table),
    terms: [],
    related,
    media: mediaOf(ctx),
    t,
    langName,
    htmlLang,
    mediaTable: ctx.config.av.mediaTable,
    maps,
  };
  const nameColumn = nameColumnOf(table);
  // A search shows what it found (the fragments) in place of the long searched columns.
  const searchedColumns = new Set(
    searching ? (allColumns ? searchColumns : [state.column || apiQuery.get('column')![0]!]) : [],
  );
  // What was found comes right after the record's name (or first, when it has none).
  const kept = shownColumns.filter((n) => !searchedColumns.has(n) || n === nameColumn);
  const at = nameColumn && kept.includes(nameColumn) ? kept.indexOf(nameColumn) + 1 : 1;
  const shown = searching ? [...kept.slice(0, at), 'fragments', ...kept.slice(at)] : shownColumns;
  const sortTerms = state.sort.split(',').filter(Boolean);
  const headers = shown.map((name) => {
    const label = fieldLabel(name);
    if (searching || name === 'fragments') return { name, label, ariaSort: 'none', arrow: '' };
    const current = sortTerms[0] === name ? 'ascending' : sortTerms[0] === `-${name}` ? 'descending' : 'none';
    const nextSort = current === 'ascending' ? `-${name}` : current === 'descending' ? '' : name;
    return {
      name,
      label,
      title: t('sortBy', { column: label }),
      href: browseHref(action, { ...state, sort: nextSort, offset: 0 }),
      ariaSort: current,
      arrow: current === 'ascending' ? ' ▲' : current === 'descending' ? ' ▼' : '',
    };
  });
  const rowViews = rows.map((row) => {
    const id = row.section_id;
    const lang = typeof row.lang === 'string' ? row.lang : undefined;
    const recordQuery = [lang ? `lang=${enc(lang)}` : '', searching ? `q=${enc(state.q)}` : ''].filter(
      Boolean,
    );
    const href =
      typeof id === 'number'
        ? keep(
            `${urls.browse}/${enc(db)}/${enc(table.name)}/${id}${recordQuery.length > 0 ? `?${recordQuery.join('&')}` : ''}${searching ? '#first-match' : ''}`,
          )
        : undefined;
    const matches = fragmentsOf.get(rowKey(row)) ?? [];
    const cells = shown.map((name, i): CellView & { label: string; link?: boolean; name: string } => {
      const label = fieldLabel(name);
      if (name === 'fragments') {
        const html = matches
          .filter((m) => m.fragments.length > 0 && m.column !== nameColumn)
          .map(
            (m) =>
              `<span class="in-field">${fieldLabel(m.column).replace(/[&<>"]/g, '')}:</span> ${m.fragments.map((f) => f.text).join(' … ')}`,
          )
          .join('<br>');
        return { kind: 'html', html, wide: true, label, name };
      }
      if (i === 0 && href) return { kind: 'text', text: String(row[name]), label, link: true, name };
      const cell = listCell(
        row[name],
        name,
        searching && name === nameColumn ? { ...cellContext, terms } : cellContext,
      );
      return {
        ...cell,
        label,
        name,
        link: name === nameColumn && href !== undefined && cell.kind !== 'null',
      };
    });
    return { href, cells, lang: lang ? htmlLang(lang) : undefined };
  });

  const from = rows.length > 0 ? state.offset + 1 : 0;
  const to = state.offset + rows.length;
  const n = (x: number) => formatNumber(req.ui.lang, x);
  const pager = {
    label:
      rows.length === 0
        ? t('pagerNone')
        : total !== undefined
          ? t('pagerRows', { from: n(from), to: n(to), total: n(total) })
          : t('pagerRowsOpen', { from: n(from), to: n(to) }),
    prevHref:
      state.offset > 0
        ? browseHref(action, { ...state, offset: Math.max(0, state.offset - state.limit) })
        : undefined,
    nextHref: hasMore ? browseHref(action, { ...state, offset: state.offset + state.limit }) : undefined,
  };
  const apiPath = `${urls.api}/${enc(db)}/tables/${enc(table.name)}/${searching ? 'search' : 'records'}`;
  const selection = selectionParams(state, table);
  const exports = allColumns
    ? []
    : [
        { label: t('downloadCsv'), href: apiHref(apiPath, selection, { format: 'csv' }) },
        { label: t('downloadExcel'), href: apiHref(apiPath, selection, { format: 'csv', bom: 'true' }) },
        { label: t('downloadNdjson'), href: apiHref(apiPath, selection, { format: 'ndjson' }) },
        { label: t('downloadJson'), href: apiHref(apiPath, apiParams(state, table)) },
      ];
  const filters = table.columns
    .filter((c) => !HIDDEN_COLUMNS.has(c.name))
    .map((c) => {
      const active = state.filters.find((f) => f.column === c.name);
      return {
        column: c.name,
        label: fieldLabel(c.name),
        op: active?.op ?? opsFor(c)[0]!,
        value: active?.value ?? '',
        ops: opsFor(c).map((o) => ({ value: o, label: t(`op:${o}`) })),
        opLabel: t('operatorFor', { column: fieldLabel(c.name) }),
        valueLabel: t('valueFor', { column: fieldLabel(c.name) }),
      };
    });
  const summary =
    total === undefined
      ? ''
      : searching
        ? t('matchingCount', { count: total, formatted: n(total) })
        : t('recordsCount', { count: total, formatted: n(total) });
  const langNotice = state.defaultLang
    ? {
        text: t('langNotice', { lang: langName(state.defaultLang) }),
        linkText: t('langNoticeLink'),
        href: browseHref(action, { ...state, lang: ALL_LANGS, offset: 0 }),
      }
    : undefined;
  const label = tableLabel(table.name);
  return {
    ...layout(urls, req, label, [{ label: db, href: keep(`${urls.browse}/${enc(db)}/`) }, { label }]),
    db,
    table: table.name,
    tableLabel: label,
    summary,
    error,
    langNotice,
    perColumn: allColumns
      ? t('matchesPerField', {
          list: perColumn.map((p) => `${fieldLabel(p.column)} ${n(p.total)}`).join(', '),
        })
      : '',
    form: {
      action,
      q: state.q,
      column: state.column,
      searchColumns: searchColumns.map((c) => ({ value: c, label: fieldLabel(c) })),
      hasLang: table.hasLang,
      lang: state.lang === '' ? (state.defaultLang ?? ALL_LANGS) : state.lang,
      languages: [
        { value: ALL_LANGS, label: t('allLanguages') },
        ...languages.map((l) => ({ value: l, label: langName(l) })),
      ],
      limit: state.limit,
      limits: PAGE_SIZES,
      sort: searching ? '' : state.sort,
      ui: state.ui,
    },
    filters,
    filtersOpen: state.filters.length > 0,
    headers,
    rows: rowViews,
    pager,
    exports,
    facets: facetViews(facets, state, action, req),
  };
}

/** A record's variant to show: the asked one, else the reader's first choice it has. */
function chooseVariant(rows: Row[], asked: string, ui: UiLang): Row {
  const byLang = (l: string) => rows.find((r) => r.lang === l);
  return byLang(asked) ?? PREFERRED[ui].map(byLang).find((r) => r !== undefined) ?? rows[0]!;
}

const isEmpty = (v: unknown) =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

export async function recordPage(
  ctx: PublicationContext,
  urls: BrowseUrls,
  req: PageRequest,
  db: string,
  tableName: string,
  id: string,
  query: QueryParams,
) {
  const { t, keep, tableLabel, fieldLabel, langName } = helpers(req);
  const table = await requireTable(ctx, db, tableName);
  const schema = await ctx.schemas.get(db);
  const answer = await run<RecordBody>(ctx, getRecordOperation, { db, table: table.name, id });
  const q = (query.get('q')?.[0] ?? '').trim().slice(0, 512);
  const terms = q ? highlightTermsOf(parseSearchQuery(q)) : [];
  const rows = rowObjects(answer.body.data);
  const sectionId = answer.body.meta.section_id;
  const asked = query.get('lang')?.[0] ?? '';
  const shown = chooseVariant(rows, asked, req.ui.lang);
  const shownLang = typeof shown.lang === 'string' ? shown.lang : undefined;
  const readerLang = dataLangOf(req.ui.lang);
  // Other variants in the reader's order: where a value is missing, it is taken from them (marked).
  const others = rows
    .filter((r) => r !== shown)
    .sort((a, b) => {
      const rank = (r: Row) => {
        const i = PREFERRED[req.ui.lang].indexOf(String(r.lang));
        return i < 0 ? 99 : i;
      };
      return rank(a) - rank(b);
    });
  const columns = table.columns.map((c) => c.name).filter((n) => n !== 'lang');
  const maps = await readPublicationMaps(ctx, db);
  const values = columns.map((name) => {
    if (!isEmpty(shown[name])) return { name, value: shown[name] };
    const from = others.find((r) => !isEmpty(r[name]));
    return from ? { name, value: from[name], from: String(from.lang) } : { name, value: shown[name] };
  });

  const refs = values.flatMap((v) =>
    v.name === table.name ? [] : (relationRefs(v.value, v.name, schema, maps) ?? []),
  );
  const related =
    refs.length > 0
      ? await lookUpRelated(ctx, db, schema, refs, [shownLang ?? readerLang, ...PREFERRED[req.ui.lang]])
      : new Map();

  // The recording: the media table's row this record names (as the audiovisual API finds it),
  // or the record's own video column.
  const av = ctx.config.av;
  let video: string | null = null;
  let poster: string | null = null;
  if (table.columnsByName.has(av.mediaRelationColumn) || table.name === av.mediaTable) {
    const asset = await findMediaAsset(ctx, db, shown, sectionId);
    video = mediaUrl(asset?.video, ctx.config.mediaBaseUrl);
    poster = mediaUrl(asset?.image, ctx.config.mediaBaseUrl);
  }
  const textColumns = taggedColumns(ctx, table);
  const transcriptColumn =
    video && table.columnsByName.has(av.transcriptionColumn) ? av.transcriptionColumn : undefined;

  const cellContext: CellContext = {
    table,
    schema,
    recordHref: (tn, rid) => keep(`${urls.browse}/${enc(db)}/${enc(tn)}/${rid}`),
    textColumns,
    terms,
    related,
    media: mediaOf(ctx),
    t,
    langName,
    htmlLang,
    mediaTable: ctx.config.av.mediaTable,
    maps,
  };
  const fallbackMark = (from: string | undefined) =>
    from
      ? {
          text: t('fallbackMark', { lang: langName(from) }),
          title: t('fallbackTitle', { wanted: langName(shownLang ?? readerLang), lang: langName(from) }),
          htmlLang: htmlLang(from),
        }
      : undefined;
  const nameColumn = nameColumnOf(table);
  const nameValue = values.find((v) => v.name === nameColumn);
  const heading =
    nameValue && typeof nameValue.value === 'string' && nameValue.value.trim() !== ''
      ? nameColumn === 'name' && typeof shown.surname === 'string'
        ? `${nameValue.value} ${shown.surname}`
        : nameValue.value
      : t('recordId', { table: tableLabel(table.name), id: sectionId });
  const fields = values
    // With the player on the page, the link to the recording's own record would say it twice.
    .filter(
      (v) =>
        v.name !== transcriptColumn && !(video && v.name === av.mediaRelationColumn) && !isEmpty(v.value),
    )
    .map((v) => ({
      name: v.name,
      label: fieldLabel(v.name),
      cell: recordCell(v.value, v.name, cellContext, video ?? undefined),
      fallback: fallbackMark(v.from),
      htmlLang: v.from ? htmlLang(v.from) : undefined,
    }))
    // Who points at the record, when that leads to published records; never as raw locators.
    .filter((f) => f.name !== INVERSE_COLUMN || f.cell.kind === 'links');
  const transcriptValue = transcriptColumn ? values.find((v) => v.name === transcriptColumn) : undefined;
  const transcript =
    transcriptValue && !isEmpty(transcriptValue.value)
      ? {
          cell: recordCell(transcriptValue.value, transcriptValue.name, cellContext, video ?? undefined),
          fallback: fallbackMark(transcriptValue.from),
          htmlLang: transcriptValue.from ? htmlLang(transcriptValue.from) : undefined,
        }
      : undefined;
  await nameSpeakers(ctx, db, schema, transcript?.cell, shownLang ?? readerLang, cellContext.recordHref);
  if (terms.length > 0)
    markFirstMatch([...(transcript ? [transcript.cell] : []), ...fields.map((f) => f.cell)]);
  const recordBase = `${urls.browse}/${enc(db)}/${enc(table.name)}/${sectionId}`;
  const variants = rows
    .filter((r) => typeof r.lang === 'string')
    .map((r) => {
      const code = String(r.lang);
      const params = [`lang=${enc(code)}`, q ? `q=${enc(q)}` : ''].filter(Boolean).join('&');
      return {
        code,
        label: langName(code),
        htmlLang: htmlLang(code),
        href: keep(`${recordBase}?${params}`),
        current: r === shown,
      };
    });
  const fallbackNotice =
    shownLang && table.hasLang && asked === '' && shownLang !== readerLang
      ? t('fallbackNotice', { wanted: langName(readerLang), lang: langName(shownLang) })
      : undefined;
  const listHref = keep(
    `${urls.browse}/${enc(db)}/${enc(table.name)}${q && table.fulltextColumns.size > 0 ? `?q=${enc(q)}` : ''}`,
  );
  const label = tableLabel(table.name);
  return {
    ...layout(urls, req, heading, [
      { label: db, href: keep(`${urls.browse}/${enc(db)}/`) },
      { label, href: listHref },
      { label: String(sectionId) },
    ]),
    table: table.name,
    tableLabel: label,
    id: sectionId,
    heading,
    subheading: t('recordId', { table: label, id: sectionId }),
    q,
    backText: t('backToList', { table: label }),
    backHref: listHref,
    highlighting: q ? t('highlighting', { q }) : '',
    variants: variants.length > 1 ? variants : [],
    shownLang: shownLang ? htmlLang(shownLang) : undefined,
    fallbackNotice,
    video,
    poster,
    transcript,
    fields,
  };
}

/**
 * The transcript's speakers by name: a person tag names a record of the speakers' table
 * (AV_SPEAKER_TABLE), shown as "Name (initials)" with a link to it.
 */
async function nameSpeakers(
  ctx: PublicationContext,
  db: string,
  schema: Awaited<ReturnType<PublicationContext['schemas']['get']>>,
  cell: CellView | undefined,
  lang: string,
  recordHref: (table: string, id: number) => string,
): Promise<void> {
  const table = ctx.config.av.speakerTable;
  if (cell?.kind !== 'transcript' || !schema.tables.get(table)?.columnsByName.has('section_id')) return;
  const speakers = cell.paragraphs.flat().filter((p) => p.kind === 'speaker' && p.person !== undefined);
  if (speakers.length === 0) return;
  const names = await lookUpRelated(
    ctx,
    db,
    schema,
    speakers.map((p) => ({ table, id: (p as { person: number }).person })),
    [lang],
  );
  for (const p of speakers) {
    if (p.kind !== 'speaker' || p.person === undefined) continue;
    const found = names.get(`${table}:${p.person}`);
    if (!found) continue;
    if (found.label) p.label = `${found.label} (${p.label})`;
    p.href = recordHref(table, p.person);
  }
}

/**
 * Gives the page's first highlighted word the id `first-match`, in reading order, so a search
 * result's link (`#first-match`) opens the record there.
 */
function markFirstMatch(cells: CellView[]): void {
  const tag = (html: string) => html.replace('<mark>', '<mark id="first-match">');
  for (const cell of cells) {
    if (cell.kind === 'html' && cell.html.includes('<mark>')) {
      cell.html = tag(cell.html);
      return;
    }
    if (cell.kind === 'transcript')
      for (const para of cell.paragraphs)
        for (const piece of para)
          if (piece.kind === 'text' && piece.html.includes('<mark>')) {
            piece.html = tag(piece.html);
            return;
          }
  }
}

/** A problem as an HTML page: status, title, the detail and each bad parameter; never a stack. */
export function errorPage(urls: BrowseUrls, req: PageRequest, err: ProblemError) {
  const { t } = helpers(req);
  return {
    ...layout(urls, req, `${err.status} ${err.title}`, [{ label: err.title }]),
    status: err.status,
    heading: err.title,
    detail: err.detail,
    backText: t('errorBack'),
    errors: (err.errors ?? []).map((e) => ({ name: e.name, detail: e.detail })),
  };
}
