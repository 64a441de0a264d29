/**
 * component_json: the value as indented JSON in a text area (the ontology's other properties, an
 * activity row's data). Leaving the field saves it when it parses as a JSON object; text that
 * does not parse is not sent and the field says why.
 */

import { html } from 'lit';
import { t } from '../api/i18n.js';
import { ComponentBase } from './component-base.js';

interface JsonItem {
  id: number;
  lang: string;
  value: unknown;
}

export class ComponentJson extends ComponentBase {
  private async changed(entry: JsonItem | undefined, area: HTMLTextAreaElement) {
    const text = area.value.trim();
    if (text === '') {
      if (entry) await this.save([{ action: 'remove', id: entry.id, value: null }]);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.status = 'failed';
      this.message = t('invalidJson');
      return;
    }
    if (JSON.stringify(value) === JSON.stringify(entry?.value)) return;
    await this.save(
      entry
        ? [{ action: 'update', id: entry.id, value: { id: entry.id, lang: this.itemLang, value } }]
        : [{ action: 'insert', id: null, value: { id: null, lang: this.itemLang, value } }],
    );
  }

  override render() {
    const entry = (this.entries as JsonItem[])[0];
    const id = `${this.uid}-0`;
    const text = entry === undefined ? '' : JSON.stringify(entry.value, null, 2);
    return this.frame(
      html`<textarea id=${id} class="json" rows=${Math.min(12, Math.max(3, text.split('\n').length + 1))}
        spellcheck="false" .value=${text} ?readonly=${this.readOnly}
        @change=${(e: Event) => this.changed(entry, e.target as HTMLTextAreaElement)}></textarea>`,
      id,
    );
  }
}
customElements.define('component-json', ComponentJson);
