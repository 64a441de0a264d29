/**
 * component_number: one numeric field. The browser's number input parses what is typed in the
 * person's own way (a decimal comma in Catalan or Spanish locales); the value is saved as a JSON
 * number (`update` of the item, `remove` when emptied, `insert` for the first value).
 */
import { html } from 'lit';
import { t } from '../api/i18n.js';
import { ComponentBase } from './component-base.js';
import type { ChangeObject } from './record-store.js';

interface NumberItem {
  id: number;
  lang: string;
  value: number | null;
}

export class ComponentNumber extends ComponentBase {
  private get first(): NumberItem | undefined {
    return (this.entries as NumberItem[])[0];
  }

  /** The changes that make the field hold what the input shows; none when unchanged or unreadable. */
  private changesFor(input: HTMLInputElement): ChangeObject[] | undefined {
    const entry = this.first;
    if (input.value.trim() === '') {
      // An unreadable entry ("12,5,3") also reads as '' with validity.badInput: never a removal.
      if (input.validity.badInput) return undefined;
      return entry ? [{ action: 'remove', id: entry.id, value: null }] : undefined;
    }
    const value = input.valueAsNumber;
    if (!Number.isFinite(value) || value === entry?.value) return undefined;
    return entry
      ? [{ action: 'update', id: entry.id, value: { id: entry.id, lang: this.itemLang, value } }]
      : [{ action: 'insert', id: null, value: { id: null, lang: this.itemLang, value } }];
  }

  private editing(input: HTMLInputElement) {
    if (this.status === 'saved') this.status = 'idle';
    const changes = this.changesFor(input);
    if (changes) this.keepDraft(changes);
    else this.dropDraft();
  }

  private async changed(input: HTMLInputElement) {
    if (input.validity.badInput) {
      this.status = 'failed';
      this.message = t('notANumber');
      return;
    }
    const changes = this.changesFor(input);
    if (!changes) {
      if (this.status === 'failed') this.status = 'idle';
      this.dropDraft();
      return;
    }
    await this.save(changes);
  }

  protected override async resetInputs() {
    await this.updateComplete;
    const input = this.renderRoot.querySelector<HTMLInputElement>('input');
    if (input)
      input.value = this.first?.value === null || this.first === undefined ? '' : String(this.first.value);
  }

  override render() {
    const id = `${this.uid}-number`;
    const value = this.first?.value;
    return this.frame(
      html`<input class="number" id=${id} type="number" step="any" inputmode="decimal"
        .value=${value === null || value === undefined ? '' : String(value)}
        ?readonly=${this.readOnly}
        @input=${(e: Event) => this.editing(e.target as HTMLInputElement)}
        @change=${(e: Event) => this.changed(e.target as HTMLInputElement)} />`,
      id,
    );
  }
}
customElements.define('component-number', ComponentNumber);
