/**
 * The thesaurus terms of a whole record (an interview), below its form: an indexation with no
 * passage (`set_indexation` without a text component). Shown only for sections a thesaurus can
 * index; the button only to users who may index (the server says both in `get_indexations`).
 */
import { css, html, LitElement } from 'lit';
import { t } from '../api/i18n.js';
import { ApiError } from '../api/rqo-client.js';
import type { Session } from '../app/session.js';
import { baseStyles } from '../app/styles.js';
import { termPicker } from './dd-term-picker.js';
import { breadcrumb, indexationsOf, type RecordIndexations, setIndexation } from './indexing.js';
import { thesaurusSections } from './indexing-host.js';

export class DdRecordTerms extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; margin-top: 0.8rem; }
      section { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.75rem; background: var(--paper); }
      h2 { font-size: 1rem; margin: 0 0 0.35rem; }
      .terms { display: flex; flex-wrap: wrap; gap: 0.35rem; align-items: center; }
    `,
  ];
  static override properties = {
    session: { attribute: false },
    sectionTipo: { attribute: false },
    sectionId: { attribute: false },
    data: { state: true },
  };
  declare session: Session;
  declare sectionTipo: string;
  declare sectionId: number;
  declare data: RecordIndexations | undefined;

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('sectionTipo') || changed.has('sectionId')) {
      this.data = undefined;
      void this.load();
    }
  }

  private async load() {
    if (!this.session || thesaurusSections(this.session).length === 0) return;
    const record = { section_tipo: this.sectionTipo, section_id: this.sectionId };
    try {
      const data = await indexationsOf(this.session.api, record, this.session.dataLang);
      if (record.section_tipo === this.sectionTipo && record.section_id === this.sectionId) this.data = data;
    } catch {
      // Nothing to show: the record's form is what matters here.
    }
  }

  private get terms() {
    return this.data?.tags.find((x) => x.tag_id === null)?.terms ?? [];
  }

  private async change() {
    const picker = termPicker();
    picker.api = this.session.api;
    picker.sectionTipo = thesaurusSections(this.session)[0] ?? 'ts1';
    picker.dataLang = this.session.dataLang;
    picker.heading = t('idx_interviewTerms');
    picker.passage = '';
    const current = this.terms;
    const choice = await picker.pick(current, current.length > 0);
    if (!choice) return;
    const terms = choice === 'remove' ? [] : choice.terms;
    try {
      await setIndexation(this.session.api, {
        record: { section_tipo: this.sectionTipo, section_id: this.sectionId },
        lang: this.session.dataLang,
        terms,
      });
      await this.load();
      this.session.announce(t('idx_recordSaved'));
    } catch (err) {
      this.session.announce(err instanceof ApiError ? err.message : t('idx_notSaved'), 'error');
    }
  }

  override render() {
    if (!this.data?.indexable) return '';
    const terms = this.terms;
    return html`<section aria-labelledby="record-terms">
      <h2 id="record-terms">${t('idx_interviewTerms')}</h2>
      <div class="terms">
        ${
          terms.length === 0
            ? html`<span class="muted">${t('idx_noTerms')}</span>`
            : terms.map((x) => html`<span class="chip" title=${breadcrumb(x)}>${x.label}</span>`)
        }
        ${this.data.may_index ? html`<button type="button" @click=${this.change}>${t('idx_addTerms')}</button>` : ''}
      </div>
    </section>`;
  }
}
customElements.define('dd-record-terms', DdRecordTerms);
