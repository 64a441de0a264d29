/**
 * component_portal: the linked records (their columns from the portal's show map), each with
 * open, move up/down (`sort_data`) and unlink (`remove` by the locator's id); a search of the
 * target section as you type to link an existing record (`insert` of a locator), each result with
 * the target's list columns that tell records apart (dates, codes); "New" creates a record in the
 * target and links it in one change (`add_new_element`), then opens it in a dialog to fill in
 * without leaving this record.
 */

import { css, html } from 'lit';
import { t } from '../api/i18n.js';
import {
  type ContextEntry,
  type Ddo,
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

const TEXT_MODELS = new Set(['component_input_text', 'component_text_area', 'component_email']);

interface Found {
  locator: Locator;
  text: string;
  /** The target's other list columns with a value: what tells this record from a namesake. */
  details: { label: string; value: string }[];
}

/** How long typing pauses before the search runs (one request per pause, not per key). */
const TYPE_PAUSE_MS = 250;

export class ComponentPortal extends ComponentBase {
  static override styles = [
    ...ComponentBase.styles,
    css`
      /* As wide as the text fields: a record's name and its buttons stay within one glance. */
      ol { margin: 0; padding-left: 1.4rem; display: grid; gap: 0.25rem; max-width: 40rem; }
      li:hover { background: var(--wash); }
      li .row { justify-content: space-between; }
      .finder { margin-top: 0.4rem; display: grid; gap: 0.3rem; }
      .found { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.2rem; }
      .found li { align-items: baseline; }
      .found .details { color: var(--muted, #4a5568); font-size: 0.88rem; }
      dialog.new-record { border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem 1rem; width: min(60rem, 96vw); max-height: 92vh; overflow: auto; }
      dialog.new-record::backdrop { background: rgb(0 0 0 / 35%); }
      dialog.new-record .head-row { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; margin-bottom: 0.5rem; }
      dialog.new-record h2 { margin: 0; font-size: 1.1rem; }
    `,
  ];
  static override properties = {
    ...ComponentBase.properties,
    found: { state: true },
    searching: { state: true },
    fallbackLabels: { state: true },
    findError: { state: true },
    created: { state: true },
  };
  declare found: Found[] | undefined;
  declare searching: boolean;
  declare fallbackLabels: Map<string, string>;
  declare findError: string;
  /** The record "New" just created and linked, open in the dialog. */
  declare created: { section: string; id: number; label: string } | undefined;
  private findSeq = 0;
  /** What the shown results were found for (Enter links the first of them). */
  private foundFor = '';
  private typing: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.searching = false;
    this.fallbackLabels = new Map();
    this.findError = '';
  }

  private get targets(): { tipo: string; label: string }[] {
    return (this.context.target_sections ?? []) as { tipo: string; label: string }[];
  }

  /**
   * The columns shown for the linked records and searched to find one: the portal's own
   * request_config, or (relation_parent / relation_children carry none) each target section's.
   */
  private async targetMaps(): Promise<{ show: Ddo[]; search: Ddo[] }> {
    const own = { show: showDdos(this.context), search: searchDdos(this.context) };
    if (own.show.length > 0) return own;
    if (!this.targetMapsCache) {
      this.targetMapsCache = Promise.all(
        this.targets.map((t) =>
          this.store.session.api
            .call<ContextEntry[]>({
              action: 'get_element_context',
              source: { tipo: t.tipo, section_tipo: t.tipo, mode: 'list' },
            })
            .then((a) => a.data[0])
            .catch(() => undefined),
        ),
      ).then((contexts) => ({
        show: contexts.flatMap((c) =>
          showDdos(c).filter((d) => d.section_tipo === c?.tipo && d.parent === c?.tipo),
        ),
        search: contexts.flatMap((c) => searchDdos(c).filter((d) => d.section_tipo === c?.tipo)),
      }));
    }
    return this.targetMapsCache;
  }

  private targetMapsCache: Promise<{ show: Ddo[]; search: Ddo[] }> | undefined;

  /** A record by its section's name and its number ("People 3"), when it has no name of its own. */
  private numbered(l: { section_tipo: string; section_id: number | string }): string {
    return t('recordOf', { label: this.store.session.labelOf(l.section_tipo), id: l.section_id });
  }

  /** Labels of linked records when the answer carries no columns for them (see targetMaps). */
  private async loadFallbackLabels() {
    const locators = this.entries as Locator[];
    if (showDdos(this.context).length > 0 || locators.length === 0) return;
    const { show } = await this.targetMaps();
    const labels = new Map<string, string>();
    for (const st of new Set(locators.map((l) => l.section_tipo))) {
      const ids = locators.filter((l) => l.section_tipo === st).map((l) => Number(l.section_id));
      try {
        const answer = await this.store.session.api.call<ReadResult>({
          action: 'read',
          source: { tipo: st, section_tipo: st, model: 'section', mode: 'list', action: 'search' },
          sqo: {
            section_tipo: [st],
            limit: ids.length,
            filter_by_locators: ids.map((id) => ({ section_tipo: st, section_id: id })),
          },
        });
        for (const id of ids) {
          const text = show
            .filter((d) => d.section_tipo === st)
            .map((d) => itemText(itemOf(answer.data.data, d.tipo, st, id)))
            .filter(Boolean)
            .join(' ');
          if (text) labels.set(`${st}_${id}`, text);
        }
      } catch {
        // Not readable: the ids stay as they are.
      }
    }
    this.fallbackLabels = labels;
  }

  override updated(changed: Map<string, unknown>) {
    super.updated(changed);
    if (changed.has('item')) void this.loadFallbackLabels();
  }

  private onFindSubmit(e: Event) {
    e.preventDefault();
    clearTimeout(this.typing);
    void this.find(((e.target as HTMLFormElement).elements.namedItem('q') as HTMLInputElement).value.trim());
  }

  /**
   * Enter in the box picks the first record found for what it holds (a search typed and
   * answered): linking takes no click. Before the answer, Enter searches (the form's submit).
   */
  private onFindKey(e: KeyboardEvent) {
    if (e.key !== 'Enter' || e.isComposing) return;
    const q = (e.target as HTMLInputElement).value.trim();
    const first = this.found?.[0];
    if (!first || q === '' || q !== this.foundFor) return;
    e.preventDefault();
    void this.link(first.locator);
  }

  /** Search as you type: after a pause; an emptied box clears the results. */
  private onFindInput(e: Event) {
    const q = (e.target as HTMLInputElement).value.trim();
    clearTimeout(this.typing);
    if (q === '') {
      this.findSeq++;
      this.found = undefined;
      this.searching = false;
      return;
    }
    this.typing = setTimeout(() => void this.find(q), TYPE_PAUSE_MS);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this.typing);
  }

  private async find(q: string) {
    const seq = ++this.findSeq;
    const targets = this.targets.map((t) => t.tipo);
    const maps = await this.targetMaps();
    // Words are looked for in text fields (a relation in the map would need a locator).
    const columns = maps.search.filter((d) => TEXT_MODELS.has(d.model ?? ''));
    this.findError = '';
    const shown = maps.show;
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
            // No show map: the target section's own list columns, what its list shows.
            sqo: { section_tipo: [st], limit: 10, offset: 0, ...(filter ? { filter } : {}) },
          }),
        ),
      );
      if (seq !== this.findSeq) return;
      this.foundFor = q;
      this.found = results.flatMap((r, n) => {
        const st = targets[n]!;
        const data = r.data.data;
        const context = r.data.context.find((c) => c.type === 'section' && c.tipo === st);
        const listColumns = showDdos(context).filter((d) => d.parent === st || d.parent === 'self');
        const named = shown.filter((d) => d.section_tipo === st);
        const nameColumns = named.length > 0 ? named : listColumns.slice(0, 1);
        const rows = (data.find((d) => d.typo === 'sections')?.entries ?? []) as Locator[];
        return rows.map((row) => {
          const columnText = (d: Ddo) => {
            const item = itemOf(data, d.tipo, st, row.section_id);
            // Locators would read as "dd64 1": only values that read as themselves.
            return item && !item.entries.some((e) => typeof e === 'object' && e !== null && 'section_id' in e)
              ? itemText(item)
              : '';
          };
          const text =
            nameColumns.map(columnText).filter(Boolean).join(' ') ||
            this.numbered({ section_tipo: st, section_id: row.section_id });
          return {
            locator: { section_tipo: st, section_id: Number(row.section_id) },
            text,
            // A column repeating the name (a computed full name) tells nothing apart.
            details: listColumns
              .filter((d) => !nameColumns.some((n) => n.tipo === d.tipo))
              .map((d) => ({ label: String(d.label ?? d.tipo), value: columnText(d) }))
              .filter((d) => d.value !== '' && d.value !== text)
              .slice(0, 4),
          };
        });
      });
    } catch (err) {
      if (seq !== this.findSeq) return;
      this.found = undefined;
      this.findError = err instanceof ApiError ? err.message : t('searchFailed');
    } finally {
      if (seq === this.findSeq) this.searching = false;
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
      // Kept in the record's store too: the record screen draws again from it (after any other
      // field's save), and the names read here must not go back to "#1".
      this.store.keep(answer.data.data);
      this.applyEcho(answer.data);
    } catch (err) {
      this.status = 'failed';
      this.message = err instanceof ApiError ? err.message : t('linkedNotRead');
    }
  }

  private async link(locator: Locator) {
    if (
      await this.save([
        {
          action: 'insert',
          id: null,
          // The server gives the locator its model's relation type (dd151 link, dd47 parent, ...).
          value: { section_tipo: locator.section_tipo, section_id: locator.section_id },
        },
      ])
    ) {
      this.found = undefined;
      // The search is done: the box is ready for the next one.
      const box = this.renderRoot.querySelector<HTMLInputElement>('.finder input[name="q"]');
      if (box) box.value = '';
    }
  }

  private async createNew(sectionTipo: string) {
    this.status = 'saving';
    try {
      const echo = await this.store.save(
        this.tipo,
        this.context.model,
        this.itemLang,
        [{ action: 'add_new_element', id: null, value: sectionTipo }],
        undefined,
        this.item?.version as number | undefined,
      );
      this.applyEcho(echo);
      this.status = 'saved';
      const created = echo.created_section_id;
      if (created !== undefined) {
        this.store.session.announce(t('createdAndLinked', { id: created }));
        // Filled in here, in a dialog: the cataloguer stays on this record.
        const label = this.targets.find((x) => x.tipo === sectionTipo)?.label ?? sectionTipo;
        this.created = { section: sectionTipo, id: Number(created), label };
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLDialogElement>('dialog.new-record')?.showModal();
      }
    } catch (err) {
      this.status = 'failed';
      this.message = err instanceof ApiError ? err.message : t('recordNotCreated');
    }
  }

  /** The dialog closed: the linked record's name is read again (it was empty when linked). */
  private async closeCreated() {
    const dialog = this.renderRoot.querySelector<HTMLDialogElement>('dialog.new-record');
    if (dialog?.open) dialog.close();
    if (!this.created) return;
    this.created = undefined;
    const count = this.item?.pagination?.total ?? (this.entries as Locator[]).length;
    await this.showAll(Math.max(1, count));
    void this.loadFallbackLabels();
  }

  private renderCreated() {
    const c = this.created;
    if (!c) return '';
    const heading = t('newLinkedTitle', { label: c.label, id: c.id, to: String(this.context.label ?? '') });
    return html`<dialog class="new-record" aria-label=${heading} @close=${this.closeCreated}>
      <div class="head-row">
        <h2>${heading}</h2>
        <button type="button" class="primary" @click=${this.closeCreated}>${t('doneClose')}</button>
      </div>
      <dd-record-edit embedded .session=${this.store.session} .section=${c.section} .sectionId=${c.id}
        .lang=${this.store.session.dataLang}></dd-record-edit>
    </dialog>`;
  }

  override render() {
    const locators = this.entries as Locator[];
    const columns = showDdos(this.context);
    const item = this.item;
    const count = item?.pagination?.total ?? locators.length;
    const list =
      locators.length === 0
        ? html`<p class="muted">${t('noneLinked')}</p>`
        : html`<ol aria-label=${t('linkedRecordsOf', { label: this.context.label as string })}>
            ${locators.map((l, i) => {
              const own = item ? linkedText(this.data, item, columns, l) : '';
              // A record with nothing to show reads as its section and number ("Audiovisual 3").
              const text =
                this.fallbackLabels.get(`${l.section_tipo}_${l.section_id}`) ?? (own || this.numbered(l));
              return html`<li><div class="row">
                <a href=${hrefOf({ name: 'edit', section: l.section_tipo, id: Number(l.section_id) })}>${text}</a>
                ${
                  this.readOnly
                    ? ''
                    : html`<span class="row">
                      <button type="button" aria-label=${t('moveUp', { text })} ?disabled=${(l.paginated_key ?? i) === 0}
                        @click=${() => this.move(l, i, -1)}>↑</button>
                      <button type="button" aria-label=${t('moveDown', { text })} ?disabled=${(l.paginated_key ?? i) === count - 1}
                        @click=${() => this.move(l, i, 1)}>↓</button>
                      <button type="button" class="danger" aria-label=${t('unlink', { text })}
                        @click=${() => this.save([l.id !== undefined ? { action: 'remove', id: l.id, value: null } : { action: 'remove', key: l.paginated_key ?? i, value: null }])}>${t('unlinkButton')}</button>
                    </span>`
                }
              </div></li>`;
            })}
          </ol>`;
    const total = item?.pagination?.total;
    const finder = this.readOnly
      ? ''
      : html`<div class="finder">
          <form class="row" role="search" aria-label=${t('findToLinkTo', { label: this.context.label as string })} @submit=${this.onFindSubmit}>
            <input name="q" autocomplete="off" aria-label=${t('findToLinkTo', { label: this.context.label as string })} placeholder=${t('findToLink')}
              @input=${this.onFindInput} @keydown=${this.onFindKey} />
            <button type="submit" ?disabled=${this.searching}>${t('find')}</button>
            ${this.targets.map(
              (target) =>
                html`<button type="button" @click=${() => this.createNew(target.tipo)}>${t('newOf', { label: target.label })}</button>`,
            )}
          </form>
          ${this.findError ? html`<p class="alert" role="alert">${this.findError}</p>` : ''}
          ${
            this.found
              ? this.found.length === 0
                ? html`<p class="muted">${t('nothingFound')}</p>`
                : html`<p class="muted hint">${t('ci_enterLinksFirst')}</p><ul class="found" aria-label=${t('foundRecords')}>
                  ${this.found.map(
                    (f) => html`<li class="row"><button type="button" @click=${() => this.link(f.locator)}
                      aria-label=${t('linkTo', { text: f.text })}>${t('link')}</button>
                      <span><strong>${f.text}</strong> <span class="details">${[
                        ...f.details,
                        { label: t('id'), value: String(f.locator.section_id) },
                      ].map((d, i) => html`${i > 0 ? ' · ' : ''}${d.label}: ${d.value}`)}</span></span></li>`,
                  )}
                </ul>`
              : ''
          }
        </div>`;
    return this.frame(
      html`${list}${
        total !== undefined && total > locators.length
          ? html`<p class="row muted">${t('shownOf', { shown: locators.length, total })}
              <button type="button" @click=${() => this.showAll(total)}>${t('showAll', { total })}</button></p>`
          : ''
      }${finder}${this.renderCreated()}`,
    );
  }
}
customElements.define('component-portal', ComponentPortal);

/**
 * A thesaurus term's parent and children: linked, found and created as in a portal (the server
 * mirrors each change into the other side).
 */
customElements.define('component-relation-parent', class extends ComponentPortal {});
customElements.define('component-relation-children', class extends ComponentPortal {});
