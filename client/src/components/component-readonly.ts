/**
 * Models shown but not edited here: the thesaurus term's indexations
 * (relation_index, made by tagging transcriptions) and any model this client does not know yet —
 * their value as text, never as raw JSON. Elements of an imported ontology whose model the
 * archive does not implement (the context's `model_not_implemented`) also say so in a note.
 */
import { html } from 'lit';
import { t } from '../api/i18n.js';
import { entryText, type Locator } from '../api/read-shapes.js';
import { hrefOf } from '../app/router.js';
import { ComponentBase } from './component-base.js';

/** A flat value of another model ({lat, lon}, {iri, title}) worded as "key: value, ...". */
function flatText(entry: unknown): string {
  const v = (entry as { value?: unknown } | null)?.value;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return '';
  const parts = Object.entries(v).filter(([, x]) => ['string', 'number', 'boolean'].includes(typeof x));
  return parts.length === Object.keys(v).length ? parts.map(([k, x]) => `${k}: ${String(x)}`).join(', ') : '';
}

export class ComponentReadonly extends ComponentBase {
  override render() {
    const entries = this.entries;
    const foreign = this.context.model_not_implemented === true;
    const note = foreign
      ? html`<p class="muted not-implemented" role="note">${t('modelNotImplemented', { model: this.context.model })}</p>`
      : '';
    if (entries.length === 0) return this.frame(html`<p class="muted">${t('emptyField')}</p>${note}`);
    return this.frame(
      html`<ul>
        ${entries.map((e) => {
          const l = e as Locator;
          if (l && typeof l === 'object' && 'section_tipo' in l && 'section_id' in l) {
            return html`<li><a href=${hrefOf({ name: 'edit', section: l.section_tipo, id: Number(l.section_id) })}>${l.section_tipo} ${l.section_id}</a></li>`;
          }
          return html`<li>${(foreign && flatText(e)) || entryText(e) || '(structured value)'}</li>`;
        })}
      </ul>${note}`,
    );
  }
}
for (const model of ['component_relation_index', 'component_readonly']) {
  customElements.define(model.replaceAll('_', '-'), class extends ComponentReadonly {});
}
