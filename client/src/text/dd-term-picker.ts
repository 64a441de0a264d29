/**
 * The thesaurus term picker of indexing: a modal dialog with search-as-you-type over the
 * thesaurus (each match with its breadcrumb, so "Guerra civil" under "España" is told apart from
 * the one under "Grecia"), the chosen terms as removable chips, and Save / Remove indexation /
 * Cancel. `pick()` opens it and resolves with the chosen terms, `'remove'`, or undefined.
 */
import { css, html, LitElement } from 'lit';
import { t } from '../api/i18n.js';
import { ApiError, type RqoClient } from '../api/rqo-client.js';
import { baseStyles } from '../app/styles.js';
import { breadcrumb, searchTerms, type TermNode, termKey } from './indexing.js';

export type PickResult = { terms: TermNode[] } | 'remove' | undefined;

/** Typing pauses this long before a search is sent. */
const SEARCH_DELAY_MS = 200;

export class DdTermPicker extends LitElement {
  static override styles = [
    baseStyles,
    css`
      dialog { border: 1px solid var(--line); border-radius: 8px; width: min(40rem, calc(100vw - 1.5rem)); padding: 1rem 1.25rem; }
      dialog::backdrop { background: rgb(0 0 0 / 35%); }
      h2 { margin: 0 0 0.4rem; font-size: 1.15rem; }
      .passage { margin: 0 0 0.6rem; padding: 0.35rem 0.5rem; background: #fdf1dc; border-left: 4px solid #e0b25c; max-height: 5rem; overflow: auto; white-space: pre-wrap; }
      label.search { display: grid; gap: 0.2rem; font-weight: 600; }
      input[type='search'] { width: 100%; }
      ul.results { list-style: none; margin: 0.5rem 0; padding: 0; max-height: 16rem; overflow: auto; border: 1px solid var(--line); border-radius: 4px; }
      ul.results:empty { display: none; }
      ul.results li { border-bottom: 1px solid #eef1f4; }
      ul.results li:last-child { border-bottom: 0; }
      ul.results label { display: flex; gap: 0.5rem; align-items: flex-start; padding: 0.35rem 0.5rem; cursor: pointer; }
      ul.results label:hover { background: var(--wash); }
      .term { font-weight: 600; }
      .crumb { display: block; font-size: 0.85em; color: var(--muted); }
      .chosen { display: flex; flex-wrap: wrap; gap: 0.35rem; margin: 0.4rem 0; min-height: 1.6rem; align-items: center; }
      .chosen .chip button { border: 0; background: none; padding: 0 0.1rem; line-height: 1; font-size: 1rem; }
      .actions { margin-top: 0.8rem; justify-content: flex-end; }
      .actions .spacer { flex: 1; }
      .status { min-height: 1.2rem; margin: 0.2rem 0; }
    `,
  ];
  static override properties = {
    heading: {},
    passage: {},
    chosen: { state: true },
    results: { state: true },
    query: { state: true },
    status: { state: true },
    canRemove: { state: true },
    showing: { state: true },
  };
  declare heading: string;
  /** The passage being indexed (shown above the search), or empty for a whole record. */
  declare passage: string;
  declare chosen: TermNode[];
  declare results: TermNode[];
  declare query: string;
  declare status: string;
  declare canRemove: boolean;
  declare showing: boolean;
  api: RqoClient | undefined;
  sectionTipo = 'ts1';
  dataLang = 'lg-eng';
  private settle: ((r: PickResult) => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;

  constructor() {
    super();
    this.heading = '';
    this.passage = '';
    this.chosen = [];
    this.results = [];
    this.query = '';
    this.status = '';
    this.canRemove = false;
    this.showing = false;
  }

  private get dialog(): HTMLDialogElement {
    return this.renderRoot.querySelector('dialog')!;
  }

  /** Opens with `current` chosen (a passage's terms when re-pointing it). */
  async pick(current: TermNode[], canRemove: boolean): Promise<PickResult> {
    this.settle?.(undefined);
    this.chosen = [...current];
    this.canRemove = canRemove;
    this.results = [];
    this.query = '';
    this.status = '';
    this.showing = true;
    await this.updateComplete;
    this.dialog.showModal();
    this.renderRoot.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
    return new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  private finish(result: PickResult) {
    const settle = this.settle;
    this.settle = undefined;
    clearTimeout(this.timer);
    if (this.dialog?.open) this.dialog.close();
    this.showing = false;
    settle?.(result);
  }

  private typed(e: Event) {
    this.query = (e.target as HTMLInputElement).value;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.search(), SEARCH_DELAY_MS);
  }

  private async search() {
    const q = this.query.trim();
    const seq = ++this.seq;
    if (q === '' || !this.api) {
      this.results = [];
      this.status = '';
      return;
    }
    try {
      const terms = await searchTerms(this.api, this.sectionTipo, this.dataLang, q);
      if (seq !== this.seq) return;
      this.results = terms;
      this.status = terms.length === 0 ? t('idx_noMatch', { q }) : t('idx_matches', { count: terms.length });
    } catch (err) {
      if (seq !== this.seq) return;
      this.status = err instanceof ApiError ? err.message : t('idx_searchFailed');
    }
  }

  private isChosen(term: TermNode) {
    return this.chosen.some((c) => termKey(c) === termKey(term));
  }

  private toggle(term: TermNode) {
    this.chosen = this.isChosen(term)
      ? this.chosen.filter((c) => termKey(c) !== termKey(term))
      : [...this.chosen, term];
  }

  private renderResult(term: TermNode) {
    const crumb = breadcrumb(term);
    return html`<li><label>
      <input type="checkbox" .checked=${this.isChosen(term)} @change=${() => this.toggle(term)} />
      <span><span class="term">${term.label}</span>${crumb ? html`<span class="crumb">${crumb}</span>` : ''}</span>
    </label></li>`;
  }

  override render() {
    return html`<dialog aria-labelledby="picker-title" @close=${() => this.finish(undefined)}>
      ${
        this.showing
          ? html`<form @submit=${(e: Event) => {
              e.preventDefault();
              this.finish({ terms: this.chosen });
            }}>
              <h2 id="picker-title">${this.heading}</h2>
              ${this.passage ? html`<p class="passage" aria-label=${t('idx_passage')}>${this.passage}</p>` : ''}
              <label class="search">${t('idx_searchTerms')}
                <input type="search" autocomplete="off" .value=${this.query} @input=${this.typed}
                  placeholder=${t('idx_searchPlaceholder')} aria-describedby="picker-status" /></label>
              <p id="picker-status" class="status muted" role="status">${this.status}</p>
              <ul class="results" aria-label=${t('idx_results')}>${this.results.map((r) => this.renderResult(r))}</ul>
              <div class="chosen" aria-label=${t('idx_chosen')} role="group">
                <span class="muted">${t('idx_chosen')}:</span>
                ${
                  this.chosen.length === 0
                    ? html`<span class="muted">${t('idx_noneChosen')}</span>`
                    : this.chosen.map(
                        (c) => html`<span class="chip" title=${breadcrumb(c)}>${c.label}<button type="button"
                          aria-label=${t('idx_unchoose', { term: c.label })} @click=${() => this.toggle(c)}>×</button></span>`,
                      )
                }
              </div>
              <div class="row actions">
                ${
                  this.canRemove
                    ? html`<button type="button" class="danger" @click=${() => this.finish('remove')}>${t('idx_remove')}</button>`
                    : ''
                }
                <span class="spacer"></span>
                <button type="button" @click=${() => this.finish(undefined)}>${t('cancel')}</button>
                <button type="submit" class="primary" ?disabled=${this.chosen.length === 0}>${t('idx_save')}</button>
              </div>
            </form>`
          : ''
      }
    </dialog>`;
  }
}
customElements.define('dd-term-picker', DdTermPicker);

/** The app's one picker (made on first use, in the document body). */
export function termPicker(): DdTermPicker {
  let picker = document.querySelector<DdTermPicker>('dd-term-picker');
  if (!picker) {
    picker = document.createElement('dd-term-picker') as DdTermPicker;
    document.body.append(picker);
  }
  return picker;
}
