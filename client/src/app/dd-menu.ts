/** The menu of what the user may read (`start` with `menu: true`): areas as headings, sections as links. */
import { css, html, LitElement } from 'lit';
import { hrefOf, type Route } from './router.js';
import type { MenuNode } from './session.js';
import { baseStyles } from './styles.js';

export class DdMenu extends LitElement {
  static override styles = [
    baseStyles,
    css`
      ul { list-style: none; margin: 0; padding: 0 0 0 0.5rem; }
      li { margin: 0.15rem 0; }
      /* Area headings and top-level links (Maintenance) share one left edge; sections indent. */
      .area { font-weight: 600; margin-top: 0.6rem; color: var(--muted); padding: 0 0.35rem; }
      a.top { font-weight: 600; margin-top: 0.6rem; }
      a { display: block; padding: 0.2rem 0.35rem; border-radius: 4px; text-decoration: none; }
      a[aria-current='page'] { background: #dce9f7; font-weight: 600; }
    `,
  ];
  static override properties = { tree: { attribute: false }, route: { attribute: false } };
  declare tree: MenuNode[];
  declare route: Route;

  constructor() {
    super();
    this.tree = [];
  }

  private current(tipo: string): boolean {
    const r = this.route;
    return (r?.name === 'list' || r?.name === 'edit' || r?.name === 'thesaurus') && r.section === tipo;
  }

  /** A section of a thesaurus area opens as a tree (its records' list stays a click away in it). */
  private hrefOf(n: MenuNode): string {
    const area = this.tree.find((p) => p.tipo === n.parent);
    return area?.model === 'area_thesaurus'
      ? hrefOf({ name: 'thesaurus', section: n.tipo })
      : hrefOf({ name: 'list', section: n.tipo, offset: 0 });
  }

  private renderLevel(parent: string): unknown {
    const children = this.tree.filter((n) => n.parent === parent);
    if (children.length === 0) return '';
    return html`<ul>
      ${children.map((n) => {
        if (n.model === 'section') {
          return html`<li><a href=${this.hrefOf(n)}
            aria-current=${this.current(n.tipo) ? 'page' : 'false'}>${n.label}</a></li>`;
        }
        if (n.model === 'area_maintenance') {
          return html`<li><a class="top" href="#/maintenance" aria-current=${this.route?.name === 'maintenance' ? 'page' : 'false'}
            >${n.label}</a></li>`;
        }
        return html`<li><div class="area">${n.label}</div>${this.renderLevel(n.tipo)}</li>`;
      })}
    </ul>`;
  }

  override render() {
    const roots = new Set(this.tree.map((n) => n.tipo));
    const top = [...new Set(this.tree.filter((n) => !roots.has(n.parent)).map((n) => n.parent))];
    return html`${top.map((p) => this.renderLevel(p))}`;
  }
}
customElements.define('dd-menu', DdMenu);
