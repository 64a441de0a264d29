/**
 * A record's history (`read` with `sqo.mode: "tm"`): one row per saved value, newest first, with
 * who and when, and "Restore" that saves that value again (`set_data` of the row's items in its
 * language). Delete snapshots are listed but restored only by creating the record again.
 */
import { css, html, LitElement } from 'lit';
import { t } from '../api/i18n.js';
import { type ContextEntry, type DataItem, itemText, type ReadResult } from '../api/read-shapes.js';
import { ApiError } from '../api/rqo-client.js';
import type { RecordStore } from '../components/record-store.js';
import { baseStyles } from './styles.js';

interface HistoryRow {
  /** The record the row belongs to: Restore writes there, whatever is on screen by then. */
  store: RecordStore;
  matrixId: number;
  item: DataItem;
  when: string;
  who: string;
  /** Written by an import (or its undo): "imported from FILE" beside who and when. */
  origin: string;
}

/** The row's import, in words (the server sends `{id, undo, file_name}` on imported rows). */
function importOrigin(value: unknown): string {
  if (value === null || typeof value !== 'object') return '';
  const { id, undo, file_name } = value as { id?: unknown; undo?: unknown; file_name?: unknown };
  const vars = { id: String(id ?? ''), file: String(file_name ?? '') };
  return undo === true ? t('importUndoneBy', vars) : t('importedFrom', vars);
}

export class DdHistory extends LitElement {
  static override styles = [
    baseStyles,
    // A narrow screen scrolls the table sideways instead of spilling it out of its box.
    css`:host { display: block; overflow-x: auto; } td.value { max-width: 28rem; overflow-wrap: anywhere; }`,
  ];
  static override properties = {
    store: { attribute: false },
    labels: { attribute: false },
    rows: { state: true },
    error: { state: true },
  };
  declare store: RecordStore;
  /** Component labels by tipo (from the record's context). */
  declare labels: Map<string, ContextEntry>;
  declare rows: HistoryRow[] | undefined;
  declare error: string;

  constructor() {
    super();
    this.error = '';
  }

  /** The store the shown rows were read for (another record's rows are never shown). */
  private loadedFor: RecordStore | undefined;

  override connectedCallback() {
    super.connectedCallback();
    if (this.store) void this.load();
  }

  override willUpdate(changed: Map<string, unknown>) {
    // Another record (by address, back / forward) or the same one read again: its own history.
    if (changed.has('store') && this.store !== this.loadedFor && this.isConnected) {
      this.rows = undefined;
      this.error = '';
      void this.load();
    }
  }

  async load() {
    const store = this.store;
    this.loadedFor = store;
    const { sectionTipo, sectionId } = store;
    try {
      const answer = await this.store.session.api.call<ReadResult>({
        action: 'read',
        source: { tipo: sectionTipo, section_tipo: sectionTipo, model: 'section', mode: 'tm' },
        sqo: {
          section_tipo: [sectionTipo],
          mode: 'tm',
          limit: 100,
          filter_by_locators: [{ section_tipo: sectionTipo, section_id: sectionId }],
        },
      });
      const data = answer.data.data;
      const byRow = (id: unknown, tipo: string) => data.find((d) => d.matrix_id === id && d.tipo === tipo);
      const rows: HistoryRow[] = data
        .filter((d) => d.kind !== undefined && d.mode === 'tm')
        .map((raw) => {
          // A row keeps the component's whole value (every language): a translatable one shows,
          // and restores, the slice of the language that save was in.
          const translatable = this.labels.get(raw.tipo)?.translatable === true;
          const d = translatable
            ? { ...raw, entries: raw.entries.filter((e) => (e as { lang?: string }).lang === raw.lang) }
            : raw;
          const when = (
            byRow(d.matrix_id, 'dd201')?.entries[0] as { start?: Record<string, number> } | undefined
          )?.start;
          const who = byRow(d.matrix_id, 'dd197')?.entries[0] as
            | { section_id?: number; label?: string }
            | undefined;
          const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
          return {
            store,
            matrixId: Number(d.matrix_id),
            item: d,
            when: when
              ? `${when.year}-${pad(when.month)}-${pad(when.day)} ${pad(when.hour)}:${pad(when.minute)}:${pad(when.second)}`
              : '',
            // The server labels the user (full name, else username); a deleted user has none.
            who: who?.label ?? (who ? t('userNumber', { id: who.section_id }) : ''),
            origin: importOrigin(d.import),
          };
        });
      // The server shows each row in the reading language: a save in another language left this
      // one as it was, so such a row repeats the older one and is dropped (newest first here).
      const same = (a: HistoryRow, b: HistoryRow) =>
        a.item.tipo === b.item.tipo && JSON.stringify(a.item.entries) === JSON.stringify(b.item.entries);
      if (this.store !== store) return; // the record changed while reading
      this.rows = rows.filter((r, i) => {
        const older = rows.slice(i + 1).find((o) => o.item.tipo === r.item.tipo);
        return !older || !same(r, older) || r.item.kind !== 'component';
      });
    } catch (err) {
      if (this.store !== store) return;
      this.error = err instanceof ApiError ? err.message : t('historyNotRead');
    }
  }

  private async restore(row: HistoryRow) {
    const ctx = this.labels.get(row.item.tipo);
    // The row's own record, even if the screen moved on since the rows were read.
    if (row.store !== this.store) return;
    try {
      // Over the value on screen (its version): if someone saved the field since, the server
      // refuses it as stale instead of silently replacing their work.
      const current = row.store.items.find(
        (d) => d.tipo === row.item.tipo && String(d.section_id) === String(row.store.sectionId),
      );
      await row.store.save(
        row.item.tipo,
        ctx?.model ?? '',
        row.item.lang ?? 'lg-nolan',
        [{ action: 'set_data', value: row.item.entries }],
        undefined,
        typeof current?.version === 'number' ? current.version : undefined,
      );
      this.store.session.announce(t('valueRestored', { label: ctx?.label ?? row.item.tipo }));
      this.dispatchEvent(new CustomEvent('restored', { bubbles: true, composed: true }));
      await this.load();
    } catch (err) {
      this.store.session.announce(err instanceof ApiError ? err.message : t('valueNotRestored'), 'error');
    }
  }

  /**
   * A row's value in words: a link to another record reads "People 3" (the section's label from
   * the menu), not its tipo.
   */
  private valueText(item: DataItem): string {
    const entries = item.entries as { section_tipo?: unknown; section_id?: unknown }[];
    const isLink = (e: { section_tipo?: unknown; section_id?: unknown }) =>
      typeof e?.section_tipo === 'string' && e.section_id !== undefined && !('value' in e);
    if (entries.length > 0 && entries.every(isLink)) {
      return entries
        .map((e) => `${this.store.session.labelOf(String(e.section_tipo))} ${String(e.section_id)}`)
        .join(' · ');
    }
    return itemText(item);
  }

  override render() {
    if (this.error) return html`<p class="alert" role="alert">${this.error}</p>`;
    if (!this.rows) return html`<p class="muted">${t('loadingHistory')}</p>`;
    if (this.rows.length === 0) return html`<p class="muted">${t('noHistory')}</p>`;
    return html`<table>
      <caption class="visually-hidden">${t('historyCaption')}</caption>
      <thead><tr><th scope="col">${t('when')}</th><th scope="col">${t('who')}</th><th scope="col">${t('field')}</th><th scope="col">${t('value')}</th><th scope="col"><span class="visually-hidden">${t('actions')}</span></th></tr></thead>
      <tbody>
        ${this.rows.map((r) => {
          const ctx = this.labels.get(r.item.tipo);
          const isSnapshot = r.item.kind !== 'component';
          const label = isSnapshot
            ? t('wholeRecord')
            : `${ctx?.label ?? r.item.tipo}${ctx?.translatable ? ` (${r.item.lang})` : ''}`;
          return html`<tr>
            <td>${r.when}</td><td>${r.who}${r.origin ? html`<div class="muted origin">${r.origin}</div>` : ''}</td><td>${label}</td>
            <td class="value">${this.valueText(r.item) || html`<span class="muted">${t('empty')}</span>`}</td>
            <td>${
              !isSnapshot && ctx && (ctx.permissions ?? 0) >= 2
                ? html`<button type="button" @click=${() => this.restore(r)} aria-label=${t('restoreTo', { label, value: this.valueText(r.item) || t('empty') })}>${t('restore')}</button>`
                : ''
            }</td>
          </tr>`;
        })}
      </tbody>
    </table>`;
  }
}
customElements.define('dd-history', DdHistory);
