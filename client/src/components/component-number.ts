/**
 * component_number: one number field (the ontology's order, say); a changed field saves `update`
 * by the item's id, an emptied one `remove`s it, a first value `insert`s.
 */
import { html } from 'lit';
import { ComponentBase } from './component-base.js';
import type { ChangeObject } from './record-store.js';

interface NumberItem {
  id: number;
  lang: string;
  value: number | null;
}

export class ComponentNumber extends ComponentBase {
  private changesFor(entry: NumberItem | undefined, text: string): ChangeObject[] | undefined {
    const value = text.trim() === '' ? null : Number(text);
    if (value !== null && !Number.isFinite(value)) return undefined;
    if (entry) {
      if (value === entry.value) return undefined;
      return value === null
        ? [{ action: 'remove', id: entry.id, value: null }]
        : [{ action: 'update', id: entry.id, value: { id: entry.id, lang: this.itemLang, value } }];
    }
    return value === null
      ? undefined
      : [{ action: 'insert', id: null, value: { id: null, lang: this.itemLang, value } }];
  }

  override render() {
    const entry = (this.entries as NumberItem[])[0];
    const id = `${this.uid}-0`;
    return this.frame(
      html`<input class="number" id=${id} type="number" step="any" .value=${entry?.value === null || entry?.value === undefined ? '' : String(entry.value)}
        ?readonly=${this.readOnly} @change=${async (e: Event) => {
          const changes = this.changesFor(entry, (e.target as HTMLInputElement).value);
          if (changes) await this.save(changes);
        }} />`,
      id,
    );
  }
}
customElements.define('component-number', ComponentNumber);
