/**
 * A section's records: column headers from the section context's show map, one row per record,
 * paging with the total (`full_count`), the search panel, and "New" for users who may create.
 * Each row's id is a link that opens the record in edit mode.
 */
import { css, html, LitElement, type TemplateResult } from 'lit';
import { t, uiLang } from '../api/i18n.js';
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
import type { SqoFilter } from './dd-search-panel.js';
import { bcp47Of, langName } from './lang-names.js';
import { hrefOf, navigate, PAGE_SIZES } from './router.js';
import type { Session } from './session.js';
import { baseStyles } from './styles.js';

export class DdSectionList extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; }
      .fallback { font-size: 0.7rem; border: 1px solid #b7791f; color: #7a4a00; border-radius: 3px; padding: 0 0.2rem; }
      .bar { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; margin-bottom: 0.75rem; }
      h1 { margin: 0; font-size: 1.5rem; }
      .spacer { flex: 1; }
      .table-wrap { overflow-x: auto; background: var(--paper); border: 1px solid var(--line); border-radius: 6px; }
      tbody tr:hover { background: #f7fafc; }
      td.id { width: 4rem; }
      .pager { display: flex; gap: 0.5rem; align-items: center; margin-top: 0.75rem; }
      dd-search-panel { margin-bottom: 0.75rem; }
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
  declare result: ReadResult | undefined;
  declare total: number;
  declare error: string;
  declare loading: boolean;
  declare showSearch: boolean;
  declare canPublish: boolean;
  declare publishing: boolean;
  private filter: SqoFilter = null;
  private loadSeq = 0;

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
      this.filter = null;
      this.checkPublishable();
    }
    if (changed.has('section') || changed.has('offset') || changed.has('limit')) void this.load();
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
    } catch (err) {
      if (seq !== this.loadSeq) return;
      this.result = undefined;
      this.error = err instanceof ApiError ? err.message : t('listNotRead');
    } finally {
      if (seq === this.loadSeq) this.loading = false;
    }
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

  private onSearch(e: CustomEvent<SqoFilter>) {
    this.filter = e.detail;
    if (this.offset !== 0) navigate({ name: 'list', section: this.section, offset: 0, limit: this.limit });
    else void this.load();
  }

  private cell(data: DataItem[], column: Ddo, sub: Ddo[], sectionId: number): string | TemplateResult {
    const item = itemOf(data, column.tipo, this.section, sectionId);
    if (!item) return '';
    if (item.pagination !== undefined || sub.length > 0) {
      const locators = item.entries as Locator[];
      return locators.map((l) => linkedText(data, item, sub, l)).join('; ');
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
      <thead><tr><th scope="col">${t('id')}</th>${columns.map((c) => html`<th scope="col">${c.label ?? c.tipo}</th>`)}</tr></thead>
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
          </tr>`;
        })}
      </tbody>
    </table></div>`;
  }

  override render() {
    const ctx = this.context;
    const label = ctx?.label ?? this.session.labelOf(this.section);
    const canCreate = (ctx?.permissions ?? 0) >= 2 && ctx?.read_only !== true;
    const last = this.offset + this.limit;
    const go = (offset: number, limit = this.limit) =>
      navigate({ name: 'list', section: this.section, offset, limit });
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
        ${canCreate ? html`<button class="primary" @click=${this.create}>${t('newRecord')}</button>` : ''}
      </div>
      <dd-confirm-dialog class="publish" confirm-label=${t('publish')} heading=${t('publishSectionTitle', { label })}
        .body=${html`<p>${t('publishSectionBody', { n: this.total, label })}</p>`}></dd-confirm-dialog>
      ${this.showSearch ? html`<dd-search-panel .session=${this.session} .section=${this.section} @search=${this.onSearch}></dd-search-panel>` : ''}
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : this.renderTable()}
      ${
        this.total > 0
          ? html`<nav class="pager" aria-label=${t('pages')}>
            <button ?disabled=${this.offset === 0} @click=${() => go(Math.max(0, this.offset - this.limit))}>${t('previous')}</button>
            <span>${t('pageRange', { from: this.offset + 1, to: Math.min(last, this.total), total: this.total })}</span>
            <button ?disabled=${last >= this.total} @click=${() => go(last)}>${t('next')}</button>
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
