/**
 * Models shown but not edited here: the thesaurus term's indexations
 * (relation_index, made by tagging transcriptions) and any model this client does not know yet —
 * their value as text, never as raw JSON.
 */
import { html } from 'lit';
import { entryText, type Locator } from '../api/read-shapes.js';
import { hrefOf } from '../app/router.js';
import { ComponentBase } from './component-base.js';

export class ComponentReadonly extends ComponentBase {
  override render() {
    const entries = this.entries;
    if (entries.length === 0) return this.frame(html`<p class="muted">Empty.</p>`);
    return this.frame(
      html`<ul>
        ${entries.map((e) => {
          const l = e as Locator;
          if (l && typeof l === 'object' && 'section_tipo' in l && 'section_id' in l) {
            return html`<li><a href=${hrefOf({ name: 'edit', section: l.section_tipo, id: Number(l.section_id) })}>${l.section_tipo} ${l.section_id}</a></li>`;
          }
          return html`<li>${entryText(e) || '(structured value)'}</li>`;
        })}
      </ul>`,
    );
  }
}
for (const model of ['component_relation_index', 'component_readonly']) {
  customElements.define(model.replaceAll('_', '-'), class extends ComponentReadonly {});
}
