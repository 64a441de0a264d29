/**
 * component_security_access (a profile's access, dd774): a grid with one row per area, section
 * and component, grouped by section, and the level 0 (none) .. 3 (admin) in each row; a section's
 * row can set all its components at once. Saved as the whole list (`set_data`; level 0 is not
 * stored). Rows come from the menu (areas, sections) and each section's search elements, plus
 * every item the profile already holds.
 */

import { css, html } from 'lit';
import { t } from '../api/i18n.js';
import type { ContextEntry } from '../api/read-shapes.js';
import { ComponentBase } from './component-base.js';

interface AccessItem {
  tipo: string;
  section_tipo: string;
  value: number;
}

interface Row {
  tipo: string;
  section_tipo: string;
  label: string;
  kind: 'area' | 'section' | 'component';
}

export const LEVELS = ['none', 'read', 'write', 'admin'] as const;

export class ComponentSecurityAccess extends ComponentBase {
  static override styles = [
    ...ComponentBase.styles,
    css`
      .grid { max-height: 32rem; overflow: auto; border: 1px solid var(--line); }
      tr.section th, tr.area th { background: #e9eff5; }
      td.level select { min-width: 6rem; }
      th.component { font-weight: 400; padding-left: 1.5rem; }
      /* A name lines up with its level's select, not with the select's top edge. */
      tbody th, tbody td { vertical-align: middle; }
      th.level-head, td.level { width: 9rem; }
    `,
  ];
  static override properties = {
    ...ComponentBase.properties,
    rows: { state: true },
    levels: { state: true },
  };
  declare rows: Row[];
  declare levels: Map<string, number>;

  constructor() {
    super();
    this.rows = [];
    this.levels = new Map();
  }

  override connectedCallback() {
    super.connectedCallback();
    void this.loadRows();
  }

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('item')) {
      this.levels = new Map(
        (this.entries as AccessItem[]).map((a) => [`${a.section_tipo}|${a.tipo}`, a.value]),
      );
    }
  }

  private async loadRows() {
    const session = this.store.session;
    const rows: Row[] = [];
    // What no profile can grant (the ontology's sections: global admins only) is not offered.
    const menu = session.menu.filter((n) => n.grantable !== false);
    const sections = menu.filter((n) => n.model === 'section');
    const elements = await Promise.all(
      sections.map((s) =>
        session.api
          .call<ContextEntry[]>({ action: 'get_section_elements_context', options: { section_tipo: s.tipo } })
          .then((a) => a.data.filter((e) => e.type === 'component'))
          .catch(() => [] as ContextEntry[]),
      ),
    );
    for (const node of menu) {
      if (node.model === 'section') {
        rows.push({ tipo: node.tipo, section_tipo: node.tipo, label: node.label, kind: 'section' });
        const comps = elements[sections.indexOf(node)] ?? [];
        for (const c of comps)
          rows.push({ tipo: c.tipo, section_tipo: node.tipo, label: c.label as string, kind: 'component' });
        for (const a of this.entries as AccessItem[]) {
          if (
            a.section_tipo === node.tipo &&
            a.tipo !== node.tipo &&
            !rows.some((r) => r.tipo === a.tipo && r.section_tipo === a.section_tipo)
          ) {
            rows.push({ tipo: a.tipo, section_tipo: a.section_tipo, label: a.tipo, kind: 'component' });
          }
        }
      } else {
        rows.push({ tipo: node.tipo, section_tipo: node.tipo, label: node.label, kind: 'area' });
      }
    }
    this.rows = rows;
  }

  private async set(row: Row, value: number) {
    const next = new Map(this.levels);
    next.set(`${row.section_tipo}|${row.tipo}`, value);
    if (row.kind === 'section') {
      for (const r of this.rows)
        if (r.kind === 'component' && r.section_tipo === row.tipo)
          next.set(`${r.section_tipo}|${r.tipo}`, value);
    }
    const items: AccessItem[] = [];
    for (const [key, level] of next) {
      const [section_tipo = '', tipo = ''] = key.split('|');
      if (level > 0) items.push({ tipo, section_tipo, value: level });
    }
    this.levels = next;
    await this.save([{ action: 'set_data', value: items }]);
  }

  override render() {
    return this.frame(
      html`<div class="grid"><table aria-labelledby="${this.uid}-label">
        <thead><tr><th scope="col">${t('element')}</th><th scope="col" class="level-head">${t('level')}</th></tr></thead>
        <tbody>
          ${this.rows.map((r) => {
            const level = this.levels.get(`${r.section_tipo}|${r.tipo}`) ?? 0;
            const name = r.kind === 'section' ? `${r.label} (section and all its fields)` : r.label;
            return html`<tr class=${r.kind}>
              <th scope="row" class=${r.kind}>${name}</th>
              <td class="level"><select aria-label=${t('levelFor', { label: `${r.label}${r.kind === 'component' ? ` (${r.section_tipo})` : ''}` })}
                ?disabled=${this.readOnly} @change=${(e: Event) => this.set(r, Number((e.target as HTMLSelectElement).value))}>
                ${LEVELS.map((l, n) => html`<option value=${n} ?selected=${n === level}>${n} ${t(`level_${l}`)}</option>`)}
              </select></td>
            </tr>`;
          })}
        </tbody>
      </table></div>`,
    );
  }
}
customElements.define('component-security-access', ComponentSecurityAccess);
