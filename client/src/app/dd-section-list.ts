/**
 * A section's records: column headers from the section context's show map, one row per record,
 * paging with the total (`full_count`), the search panel, and "New" for users who may create.
 * Rows open the record in edit mode (the code/first column is a link; Enter on a row works too).
 */
import { css, html, LitElement } from 'lit';
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
import './dd-search-panel.js';
import type { SqoFilter } from './dd-search-panel.js';
import { hrefOf, navigate } from './router.js';
import type { Session } from './session.js';
import { baseStyles } from './styles.js';

export const PAGE_SIZE = 25;

export class DdSectionList extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; }
      .bar { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; margin-bottom: 0.75rem; }
      h1 { margin: 0; font-size: 1.5rem; }
      .spacer { flex: 1; }
      .table-wrap { overflow-x: auto; background: var(--paper); border: 1px solid var(--line); border-radius: 6px; }
      tbody tr:hover { background: #f7fafc; }
      td.id { width: 4rem; }
      .pager { display: flex; gap: 0.5rem; align-items: center; margin-top: 0.75rem; }
      dd-search-panel { margin-bottom: 0.75rem; }
    `,
  ];
  static override properties = {
    session: { attribute: false },
    section: {},
    offset: { type: Number },
    result: { state: true },
    total: { state: true },
    error: { state: true },
    loading: { state: true },
    showSearch: { state: true },
  };
  declare session: Session;
  declare section: string;
  declare offset: number;
  declare result: ReadResult | undefined;
  declare total: number;
  declare error: string;
  declare loading: boolean;
  declare showSearch: boolean;
  private filter: SqoFilter = null;
  private loadSeq = 0;

  constructor() {
    super();
    this.offset = 0;
    this.total = 0;
    this.error = '';
    this.loading = false;
    this.showSearch = false;
  }

  override updated(changed: Map<string, unknown>) {
    if (changed.has('section')) this.filter = null;
    if (changed.has('section') || changed.has('offset')) void this.load();
  }

  private async load() {
    const seq = ++this.loadSeq;
    this.loading = true;
    this.error = '';
    try {
      const sqo: Record<string, unknown> = {
        section_tipo: [this.section],
        limit: PAGE_SIZE,
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
      this.result = answer.data;
      const sections = answer.data.data.find((d) => d.typo === 'sections');
      this.total = Number(sections?.total ?? sections?.entries.length ?? 0);
    } catch (err) {
      if (seq !== this.loadSeq) return;
      this.result = undefined;
      this.error = err instanceof ApiError ? err.message : 'The list could not be read.';
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
        idempotency_key: crypto.randomUUID(),
      });
      this.session.announce(`Record ${answer.data} created.`);
      navigate({ name: 'edit', section: this.section, id: answer.data });
    } catch (err) {
      this.session.announce(
        err instanceof ApiError ? err.message : 'The record could not be created.',
        'error',
      );
    }
  }

  private onSearch(e: CustomEvent<SqoFilter>) {
    this.filter = e.detail;
    if (this.offset !== 0) navigate({ name: 'list', section: this.section, offset: 0 });
    else void this.load();
  }

  private cell(data: DataItem[], column: Ddo, sub: Ddo[], sectionId: number): string {
    const item = itemOf(data, column.tipo, this.section, sectionId);
    if (!item) return '';
    if (item.pagination !== undefined || sub.length > 0) {
      const locators = item.entries as Locator[];
      return locators.map((l) => linkedText(data, item, sub, l)).join('; ');
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
      return html`<p class="notice">No records${this.filter ? ' match this search' : ''}.</p>`;
    return html`<div class="table-wrap"><table>
      <caption class="visually-hidden">${this.context?.label ?? this.section}: records ${this.offset + 1} to ${this.offset + rows.length} of ${this.total}</caption>
      <thead><tr><th scope="col">Id</th>${columns.map((c) => html`<th scope="col">${c.label ?? c.tipo}</th>`)}</tr></thead>
      <tbody>
        ${rows.map((r) => {
          const id = Number(r.section_id);
          const href = hrefOf({ name: 'edit', section: this.section, id });
          return html`<tr>
            <td class="id"><a href=${href} aria-label="Open record ${id}">${id}</a></td>
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
    const last = this.offset + PAGE_SIZE;
    return html`
      <div class="bar">
        <h1>${label}</h1>
        <span class="muted" aria-live="polite">${this.loading ? 'Loading…' : `${this.total} record${this.total === 1 ? '' : 's'}`}</span>
        <span class="spacer"></span>
        <button aria-expanded=${this.showSearch ? 'true' : 'false'} @click=${() => {
          this.showSearch = !this.showSearch;
        }}>Search</button>
        ${canCreate ? html`<button class="primary" @click=${this.create}>New record</button>` : ''}
      </div>
      ${this.showSearch ? html`<dd-search-panel .session=${this.session} .section=${this.section} @search=${this.onSearch}></dd-search-panel>` : ''}
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : this.renderTable()}
      ${
        this.total > PAGE_SIZE
          ? html`<nav class="pager" aria-label="Pages">
            <button ?disabled=${this.offset === 0} @click=${() => navigate({ name: 'list', section: this.section, offset: Math.max(0, this.offset - PAGE_SIZE) })}>Previous</button>
            <span>${this.offset + 1}–${Math.min(last, this.total)} of ${this.total}</span>
            <button ?disabled=${last >= this.total} @click=${() => navigate({ name: 'list', section: this.section, offset: last })}>Next</button>
          </nav>`
          : ''
      }
    `;
  }
}
customElements.define('dd-section-list', DdSectionList);
