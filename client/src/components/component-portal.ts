/**
 * component_portal: the linked records (their columns from the portal's show map), each with
 * open, move up/down (`sort_data`) and unlink (`remove` by the locator's id); a search of the
 * target section to link an existing record (`insert` of a locator); "New" creates a record in
 * the target and links it (`add_new_element`).
 */
import { css, html } from 'lit';
import {
  itemOf,
  itemText,
  type Locator,
  linkedText,
  type ReadResult,
  searchDdos,
  showDdos,
} from '../api/read-shapes.js';
import { ApiError } from '../api/rqo-client.js';
import { hrefOf } from '../app/router.js';
import { ComponentBase } from './component-base.js';

interface Found {
  locator: Locator;
  text: string;
}

export class ComponentPortal extends ComponentBase {
  static override styles = [
    ...ComponentBase.styles,
    css`
      ol { margin: 0; padding-left: 1.4rem; display: grid; gap: 0.25rem; }
      li .row { justify-content: space-between; }
      .finder { margin-top: 0.4rem; display: grid; gap: 0.3rem; }
      .found { list-style: none; padding: 0; margin: 0; }
    `,
  ];
  static override properties = {
    ...ComponentBase.properties,
    found: { state: true },
    searching: { state: true },
  };
  declare found: Found[] | undefined;
  declare searching: boolean;

  constructor() {
    super();
    this.searching = false;
  }

  private get targets(): { tipo: string; label: string }[] {
    return (this.context.target_sections ?? []) as { tipo: string; label: string }[];
  }

  private async find(e: Event) {
    e.preventDefault();
    const q = ((e.target as HTMLFormElement).elements.namedItem('q') as HTMLInputElement).value.trim();
    const targets = this.targets.map((t) => t.tipo);
    const columns = searchDdos(this.context);
    const shown = showDdos(this.context);
    const filter =
      q && columns.length > 0
        ? {
            $or: columns.map((c) => ({
              q,
              path: [{ section_tipo: c.section_tipo, component_tipo: c.tipo }],
            })),
          }
        : null;
    this.searching = true;
    try {
      const results = await Promise.all(
        targets.map((st) =>
          this.store.session.api.call<ReadResult>({
            action: 'read',
            source: { tipo: st, section_tipo: st, model: 'section', mode: 'list', action: 'search' },
            sqo: { section_tipo: [st], limit: 10, offset: 0, ...(filter ? { filter } : {}) },
            show: {
              ddo_map: shown
                .filter((d) => d.section_tipo === st)
                .map((d) => ({ ...d, parent: st, mode: 'list' })),
            },
          }),
        ),
      );
      this.found = results.flatMap((r, n) => {
        const st = targets[n]!;
        const rows = (r.data.data.find((d) => d.typo === 'sections')?.entries ?? []) as Locator[];
        return rows.map((row) => ({
          locator: { section_tipo: st, section_id: Number(row.section_id) },
          text:
            shown
              .filter((d) => d.section_tipo === st)
              .map((d) => itemText(itemOf(r.data.data, d.tipo, st, row.section_id)))
              .filter(Boolean)
              .join(' ') || `#${row.section_id}`,
        }));
      });
    } catch (err) {
      this.status = 'failed';
      this.message = err instanceof ApiError ? err.message : 'The search failed.';
    } finally {
      this.searching = false;
    }
  }

  /** Moves a linked record one place (keys are positions in the whole list, not the page). */
  private move(l: Locator, index: number, by: -1 | 1) {
    const key = l.paginated_key ?? index;
    return this.save([{ action: 'sort_data', value: { source_key: key, target_key: key + by } }]);
  }

  /** Reads every linked record at once (a portal's answers come 10 at a time). */
  private async showAll(total: number) {
    try {
      const answer = await this.store.session.api.call<ReadResult>({
        action: 'read',
        source: {
          tipo: this.tipo,
          section_tipo: this.store.sectionTipo,
          section_id: this.store.sectionId,
          model: this.context.model,
          mode: 'edit',
          action: 'get_data',
        },
        sqo: { limit: Math.min(total, 1000), offset: 0 },
      });
      this.applyEcho(answer.data);
    } catch (err) {
      this.status = 'failed';
      this.message = err instanceof ApiError ? err.message : 'The linked records could not be read.';
    }
  }

  private async link(locator: Locator) {
    if (
      await this.save([
        {
          action: 'insert',
          id: null,
          value: {
            section_tipo: locator.section_tipo,
            section_id: locator.section_id,
            type: 'dd151',
            from_component_tipo: this.tipo,
          },
        },
      ])
    ) {
      this.found = undefined;
    }
  }

  private async createNew(sectionTipo: string) {
    this.status = 'saving';
    try {
      const echo = await this.store.save(this.tipo, this.context.model, this.itemLang, [
        { action: 'add_new_element', id: null, value: sectionTipo },
      ]);
      this.applyEcho(echo);
      this.status = 'saved';
      const created = echo.created_section_id;
      if (created !== undefined) this.store.session.announce(`New record ${created} created and linked.`);
    } catch (err) {
      this.status = 'failed';
      this.message = err instanceof ApiError ? err.message : 'The record could not be created.';
    }
  }

  override render() {
    const locators = this.entries as Locator[];
    const columns = showDdos(this.context);
    const item = this.item;
    const count = item?.pagination?.total ?? locators.length;
    const list =
      locators.length === 0
        ? html`<p class="muted">None linked.</p>`
        : html`<ol aria-label=${`${this.context.label}: linked records`}>
            ${locators.map((l, i) => {
              const text = item ? linkedText(this.data, item, columns, l) : `#${l.section_id}`;
              return html`<li><div class="row">
                <a href=${hrefOf({ name: 'edit', section: l.section_tipo, id: Number(l.section_id) })}>${text}</a>
                ${
                  this.readOnly
                    ? ''
                    : html`<span class="row">
                      <button type="button" aria-label="Move ${text} up" ?disabled=${(l.paginated_key ?? i) === 0}
                        @click=${() => this.move(l, i, -1)}>↑</button>
                      <button type="button" aria-label="Move ${text} down" ?disabled=${(l.paginated_key ?? i) === count - 1}
                        @click=${() => this.move(l, i, 1)}>↓</button>
                      <button type="button" class="danger" aria-label="Unlink ${text}"
                        @click=${() => this.save([l.id !== undefined ? { action: 'remove', id: l.id, value: null } : { action: 'remove', key: l.paginated_key ?? i, value: null }])}>Unlink</button>
                    </span>`
                }
              </div></li>`;
            })}
          </ol>`;
    const total = item?.pagination?.total;
    const finder = this.readOnly
      ? ''
      : html`<div class="finder">
          <form class="row" role="search" aria-label="Find a record to link to ${this.context.label}" @submit=${this.find}>
            <input name="q" aria-label="Find a record to link to ${this.context.label}" placeholder="Find to link…" />
            <button type="submit" ?disabled=${this.searching}>Find</button>
            ${this.targets.map(
              (t) =>
                html`<button type="button" @click=${() => this.createNew(t.tipo)}>New ${t.label}</button>`,
            )}
          </form>
          ${
            this.found
              ? this.found.length === 0
                ? html`<p class="muted">Nothing found.</p>`
                : html`<ul class="found" aria-label="Found records">
                  ${this.found.map(
                    (f) => html`<li class="row"><button type="button" @click=${() => this.link(f.locator)}
                      aria-label="Link ${f.text}">Link</button> ${f.text}</li>`,
                  )}
                </ul>`
              : ''
          }
        </div>`;
    return this.frame(
      html`${list}${
        total !== undefined && total > locators.length
          ? html`<p class="row muted">${locators.length} of ${total} shown
              <button type="button" @click=${() => this.showAll(total)}>Show all ${total}</button></p>`
          : ''
      }${finder}`,
    );
  }
}
customElements.define('component-portal', ComponentPortal);
