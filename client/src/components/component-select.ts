/**
 * component_select (a drop-down) and component_radio_button (a radio group): one locator into a
 * value list offered in the item's `datalist`; saved as the whole value (`set_data`).
 */

import { html } from 'lit';
import { t } from '../api/i18n.js';
import type { Locator } from '../api/read-shapes.js';
import { ComponentBase } from './component-base.js';

interface Option {
  value: Locator;
  label: string;
}

const keyOf = (l: Locator | undefined) => (l ? `${l.section_tipo}_${l.section_id}` : '');

export class ComponentSelect extends ComponentBase {
  protected get options(): Option[] {
    return (this.item?.datalist ?? []) as Option[];
  }

  protected get currentKey(): string {
    return keyOf((this.entries as Locator[])[0]);
  }

  /**
   * The stored value when the value list does not offer it (the root user -1 is in no list; a
   * record the user cannot list): named, so the field does not read as empty.
   */
  private get unlisted(): { key: string; label: string } | undefined {
    const current = (this.entries as Locator[])[0];
    if (!current || this.options.some((o) => keyOf(o.value) === this.currentKey)) return undefined;
    const label =
      current.section_tipo === 'dd128' && Number(current.section_id) < 0
        ? t('rootUser')
        : t('recordOf', { label: this.store.session.labelOf(current.section_tipo), id: current.section_id });
    return { key: this.currentKey, label };
  }

  protected async choose(key: string) {
    const option = this.options.find((o) => keyOf(o.value) === key);
    // Back to the unlisted stored value: nothing to change.
    if (!option && key !== '' && key === this.currentKey) return;
    await this.save([
      {
        action: 'set_data',
        value: option
          ? [{ section_tipo: option.value.section_tipo, section_id: option.value.section_id }]
          : [],
      },
    ]);
  }

  override render() {
    const id = `${this.uid}-select`;
    return this.frame(
      html`<select id=${id} ?disabled=${this.readOnly} @change=${(e: Event) => this.choose((e.target as HTMLSelectElement).value)}>
        <option value="" ?selected=${this.currentKey === ''}>—</option>
        ${this.unlisted ? html`<option value=${this.unlisted.key} selected>${this.unlisted.label}</option>` : ''}
        ${this.options.map((o) => html`<option value=${keyOf(o.value)} ?selected=${keyOf(o.value) === this.currentKey}>${o.label}</option>`)}
      </select>`,
      id,
    );
  }
}
customElements.define('component-select', ComponentSelect);

export class ComponentRadioButton extends ComponentSelect {
  override render() {
    return this.frame(
      html`<div role="radiogroup" aria-labelledby="${this.uid}-label" class="row">
        ${this.options.map(
          (
            o,
          ) => html`<label><input type="radio" name="${this.uid}-radio" .checked=${keyOf(o.value) === this.currentKey}
            ?disabled=${this.readOnly} @change=${() => this.choose(keyOf(o.value))} /> ${o.label}</label>`,
        )}
        ${this.currentKey && !this.readOnly ? html`<button type="button" @click=${() => this.choose('')}>${t('clear')}</button>` : ''}
      </div>`,
    );
  }
}
customElements.define('component-radio-button', ComponentRadioButton);

/**
 * component_check_box: any number of the value list's options; each tick saves the whole new
 * list (`set_data`) in the value list's order.
 */
export class ComponentCheckBox extends ComponentSelect {
  private get chosen(): Set<string> {
    return new Set((this.entries as Locator[]).map(keyOf));
  }

  private async toggle(key: string, on: boolean) {
    const chosen = this.chosen;
    if (on) chosen.add(key);
    else chosen.delete(key);
    await this.save([
      {
        action: 'set_data',
        value: this.options
          .filter((o) => chosen.has(keyOf(o.value)))
          .map((o) => ({ section_tipo: o.value.section_tipo, section_id: o.value.section_id })),
      },
    ]);
  }

  override render() {
    const chosen = this.chosen;
    // A value list with no records yet: say so, instead of an empty field.
    if (this.options.length === 0) return this.frame(html`<p class="muted">${t('noOptions')}</p>`);
    return this.frame(
      html`<div role="group" aria-labelledby="${this.uid}-label" class="row">
        ${this.options.map(
          (o) => html`<label><input type="checkbox" .checked=${chosen.has(keyOf(o.value))}
            ?disabled=${this.readOnly} @change=${(e: Event) => this.toggle(keyOf(o.value), (e.target as HTMLInputElement).checked)} /> ${o.label}</label>`,
        )}
      </div>`,
    );
  }
}
customElements.define('component-check-box', ComponentCheckBox);
