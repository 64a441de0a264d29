/**
 * A section's records: column headers from the section context's show map (each one sorts the
 * list, through the SQO `order`), one row per record, paging with the total (`full_count`) and a
 * page to jump to, the search panel, and "New" for users who may create. Each row's id is a link
 * that opens the record in edit mode. The page, the order and the search live in the address
 * (router.ts, list-search.ts): a reload, a shared link and back/forward show the same list. A
 * search in long texts (a transcription) shows under each row the excerpts that matched.
 */
import { css, html, LitElement, type TemplateResult } from 'lit';
import { type MessageKey, t, uiLang } from '../api/i18n.js';
import { newIdempotencyKey } from '../api/idempotency-key.js';
import {
  type ContextEntry,
  type DataItem,
  type Ddo,
  itemOf,
  itemText,
  type Locator,
  linkedText,
  type ReadResult,
  showDdos,
} from '../api/read-shapes.js';
import { ApiError } from '../api/rqo-client.js';
import type { DdConfirmDialog } from './dd-confirm-dialog.js';
import './dd-confirm-dialog.js';
import { publishOffer, publishSummary } from './publish.js';
import './dd-search-panel.js';
import type { SearchDetail } from './dd-search-panel.js';
import { markFresh } from './fresh-record.js';
import { bcp47Of, langName } from './lang-names.js';
import {
  decodeListSearch,
  encodeListSearch,
  fetchExcerpts,
  type ListSearch,
  type RowExcerpts,
} from './list-search.js';
import { RecordNames } from './record-names.js';
import { hrefOf, type ListSort, navigate, PAGE_SIZES } from './router.js';
import type { Session } from './session.js';
import { baseStyles } from './styles.js';

/** The activity log and its "where" column: an element tipo written as text (dd229, rsc167). */
const ACTIVITY_SECTION = 'dd542';
const ACTIVITY_WHERE = 'dd546';
/** Its "what" column: the server's event codes (store/activity.ts), worded in the interface language. */
const ACTIVITY_WHAT = 'dd545';
const ACTIVITY_WORDS: Record<string, MessageKey> = {
  login: 'activityLogin',
  logout: 'activityLogout',
  new: 'activityNew',
  save: 'activitySave',
  delete: 'activityDelete',
  restore: 'activityRestore',
  load: 'activityLoad',
  upload: 'activityUpload',
};

const isLocatorEntry = (e: unknown): e is Locator =>
  typeof e === 'object' && e !== null && 'section_tipo' in e && 'section_id' in e;

/** Models the server can order by (docs/work-sqo.md "Order"): text, numbers, dates, relations. */
const SORTABLE_MODELS = new Set([
  'component_input_text',
  'component_text_area',
  'component_email',
  'component_number',
  'component_date',
  'component_select',
  'component_radio_button',
  'component_section_id',
]);

export class DdSectionList extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; }
      .fallback { font-size: 0.7rem; border: 1px solid #b7791f; color: #7a4a00; border-radius: 3px; padding: 0 0.2rem; }
      .bar { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; margin-bottom: 0.75rem; }
      h1 { margin: 0; font-size: 1.5rem; }
      .spacer { flex: 1; }
      /* A container: the excerpts under a row measure themselves against it (cqw). */
      .table-wrap { overflow-x: auto; background: var(--paper); border: 1px solid var(--line); border-radius: 6px; container-type: inline-size; }
      tbody tr:hover { background: #f7fafc; }
      /* As wide as the longest id on the page, never wrapped: its room goes to the values. */
      td.id, th:first-child { width: 1%; white-space: nowrap; }
      .pager { display: flex; gap: 0.5rem; align-items: center; margin-top: 0.75rem; }
      dd-search-panel { margin-bottom: 0.75rem; }
      /* The arrow may go under its label (a space between them): a column is then as narrow as
         its longest word, and at 1024 px a whole list fits beside the menu without scrolling. */
      th button.sort { all: unset; cursor: pointer; font-weight: 600; }
      @container (max-width: 60rem) { th, td { padding-inline: 0.35rem; } }
      th button.sort:focus-visible { outline: 2px solid var(--accent, #2b6cb0); outline-offset: 2px; }
      th button.sort .arrow { display: inline-block; font-size: 0.75rem; color: var(--muted, #4a5568); min-width: 0.75rem; }
      tr.excerpts td { border-top: 0; padding-top: 0; }
      tr.excerpts ul { position: sticky; left: 0.5rem; max-width: min(60rem, calc(100cqw - 4.5rem)); margin: 0 0 0 3rem; padding-left: 1.1rem; font-size: 0.9rem; color: #2d3748; }
      @media (max-width: 640px) { tr.excerpts ul { margin-left: 0.5rem; max-width: calc(100cqw - 2rem); } }
      tr.excerpts mark { background: #fefcbf; color: inherit; font-weight: 600; padding: 0 0.1rem; }
      .pager { flex-wrap: wrap; }
      .pager > span, .pager label { white-space: nowrap; }
      .jump { display: inline-flex; gap: 0.35rem; align-items: center; white-space: nowrap; }
      .jump input { width: 4rem; }
      details.export { position: relative; }
      details.export > summary { list-style: none; cursor: pointer; padding: 0.35rem 0.8rem; border: 1px solid var(--line); border-radius: 4px; background: var(--paper); }
      details.export > summary::-webkit-details-marker { display: none; }
      a.button-link { padding: 0.35rem 0.8rem; border: 1px solid var(--line); border-radius: 4px; background: var(--paper); color: inherit; text-decoration: none; }
      details.export > summary::after { content: ' ▾'; }
      details.export .menu { position: absolute; right: 0; z-index: 5; min-width: 16rem; max-width: min(22rem, 90vw); margin-top: 0.25rem; padding: 0.5rem; background: var(--paper); border: 1px solid var(--line); border-radius: 6px; box-shadow: 0 4px 12px rgb(0 0 0 / 12%); }
      details.export .menu a { display: block; padding: 0.4rem 0.5rem; border-radius: 4px; }
      details.export .menu a:hover, details.export .menu a:focus { background: #f7fafc; }
      details.export .menu p { margin: 0 0 0.35rem; font-size: 0.85rem; }
      /* On a phone the button wraps to the left edge: the menu opens rightwards from it. */
      @media (max-width: 640px) { details.export .menu { right: auto; left: 0; } }
    `,
  ];
  static override properties = {
    session: { attribute: false },
    section: {},
    offset: { type: Number },
    limit: { type: Number },
    sort: { attribute: false },
    search: {},
    dataLang: {},
    excerpts: { state: true },
    result: { state: true },
    total: { state: true },
    error: { state: true },
    loading: { state: true },
    showSearch: { state: true },
    canPublish: { state: true },
    publishing: { state: true },
  };
  declare session: Session;
  declare section: string;
  declare offset: number;
  declare limit: number;
  /** The order the address asks for (none: by id). */
  declare sort: ListSort | undefined;
  /** The search the address holds (list-search.ts encoding). */
  declare search: string | undefined;
  /** The session's data language: a change reads the list again, in it. */
  declare dataLang: string | undefined;
  declare excerpts: RowExcerpts;
  declare result: ReadResult | undefined;
  declare total: number;
  declare error: string;
  declare loading: boolean;
  declare showSearch: boolean;
  declare canPublish: boolean;
  declare publishing: boolean;
  private loadSeq = 0;
  /** Names of the linked records the rows show (Publishable "Yes", a profile, a user). */
  private names: RecordNames | undefined;

  /** The search of the address, checked (a mangled one is no search). */
  private get listSearch(): ListSearch | undefined {
    return decodeListSearch(this.search);
  }

  private get filter(): Record<string, unknown> | undefined {
    return this.listSearch?.filter;
  }

  constructor() {
    super();
    this.offset = 0;
    this.limit = 25;
    this.total = 0;
    this.error = '';
    this.loading = false;
    this.showSearch = false;
    this.canPublish = false;
    this.publishing = false;
    this.excerpts = new Map();
  }

  /** Offers Publish only where the server's publication map takes this section. */
  private checkPublishable() {
    const section = this.section;
    this.canPublish = false;
    void publishOffer(this.session.api, section).then((offer) => {
      if (this.section === section) this.canPublish = offer.section;
    });
  }

  /** Publishes every record of the section (the server allows it to global admins). */
  private async publishSection() {
    const dialog = this.renderRoot.querySelector<DdConfirmDialog>('dd-confirm-dialog.publish')!;
    if (!(await dialog.ask())) return;
    this.publishing = true;
    try {
      const answer = await this.session.api.call<Record<string, unknown>>({
        dd_api: 'dd_diffusion_api',
        action: 'diffuse',
        options: { section_tipo: this.section },
      });
      this.session.announce(publishSummary(answer.data));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'request.unknown_action') this.canPublish = false;
      this.session.announce(err instanceof ApiError ? err.message : t('publishFailed'), 'error');
    } finally {
      this.publishing = false;
    }
  }

  override updated(changed: Map<string, unknown>) {
    if (changed.has('section')) {
      this.checkPublishable();
      this.showSearch = this.search !== undefined;
    }
    // A list opened from a link (or back/forward) with a search shows its conditions.
    if (changed.has('search') && this.search !== undefined) this.showSearch = true;
    if (
      changed.has('section') ||
      changed.has('offset') ||
      changed.has('limit') ||
      changed.has('search') ||
      (changed.has('sort') && JSON.stringify(changed.get('sort')) !== JSON.stringify(this.sort)) ||
      (changed.has('dataLang') && changed.get('dataLang') !== undefined)
    )
      void this.load();
    if (changed.has('result') && this.result) {
      // How long the rows took to render after the answer came (the browser test reports it).
      performance.measure('dd-list-render', 'dd-list-answer');
    }
  }

  private async load() {
    const seq = ++this.loadSeq;
    this.loading = true;
    this.error = '';
    try {
      const sqo: Record<string, unknown> = {
        section_tipo: [this.section],
        limit: this.limit,
        offset: this.offset,
        full_count: true,
      };
      if (this.filter) sqo.filter = this.filter;
      const order = this.orderOf(this.sort);
      if (order) sqo.order = order;
      const answer = await this.session.api.call<ReadResult>({
        action: 'read',
        source: {
          tipo: this.section,
          section_tipo: this.section,
          model: 'section',
          mode: 'list',
          action: 'search',
        },
        sqo,
      });
      if (seq !== this.loadSeq) return;
      performance.clearMeasures('dd-list-render');
      performance.mark('dd-list-answer');
      this.result = answer.data;
      const sections = answer.data.data.find((d) => d.typo === 'sections');
      this.total = Number(sections?.total ?? sections?.entries.length ?? 0);
      this.excerpts = new Map();
      void this.loadExcerpts(
        seq,
        ((sections?.entries ?? []) as Locator[]).map((l) => Number(l.section_id)),
      );
      void this.loadNames(seq, answer.data);
    } catch (err) {
      if (seq !== this.loadSeq) return;
      this.result = undefined;
      this.excerpts = new Map();
      this.error = err instanceof ApiError ? err.message : t('listNotRead');
    } finally {
      if (seq === this.loadSeq) this.loading = false;
    }
  }

  /**
   * Names of the records linked from columns that came without their own sub-columns (a select,
   * a radio button, a user), and labels of the element tipos the activity log names.
   */
  private async loadNames(seq: number, result: ReadResult) {
    if (this.names?.lang !== this.session.dataLang)
      this.names = new RecordNames(this.session.api, this.session.dataLang);
    const names = this.names;
    const ddos = showDdos(this.context);
    const locators: Locator[] = [];
    const tipos: string[] = [];
    for (const item of result.data) {
      if (item.typo === 'sections' || item.section_tipo !== this.section || item.parent_tipo !== undefined)
        continue;
      if (this.section === ACTIVITY_SECTION && item.tipo === ACTIVITY_WHERE) {
        tipos.push(...(item.entries as { value?: unknown }[]).map((e) => String(e.value ?? '')));
        continue;
      }
      // Locators whose sub-columns came empty (none, or none readable) are named by a read.
      const sub = ddos.filter((d) => d.parent === item.tipo);
      for (const e of item.entries) {
        if (isLocatorEntry(e) && (sub.length === 0 || linkedText(result.data, item, sub, e) === ''))
          locators.push(e);
      }
    }
    if (locators.length === 0 && tipos.length === 0) return;
    await Promise.all([names.resolve(locators), names.resolveLabels(tipos)]);
    if (seq === this.loadSeq) this.requestUpdate();
  }

  /** The excerpts of the long texts the search looked in, for the rows shown (a second read). */
  private async loadExcerpts(seq: number, ids: number[]) {
    const sources = this.listSearch?.excerpts ?? [];
    if (sources.length === 0 || ids.length === 0) return;
    try {
      const found = await fetchExcerpts(this.session.api, this.section, ids, sources);
      if (seq === this.loadSeq) this.excerpts = found;
    } catch {
      // The rows are what was asked for; without excerpts they still say which records match.
    }
  }

  /** The SQO order of a column: through a portal, by the first of its columns (a name, a code). */
  private orderOf(sort: ListSort | undefined): Record<string, unknown>[] | undefined {
    if (!sort) return undefined;
    const direction = sort.dir === 'desc' ? 'DESC' : 'ASC';
    if (sort.column === 'section_id')
      return [{ direction, path: [{ section_tipo: this.section, component_tipo: 'section_id' }] }];
    const path = this.sortPath(sort.column);
    return path ? [{ direction, path, lang: this.session.dataLang }] : undefined;
  }

  /** The order path of a column, or undefined when it cannot be ordered (a media file, say). */
  private sortPath(tipo: string): Record<string, string>[] | undefined {
    const ddos = showDdos(this.context);
    const column = ddos.find((d) => d.tipo === tipo && (d.parent === this.section || d.parent === 'self'));
    const first = { section_tipo: this.section, component_tipo: tipo };
    // Before the first answer the context is unknown: the column is trusted; the server checks it.
    if (!column) return this.context ? undefined : [first];
    const sub = ddos.find((d) => d.parent === tipo && d.model !== undefined && SORTABLE_MODELS.has(d.model));
    if (sub) return [first, { section_tipo: sub.section_tipo, component_tipo: sub.tipo }];
    return column.model !== undefined && SORTABLE_MODELS.has(column.model) ? [first] : undefined;
  }

  private get context(): ContextEntry | undefined {
    return this.result?.context.find((c) => c.type === 'section' && c.tipo === this.section);
  }

  private async create() {
    try {
      const answer = await this.session.api.call<number>({
        action: 'create',
        source: { section_tipo: this.section, tipo: this.section, model: 'section' },
        idempotency_key: newIdempotencyKey(),
      });
      this.session.announce(t('recordCreated', { id: answer.data }));
      markFresh(this.section, answer.data);
      navigate({ name: 'edit', section: this.section, id: answer.data });
    } catch (err) {
      this.session.announce(err instanceof ApiError ? err.message : t('recordNotCreated'), 'error');
    }
  }

  /**
   * The download of the current search (every page, not only this one) in a format: the
   * server's export route, with the session cookie; the data language names the plain file's
   * columns and picks its texts.
   */
  private exportUrl(format: 'dedalo' | 'plain'): string {
    const api = this.session.api.apiUrl.replace(/\/$/, '');
    const sqo: Record<string, unknown> = { section_tipo: [this.section] };
    if (this.filter) sqo.filter = this.filter;
    const query = new URLSearchParams({ format, lang: this.session.dataLang, sqo: JSON.stringify(sqo) });
    return `${api}/export/${encodeURIComponent(this.section)}.csv?${query}`;
  }

  private renderExport() {
    if (this.total === 0) return '';
    const close = (e: Event) => (e.currentTarget as HTMLElement).closest('details')?.removeAttribute('open');
    return html`<details class="export" lang=${uiLang()}>
      <summary>${t('exportMenu')}</summary>
      <div class="menu">
        <p class="muted">${t('exportHint')}</p>
        <a href=${this.exportUrl('dedalo')} download @click=${close}>${t('exportDedalo')}</a>
        <a href=${this.exportUrl('plain')} download @click=${close}>${t('exportPlain')}</a>
      </div>
    </details>`;
  }

  /** A new search starts at the first page; it is a new address (back returns to the last one). */
  private onSearch(e: CustomEvent<SearchDetail>) {
    const search = e.detail.search ? encodeListSearch(e.detail.search) : undefined;
    if (search === this.search && this.offset === 0) {
      void this.load();
      return;
    }
    this.go({ offset: 0, search });
  }

  /** Navigates to this list with some of its address changed. */
  private go(change: {
    offset?: number;
    limit?: number;
    sort?: ListSort | undefined;
    search?: string | undefined;
  }) {
    const next = {
      offset: this.offset,
      limit: this.limit,
      sort: this.sort,
      search: this.search,
      ...change,
    };
    navigate({
      name: 'list',
      section: this.section,
      offset: next.offset,
      limit: next.limit,
      ...(next.sort ? { sort: next.sort } : {}),
      ...(next.search ? { search: next.search } : {}),
    });
  }

  /** A header click: ascending, then descending, by that column (back to the first page). */
  private sortBy(column: string) {
    const dir = this.sort?.column === column && this.sort.dir === 'asc' ? 'desc' : 'asc';
    this.go({ offset: 0, sort: { column, dir } });
  }

  private header(column: string, label: string, sortable: boolean) {
    if (!sortable) return html`<th scope="col">${label}</th>`;
    const active = this.sort?.column === column ? this.sort.dir : undefined;
    const ariaSort = active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : 'none';
    return html`<th scope="col" aria-sort=${ariaSort}>
      <button class="sort" title=${t('sortBy', { label })} @click=${() => this.sortBy(column)}>${label} <span class="arrow" aria-hidden="true">${active === 'asc' ? '▲' : active === 'desc' ? '▼' : '↕'}</span></button>
    </th>`;
  }

  private renderExcerpts(id: number, span: number) {
    const found = this.excerpts.get(id);
    if (!found) return '';
    // One cell across the row; its text stays in view when a narrow screen scrolls the table.
    return html`<tr class="excerpts"><td colspan=${span + 1}>
      <ul aria-label=${t('excerptsOf', { id })}>
        ${found.map(
          (x) =>
            html`<li>${x.cutBefore ? '… ' : ''}${x.parts.map((p) => (p.hit ? html`<mark>${p.text}</mark>` : p.text))}${x.cutAfter ? ' …' : ''}</li>`,
        )}
      </ul>
    </td></tr>`;
  }

  private cell(data: DataItem[], column: Ddo, sub: Ddo[], sectionId: number): string | TemplateResult {
    const item = itemOf(data, column.tipo, this.section, sectionId);
    if (!item) return '';
    if (item.pagination !== undefined || sub.length > 0 || item.entries.some(isLocatorEntry)) {
      const locators = item.entries.filter(isLocatorEntry);
      return html`${locators.map((l, i) => {
        const own = sub.length > 0 ? linkedText(data, item, sub, l) : '';
        const text =
          (own || undefined) ??
          this.names?.nameOf(l) ??
          t('recordOf', { label: this.session.labelOf(l.section_tipo), id: l.section_id });
        const id = Number(l.section_id);
        const link =
          id > 0 ? html`<a href=${hrefOf({ name: 'edit', section: l.section_tipo, id })}>${text}</a>` : text;
        return html`${i > 0 ? '; ' : ''}${link}`;
      })}`;
    }
    if (this.section === ACTIVITY_SECTION && column.tipo === ACTIVITY_WHAT) {
      const code = String((item.entries[0] as { value?: unknown } | undefined)?.value ?? '');
      const key = ACTIVITY_WORDS[code];
      if (key) return html`<span title=${code}>${t(key)}</span>`;
    }
    if (this.section === ACTIVITY_SECTION && column.tipo === ACTIVITY_WHERE) {
      const tipo = String((item.entries[0] as { value?: unknown } | undefined)?.value ?? '');
      const label = this.names?.labelOf(tipo);
      return label ? html`<span title=${tipo}>${label}</span>` : tipo;
    }
    // A translatable value with none in the data language: the list shows another's, marked.
    const shown = (item.entries as { lang?: unknown }[])[0]?.lang;
    const want = this.session.dataLang;
    if (typeof shown === 'string' && shown !== 'lg-nolan' && item.lang !== 'lg-nolan' && shown !== want) {
      const names = this.session.langs;
      const mark = t('fallbackMark', { shown: langName(shown, names), wanted: langName(want, names) });
      return html`<span lang=${bcp47Of(shown)}>${itemText(item)}</span> <span class="fallback" aria-hidden="true"
        title=${mark}>${bcp47Of(shown).toUpperCase()}</span><span class="visually-hidden" lang=${uiLang()}>${mark}</span>`;
    }
    return itemText(item);
  }

  private renderTable() {
    const result = this.result;
    if (!result) return '';
    const ddos = showDdos(this.context);
    const columns = ddos.filter((d) => d.parent === this.section || d.parent === 'self');
    const rows = (result.data.find((d) => d.typo === 'sections')?.entries ?? []) as Locator[];
    if (rows.length === 0)
      return html`<p class="notice">${this.filter ? t('noRecordsMatch') : t('noRecords')}</p>`;
    return html`<div class="table-wrap"><table>
      <caption class="visually-hidden">${t('tableCaption', { label: this.context?.label ?? this.section, from: this.offset + 1, to: this.offset + rows.length, total: this.total })}</caption>
      <thead><tr>${this.header('section_id', t('id'), true)}${columns.map((c) =>
        this.header(c.tipo, c.label ?? c.tipo, this.sortPath(c.tipo) !== undefined),
      )}</tr></thead>
      <tbody>
        ${rows.map((r) => {
          const id = Number(r.section_id);
          const href = hrefOf({ name: 'edit', section: this.section, id });
          return html`<tr>
            <td class="id"><a href=${href} aria-label=${t('openRecord', { id })}>${id}</a></td>
            ${columns.map(
              (c) =>
                html`<td>${this.cell(
                  result.data,
                  c,
                  ddos.filter((d) => d.parent === c.tipo),
                  id,
                )}</td>`,
            )}
          </tr>${this.renderExcerpts(id, columns.length)}`;
        })}
      </tbody>
    </table></div>`;
  }

  override render() {
    const ctx = this.context;
    const label = ctx?.label ?? this.session.labelOf(this.section);
    const canCreate = (ctx?.permissions ?? 0) >= 2 && ctx?.read_only !== true;
    const last = this.offset + this.limit;
    const go = (offset: number, limit = this.limit) => this.go({ offset, limit });
    const pages = Math.max(1, Math.ceil(this.total / this.limit));
    const page = Math.floor(this.offset / this.limit) + 1;
    return html`
      <div class="bar">
        <h1>${label}</h1>
        <span class="muted" aria-live="polite">${this.loading ? t('loading') : t('recordCount', { n: this.total })}</span>
        <span class="spacer"></span>
        <button aria-expanded=${this.showSearch ? 'true' : 'false'} @click=${() => {
          this.showSearch = !this.showSearch;
        }}>${t('search')}</button>
        ${this.renderExport()}
        ${canCreate ? html`<a class="button-link" href=${hrefOf({ name: 'import', section: this.section })}>${t('importButton')}</a>` : ''}
        ${
          this.canPublish && canCreate
            ? html`<button ?disabled=${this.publishing} @click=${this.publishSection}>${this.publishing ? t('publishing') : t('publishSection')}</button>`
            : ''
        }
        ${canCreate ? html`<a class="deleted-link" href=${hrefOf({ name: 'deleted', section: this.section })}>${t('deletedRecordsLink')}</a>` : ''}
        ${canCreate ? html`<button class="primary" @click=${this.create}>${t('newRecord')}</button>` : ''}
      </div>
      <dd-confirm-dialog class="publish" confirm-label=${t('publish')} heading=${t('publishSectionTitle', { label })}
        .body=${html`<p>${t('publishSectionBody', { n: this.total, label })}</p>`}></dd-confirm-dialog>
      ${this.showSearch ? html`<dd-search-panel .session=${this.session} .section=${this.section} .initial=${this.listSearch} @search=${this.onSearch}></dd-search-panel>` : ''}
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : this.renderTable()}
      ${
        this.total > 0
          ? html`<nav class="pager" aria-label=${t('pages')}>
            <button ?disabled=${this.offset === 0} @click=${() => go(Math.max(0, this.offset - this.limit))}>${t('previous')}</button>
            <span>${t('pageRange', { from: this.offset + 1, to: Math.min(last, this.total), total: this.total })}</span>
            <button ?disabled=${last >= this.total} @click=${() => go(last)}>${t('next')}</button>
            ${
              pages > 1
                ? html`<form class="jump" @submit=${(e: Event) => {
                    e.preventDefault();
                    const input = (e.currentTarget as HTMLFormElement).querySelector('input')!;
                    const n = Math.min(pages, Math.max(1, Math.trunc(Number(input.value)) || 1));
                    go((n - 1) * this.limit);
                  }}>
                  <label>${t('pageLabel')} <input type="number" min="1" max=${pages} .value=${String(page)} /></label>
                  <span>${t('ofPages', { n: pages })}</span>
                  <button type="submit">${t('goToPage')}</button>
                </form>`
                : ''
            }
            <label>${t('perPage')}
              <select @change=${(e: Event) => go(0, Number((e.target as HTMLSelectElement).value))}>
                ${PAGE_SIZES.map((n) => html`<option value=${n} ?selected=${n === this.limit}>${n}</option>`)}
              </select>
            </label>
          </nav>`
          : ''
      }
    `;
  }
}
customElements.define('dd-section-list', DdSectionList);
