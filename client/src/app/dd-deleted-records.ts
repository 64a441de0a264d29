/**
 * What was deleted from a section (`#/deleted/<section>`): the records removed with "delete the
 * record" whose id is still free, newest first, each with a line of its texts, when and by whom,
 * and "Restore" (the server's `restore_record`: the record comes back under its id with its
 * values, history and an activity row). Offered to users who may create records there; a
 * non-admin sees those of their projects.
 */
import { css, html, LitElement } from 'lit';
import { isoMomentText } from '../api/date-text.js';
import { t } from '../api/i18n.js';
import { ApiError } from '../api/rqo-client.js';
import { hrefOf } from './router.js';
import type { Session } from './session.js';
import { baseStyles } from './styles.js';

interface DeletedRecord {
  section_id: number;
  history_id: number;
  deleted_at: string;
  deleted_by: { user_id: number | null; username: string | null; full_username: string | null };
  summary: string;
}

const PAGE = 25;

export class DdDeletedRecords extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; }
      .bar { display: flex; gap: 0.75rem; align-items: baseline; flex-wrap: wrap; margin-bottom: 0.75rem; }
      h1 { margin: 0; font-size: 1.5rem; }
      .table-wrap { overflow-x: auto; background: var(--paper); border: 1px solid var(--line); border-radius: 6px; }
      td.id { width: 4rem; }
      td.summary { max-width: 28rem; }
      .pager { display: flex; gap: 0.5rem; align-items: center; margin-top: 0.75rem; }
      /* On a phone each deleted record is a card: every value labelled, Restore in reach. */
      @media (max-width: 640px) {
        table, tbody, tr, td { display: block; }
        thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        tr { border-bottom: 1px solid var(--line); padding: 0.4rem 0; }
        td { border: 0; padding: 0.15rem 0.6rem; }
        td.id, td.summary { width: auto; max-width: none; }
        td[data-label]::before { content: attr(data-label) ': '; font-weight: 600; }
      }
    `,
  ];
  static override properties = {
    session: { attribute: false },
    section: {},
    records: { state: true },
    total: { state: true },
    offset: { state: true },
    error: { state: true },
    loading: { state: true },
    busy: { state: true },
  };
  declare session: Session;
  declare section: string;
  declare records: DeletedRecord[];
  declare total: number;
  declare offset: number;
  declare error: string;
  declare loading: boolean;
  /** The id being restored (its button waits). */
  declare busy: number | undefined;
  private seq = 0;

  constructor() {
    super();
    this.records = [];
    this.total = 0;
    this.offset = 0;
    this.error = '';
    this.loading = false;
  }

  override updated(changed: Map<string, unknown>) {
    if (changed.has('section')) {
      this.offset = 0;
      void this.load();
    }
  }

  private async load() {
    const seq = ++this.seq;
    this.loading = true;
    this.error = '';
    try {
      const answer = await this.session.api.call<{ total: number; records: DeletedRecord[] }>({
        action: 'get_deleted_records',
        options: { section_tipo: this.section, limit: PAGE, offset: this.offset },
      });
      if (seq !== this.seq) return;
      this.records = answer.data.records;
      this.total = answer.data.total;
    } catch (err) {
      if (seq !== this.seq) return;
      this.records = [];
      this.error = err instanceof ApiError ? err.message : t('listNotRead');
    } finally {
      if (seq === this.seq) this.loading = false;
    }
  }

  private async restore(r: DeletedRecord) {
    this.busy = r.section_id;
    try {
      await this.session.api.call<number>({
        action: 'restore_record',
        source: { section_tipo: this.section, section_id: r.section_id },
      });
      this.session.announce(t('recordRestored', { id: r.section_id }));
      await this.load();
    } catch (err) {
      this.session.announce(err instanceof ApiError ? err.message : t('restoreFailed'), 'error');
    } finally {
      this.busy = undefined;
    }
  }

  private who(r: DeletedRecord): string {
    if (r.deleted_by.user_id !== null && r.deleted_by.user_id < 0) return t('rootUser');
    return r.deleted_by.full_username?.trim() || r.deleted_by.username || t('unknownUser');
  }

  override render() {
    const label = this.session.labelOf(this.section);
    const back = html`<a href=${hrefOf({ name: 'list', section: this.section, offset: 0 })}>← ${label}</a>`;
    const body = this.error
      ? html`<p class="alert" role="alert">${this.error}</p>`
      : this.records.length === 0 && !this.loading
        ? html`<p class="notice">${t('noDeletedRecords')}</p>`
        : html`<div class="table-wrap"><table>
            <caption class="visually-hidden">${t('deletedRecordsOf', { label })}</caption>
            <thead><tr>
              <th scope="col">${t('id')}</th><th scope="col">${t('deletedRecord')}</th>
              <th scope="col">${t('deletedAt')}</th><th scope="col">${t('deletedBy')}</th><th scope="col"><span class="visually-hidden">${t('actions')}</span></th>
            </tr></thead>
            <tbody>${this.records.map(
              (r) => html`<tr>
                <td class="id" data-label=${t('id')}>${r.section_id}</td>
                <td class="summary" data-label=${t('deletedRecord')}>${r.summary || html`<span class="muted">${t('noText')}</span>`}</td>
                <td data-label=${t('deletedAt')}>${isoMomentText(r.deleted_at)}</td>
                <td data-label=${t('deletedBy')}>${this.who(r)}</td>
                <td><button ?disabled=${this.busy !== undefined} aria-label=${t('restoreRecord', { id: r.section_id })}
                  @click=${() => this.restore(r)}>${this.busy === r.section_id ? t('restoring') : t('restore')}</button></td>
              </tr>`,
            )}</tbody>
          </table></div>`;
    const last = this.offset + PAGE;
    return html`
      <p>${back}</p>
      <div class="bar">
        <h1>${t('deletedRecordsOf', { label })}</h1>
        <span class="muted" aria-live="polite">${this.loading ? t('loading') : t('recordCount', { n: this.total })}</span>
      </div>
      <p class="muted">${t('deletedRecordsHint')}</p>
      ${body}
      ${
        this.total > PAGE
          ? html`<nav class="pager" aria-label=${t('pages')}>
              <button ?disabled=${this.offset === 0} @click=${() => {
                this.offset = Math.max(0, this.offset - PAGE);
                void this.load();
              }}>${t('previous')}</button>
              <span>${t('pageRange', { from: this.offset + 1, to: Math.min(last, this.total), total: this.total })}</span>
              <button ?disabled=${last >= this.total} @click=${() => {
                this.offset = last;
                void this.load();
              }}>${t('next')}</button>
            </nav>`
          : ''
      }
    `;
  }
}
customElements.define('dd-deleted-records', DdDeletedRecords);
