/**
 * The search panel of a section, built from `get_section_elements_context`: one row per condition
 * (a text field contains words, a date within a range, a related record whose columns contain
 * words), combined with "all of" ($and) or "any of" ($or). Emits `search` with the sqo filter.
 */
import { css, html, LitElement } from 'lit';
import { t } from '../api/i18n.js';
import { type ContextEntry, parseDateInput, searchDdos } from '../api/read-shapes.js';
import type { Session } from './session.js';
import { baseStyles } from './styles.js';

const TEXT_MODELS = new Set(['component_input_text', 'component_text_area', 'component_email']);
const DATE_MODELS = new Set(['component_date']);
const RELATION_MODELS = new Set([
  'component_portal',
  'component_select',
  'component_radio_button',
  'component_filter',
  'component_filter_master',
  'component_relation_parent',
  'component_relation_children',
]);

interface Condition {
  key: number;
  tipo: string;
  q: string;
  from: string;
  to: string;
}

export type SqoFilter = Record<string, unknown> | null;

export class DdSearchPanel extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; }
      fieldset { border: 0; padding: 0; margin: 0 0 0.5rem; }
      .cond { display: flex; gap: 0.4rem; flex-wrap: wrap; align-items: center; margin: 0.35rem 0; }
      .cond input { width: 12rem; }
      .cond input.date { width: 8rem; }
    `,
  ];
  static override properties = {
    session: { attribute: false },
    section: {},
    elements: { state: true },
    conditions: { state: true },
    operator: { state: true },
    error: { state: true },
  };
  declare session: Session;
  declare section: string;
  declare elements: ContextEntry[];
  declare conditions: Condition[];
  declare operator: '$and' | '$or';
  declare error: string;
  private seq = 0;

  constructor() {
    super();
    this.elements = [];
    this.conditions = [];
    this.operator = '$and';
    this.error = '';
  }

  override async updated(changed: Map<string, unknown>) {
    if (changed.has('section') && this.section) {
      this.conditions = [];
      try {
        const answer = await this.session.api.call<ContextEntry[]>({
          action: 'get_section_elements_context',
          options: { section_tipo: this.section },
        });
        this.elements = answer.data.filter(
          (e) =>
            e.type === 'component' &&
            (TEXT_MODELS.has(e.model) || DATE_MODELS.has(e.model) || RELATION_MODELS.has(e.model)),
        );
        if (this.elements[0]) this.addCondition();
      } catch {
        this.elements = [];
      }
    }
  }

  private addCondition() {
    const first = this.elements[0];
    if (!first) return;
    this.conditions = [...this.conditions, { key: ++this.seq, tipo: first.tipo, q: '', from: '', to: '' }];
  }

  private update1(key: number, patch: Partial<Condition>) {
    this.conditions = this.conditions.map((c) => (c.key === key ? { ...c, ...patch } : c));
  }

  private leafOf(c: Condition): Record<string, unknown> | string | undefined {
    const el = this.elements.find((e) => e.tipo === c.tipo);
    if (!el) return undefined;
    const step = { section_tipo: el.section_tipo, component_tipo: el.tipo };
    if (DATE_MODELS.has(el.model)) {
      if (!c.from && !c.to) return undefined;
      const from = c.from ? parseDateInput(c.from) : undefined;
      const to = c.to ? parseDateInput(c.to) : undefined;
      if ((c.from && !from) || (c.to && !to))
        return `${el.label}: write dates as 1990, 1990-05 or 1990-05-17`;
      const q =
        from && to ? `${c.from.trim()}...${c.to.trim()}` : from ? `>=${c.from.trim()}` : `<=${c.to.trim()}`;
      return { q, path: [step] };
    }
    if (!c.q.trim()) return undefined;
    if (RELATION_MODELS.has(el.model)) {
      // Through the relation to the target's searchable columns: any of them contains the words.
      const targets = searchDdos(el).filter((d) => d.tipo !== el.tipo);
      // No searchable columns behind it (projects, say): "*" has any, "!*" has none.
      if (targets.length === 0) return { q_operator: c.q.trim() === '!*' ? '!*' : '*', path: [step] };
      return {
        $or: targets.map((t) => ({
          q: c.q.trim(),
          path: [step, { section_tipo: t.section_tipo, component_tipo: t.tipo }],
        })),
      };
    }
    return { q: c.q.trim(), path: [step], lang: 'all' };
  }

  private submit(e: Event) {
    e.preventDefault();
    this.error = '';
    const leaves: Record<string, unknown>[] = [];
    for (const c of this.conditions) {
      const leaf = this.leafOf(c);
      if (typeof leaf === 'string') {
        this.error = leaf;
        return;
      }
      if (leaf) leaves.push(leaf);
    }
    const filter: SqoFilter = leaves.length > 0 ? { [this.operator]: leaves } : null;
    this.dispatchEvent(new CustomEvent('search', { detail: filter }));
  }

  private reset() {
    this.conditions = [];
    this.addCondition();
    this.error = '';
    this.dispatchEvent(new CustomEvent('search', { detail: null }));
  }

  private renderCondition(c: Condition, index: number) {
    const el = this.elements.find((e) => e.tipo === c.tipo);
    const n = index + 1;
    const value = !el
      ? ''
      : DATE_MODELS.has(el.model)
        ? html`<input class="date" aria-label=${t('condFromDate', { n })} placeholder=${t('fromPlaceholder')} .value=${c.from}
              @input=${(e: Event) => this.update1(c.key, { from: (e.target as HTMLInputElement).value })} />
            <input class="date" aria-label=${t('condToDate', { n })} placeholder=${t('toPlaceholder')} .value=${c.to}
              @input=${(e: Event) => this.update1(c.key, { to: (e.target as HTMLInputElement).value })} />`
        : html`<input aria-label=${RELATION_MODELS.has(el.model) ? t('condRelatedContains', { n }) : t('condContains', { n })}
            placeholder=${RELATION_MODELS.has(el.model) ? t('relatedContainsPlaceholder') : t('containsPlaceholder')} .value=${c.q}
            @input=${(e: Event) => this.update1(c.key, { q: (e.target as HTMLInputElement).value })} />`;
    return html`<div class="cond">
      <select aria-label=${t('condField', { n })} @change=${(e: Event) => this.update1(c.key, { tipo: (e.target as HTMLSelectElement).value, q: '', from: '', to: '' })}>
        ${this.elements.map((e) => html`<option value=${e.tipo} ?selected=${e.tipo === c.tipo}>${e.label}</option>`)}
      </select>
      ${value}
      <button type="button" aria-label=${t('removeCondition', { n })} @click=${() => {
        this.conditions = this.conditions.filter((x) => x.key !== c.key);
      }}>✕</button>
    </div>`;
  }

  override render() {
    if (this.elements.length === 0) return html`<p class="muted">${t('noSearchableFields')}</p>`;
    return html`<form role="search" aria-label=${t('searchRecords')} @submit=${this.submit}>
      <fieldset class="row">
        <legend class="visually-hidden">${t('combineConditions')}</legend>
        <label><input type="radio" name="op" .checked=${this.operator === '$and'} @change=${() => {
          this.operator = '$and';
        }} /> ${t('allConditions')}</label>
        <label><input type="radio" name="op" .checked=${this.operator === '$or'} @change=${() => {
          this.operator = '$or';
        }} /> ${t('anyCondition')}</label>
      </fieldset>
      ${this.conditions.map((c, i) => this.renderCondition(c, i))}
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : ''}
      <div class="row">
        <button type="button" @click=${this.addCondition}>${t('addCondition')}</button>
        <button class="primary" type="submit">${t('search')}</button>
        <button type="button" @click=${this.reset}>${t('reset')}</button>
      </div>
    </form>`;
  }
}
customElements.define('dd-search-panel', DdSearchPanel);
