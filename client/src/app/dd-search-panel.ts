/**
 * The search panel of a section, built from `get_section_elements_context`: one row per condition
 * (a text field contains words, a date within a range, a related record whose columns contain
 * words, a long text reached through a portal contains words), combined with "all of" ($and) or
 * "any of" ($or). Emits `search` with the sqo filter and what the address keeps of the search.
 */
import { css, html, LitElement } from 'lit';
import { t } from '../api/i18n.js';
import { type ContextEntry, type Ddo, parseDateInput, searchDdos } from '../api/read-shapes.js';
import type { ExcerptSource, ListSearch, PathStep, SearchCondition } from './list-search.js';
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

/** A field the panel offers: a component of the section, or a long text reached through a portal. */
interface SearchField {
  key: string;
  label: string;
  model: string;
  path: PathStep[];
  /** The relation's searchable text columns (relation fields). */
  targets: Ddo[];
  /** Paths to the long texts this field searches: their excerpts are shown under the rows. */
  longTexts: PathStep[][];
}

interface Condition extends SearchCondition {
  key: number;
}

/** The `search` event: the filter (null: none) and what the address keeps of it. */
export interface SearchDetail {
  filter: SqoFilter;
  search: ListSearch | undefined;
}

export type SqoFilter = Record<string, unknown> | null;

export class DdSearchPanel extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; }
      fieldset { border: 0; padding: 0; margin: 0 0 0.5rem; }
      .cond { display: flex; gap: 0.4rem; flex-wrap: wrap; align-items: center; margin: 0.35rem 0; }
      .cond select { max-width: 100%; }
      .cond input { width: 12rem; }
      .cond input.date { width: 8rem; }
    `,
  ];
  static override properties = {
    session: { attribute: false },
    section: {},
    initial: { attribute: false },
    fields: { state: true },
    conditions: { state: true },
    operator: { state: true },
    error: { state: true },
  };
  declare session: Session;
  declare section: string;
  /** The search the address holds: its conditions are shown again when the fields are loaded. */
  declare initial: ListSearch | undefined;
  declare fields: SearchField[];
  declare conditions: Condition[];
  declare operator: '$and' | '$or';
  declare error: string;
  private seq = 0;
  private loadSeq = 0;

  constructor() {
    super();
    this.fields = [];
    this.conditions = [];
    this.operator = '$and';
    this.error = '';
  }

  private elementsOf(section: string): Promise<ContextEntry[]> {
    return this.session.api
      .call<ContextEntry[]>({ action: 'get_section_elements_context', options: { section_tipo: section } })
      .then((a) => a.data.filter((e) => e.type === 'component'));
  }

  /**
   * The section's searchable components, then each portal's long texts (a transcription behind
   * the audiovisual portal): searching an interview by the words said in it is one condition.
   */
  private async loadFields() {
    const seq = ++this.loadSeq;
    const section = this.section;
    const elements = (await this.elementsOf(section)).filter(
      (e) => TEXT_MODELS.has(e.model) || DATE_MODELS.has(e.model) || RELATION_MODELS.has(e.model),
    );
    const fields: SearchField[] = elements.map((e) => ({
      key: e.tipo,
      label: String(e.label ?? e.tipo),
      model: e.model,
      path: [{ section_tipo: section, component_tipo: e.tipo }],
      targets: RELATION_MODELS.has(e.model)
        ? searchDdos(e).filter((d) => d.tipo !== e.tipo && d.model !== undefined && TEXT_MODELS.has(d.model))
        : [],
      longTexts:
        e.model === 'component_text_area' ? [[{ section_tipo: section, component_tipo: e.tipo }]] : [],
    }));
    const portals = elements.filter((e) => e.model === 'component_portal');
    const targets = [
      ...new Set(
        portals.flatMap((p) =>
          ((p.target_sections ?? []) as { tipo: string }[]).map((t) => t.tipo).filter((t) => t !== section),
        ),
      ),
    ];
    const targetElements = new Map<string, ContextEntry[]>();
    await Promise.all(
      targets.map((t) =>
        this.elementsOf(t)
          .then((els) => targetElements.set(t, els))
          .catch(() => undefined),
      ),
    );
    for (const p of portals) {
      for (const target of (p.target_sections ?? []) as { tipo: string }[]) {
        for (const c of targetElements.get(target.tipo) ?? []) {
          if (c.model !== 'component_text_area') continue;
          const path = [
            { section_tipo: section, component_tipo: p.tipo },
            { section_tipo: target.tipo, component_tipo: c.tipo },
          ];
          fields.push({
            key: `${p.tipo}>${c.tipo}`,
            label: `${String(p.label ?? p.tipo)} › ${String(c.label ?? c.tipo)}`,
            model: c.model,
            path,
            targets: [],
            longTexts: [path],
          });
          // "Audiovisual contains" also looks in what was said: the words of its transcription.
          const portalField = fields.find((f) => f.key === p.tipo);
          if (portalField) {
            portalField.targets.push({
              tipo: c.tipo,
              section_tipo: target.tipo,
              parent: p.tipo,
              model: c.model,
            });
            portalField.longTexts.push(path);
          }
        }
      }
    }
    if (seq !== this.loadSeq) return;
    this.fields = fields;
    const initial = this.initial;
    const kept = initial?.conditions.filter((c) => fields.some((f) => f.key === c.field)) ?? [];
    if (initial && kept.length > 0) {
      this.operator = initial.op;
      this.conditions = kept.map((c) => ({ ...c, key: ++this.seq }));
    } else if (fields[0]) this.addCondition();
  }

  override updated(changed: Map<string, unknown>) {
    if (changed.has('section') && this.section) {
      this.conditions = [];
      this.loadFields().catch(() => {
        this.fields = [];
      });
    }
  }

  private addCondition() {
    const first = this.fields[0];
    if (!first) return;
    this.conditions = [...this.conditions, { key: ++this.seq, field: first.key, q: '', from: '', to: '' }];
  }

  private update1(key: number, patch: Partial<Condition>) {
    this.conditions = this.conditions.map((c) => (c.key === key ? { ...c, ...patch } : c));
  }

  private leafOf(c: Condition): Record<string, unknown> | string | undefined {
    const field = this.fields.find((f) => f.key === c.field);
    if (!field) return undefined;
    const path = field.path;
    if (DATE_MODELS.has(field.model)) {
      if (!c.from && !c.to) return undefined;
      const from = c.from ? parseDateInput(c.from) : undefined;
      const to = c.to ? parseDateInput(c.to) : undefined;
      if ((c.from && !from) || (c.to && !to)) return t('searchDateFormat', { label: field.label });
      const q =
        from && to ? `${c.from.trim()}...${c.to.trim()}` : from ? `>=${c.from.trim()}` : `<=${c.to.trim()}`;
      return { q, path };
    }
    if (!c.q.trim()) return undefined;
    if (RELATION_MODELS.has(field.model)) {
      // Through the relation to the target's text columns: any of them contains the words.
      // Only text: a media file (rsc35) cannot be searched by words, and asking would fail.
      if (field.targets.length === 0) return { q_operator: c.q.trim() === '!*' ? '!*' : '*', path };
      return {
        $or: field.targets.map((d) => ({
          q: c.q.trim(),
          path: [...path, { section_tipo: d.section_tipo, component_tipo: d.tipo }],
          lang: 'all',
        })),
      };
    }
    return { q: c.q.trim(), path, lang: 'all' };
  }

  private submit(e: Event) {
    e.preventDefault();
    this.error = '';
    const leaves: Record<string, unknown>[] = [];
    const excerpts: ExcerptSource[] = [];
    for (const c of this.conditions) {
      const leaf = this.leafOf(c);
      if (typeof leaf === 'string') {
        this.error = leaf;
        return;
      }
      if (!leaf) continue;
      leaves.push(leaf);
      const field = this.fields.find((f) => f.key === c.field);
      for (const path of field?.longTexts ?? []) excerpts.push({ path, q: c.q.trim() });
    }
    const filter = leaves.length > 0 ? { [this.operator]: leaves } : null;
    const search: ListSearch | undefined = filter
      ? {
          op: this.operator,
          conditions: this.conditions.map(({ field, q, from, to }) => ({ field, q, from, to })),
          filter,
          excerpts,
        }
      : undefined;
    this.dispatchEvent(new CustomEvent<SearchDetail>('search', { detail: { filter, search } }));
  }

  private reset() {
    this.conditions = [];
    this.addCondition();
    this.error = '';
    this.dispatchEvent(
      new CustomEvent<SearchDetail>('search', { detail: { filter: null, search: undefined } }),
    );
  }

  private renderCondition(c: Condition, index: number) {
    const el = this.fields.find((f) => f.key === c.field);
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
      <select aria-label=${t('condField', { n })} @change=${(e: Event) => this.update1(c.key, { field: (e.target as HTMLSelectElement).value, q: '', from: '', to: '' })}>
        ${this.fields.map((f) => html`<option value=${f.key} ?selected=${f.key === c.field}>${f.label}</option>`)}
      </select>
      ${value}
      <button type="button" aria-label=${t('removeCondition', { n })} @click=${() => {
        this.conditions = this.conditions.filter((x) => x.key !== c.key);
      }}>✕</button>
    </div>`;
  }

  override render() {
    if (this.fields.length === 0) return html`<p class="muted">${t('noSearchableFields')}</p>`;
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
