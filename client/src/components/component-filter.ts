/**
 * component_filter (a record's projects) and component_filter_master (a user's projects): one
 * checkbox per project the user may see (read from the project section); saved as the whole
 * value (`set_data`). The server refuses projects a non-admin is not in.
 */

import { html } from 'lit';
import { t } from '../api/i18n.js';
import { itemOf, itemText, type Locator, type ReadResult, showDdos } from '../api/read-shapes.js';
import { ComponentBase } from './component-base.js';

interface Choice {
  locator: Locator;
  label: string;
}

const keyOf = (l: Locator) => `${l.section_tipo}_${l.section_id}`;

export class ComponentFilter extends ComponentBase {
  static override properties = { ...ComponentBase.properties, choices: { state: true } };
  declare choices: Choice[] | undefined;

  override connectedCallback() {
    super.connectedCallback();
    void this.loadChoices();
  }

  private async loadChoices() {
    const targets = ((this.context.target_sections ?? []) as { tipo: string }[]).map((t) => t.tipo);
    const choices: Choice[] = [];
    for (const st of targets) {
      try {
        const answer = await this.store.session.api.call<ReadResult>({
          action: 'read',
          source: { tipo: st, section_tipo: st, model: 'section', mode: 'list', action: 'search' },
          sqo: { section_tipo: [st], limit: 200, offset: 0 },
        });
        const section = answer.data.context.find((c) => c.type === 'section' && c.tipo === st);
        const first = showDdos(section).find((d) => d.section_tipo === st);
        for (const row of (answer.data.data.find((d) => d.typo === 'sections')?.entries ?? []) as Locator[]) {
          const label = first ? itemText(itemOf(answer.data.data, first.tipo, st, row.section_id)) : '';
          choices.push({
            locator: { section_tipo: st, section_id: Number(row.section_id) },
            label: label || `#${row.section_id}`,
          });
        }
      } catch {
        // Not readable for this user: the current values are still shown below.
      }
    }
    for (const l of this.entries as Locator[]) {
      if (!choices.some((c) => keyOf(c.locator) === keyOf(l))) {
        choices.push({
          locator: { section_tipo: l.section_tipo, section_id: Number(l.section_id) },
          label: `#${l.section_id}`,
        });
      }
    }
    this.choices = choices;
  }

  private async toggle(choice: Choice, on: boolean) {
    const current = (this.entries as Locator[]).map((l) => ({
      section_tipo: l.section_tipo,
      section_id: Number(l.section_id),
    }));
    const next = on
      ? [...current, choice.locator]
      : current.filter((l) => keyOf(l) !== keyOf(choice.locator));
    await this.save([{ action: 'set_data', value: next }]);
  }

  override render() {
    const selected = new Set((this.entries as Locator[]).map(keyOf));
    return this.frame(
      html`<div role="group" aria-labelledby="${this.uid}-label" class="row">
        ${(this.choices ?? []).map(
          (
            c,
          ) => html`<label><input type="checkbox" .checked=${selected.has(keyOf(c.locator))} ?disabled=${this.readOnly}
            @change=${(e: Event) => this.toggle(c, (e.target as HTMLInputElement).checked)} /> ${c.label}</label>`,
        )}
        ${this.choices === undefined ? html`<span class="muted">${t('loading')}</span>` : ''}
      </div>`,
    );
  }
}
customElements.define('component-filter', ComponentFilter);

export class ComponentFilterMaster extends ComponentFilter {}
customElements.define('component-filter-master', ComponentFilterMaster);
