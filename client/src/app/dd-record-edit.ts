/**
 * One record in edit mode: every component of the section's edit map, each as the element of its
 * model, saving on change. The toolbar: back to the list, the data language (translatable fields
 * follow it), duplicate, delete (empty the data or remove the record, with a confirmation that
 * names what goes), the history with restore, and publishing where the server offers it.
 */
import { css, html, LitElement } from 'lit';
import { html as staticHtml, unsafeStatic } from 'lit/static-html.js';
import { t, uiLang } from '../api/i18n.js';
import { newIdempotencyKey } from '../api/idempotency-key.js';
import { type ContextEntry, itemOf, itemText, type ReadResult, showDdos } from '../api/read-shapes.js';
import { ApiError } from '../api/rqo-client.js';
import { pendingSaves, withKept } from '../components/pending-saves.js';
import { RecordStore } from '../components/record-store.js';
import { elementNameOf } from '../components/registry.js';
import { keepUnsaved, takeUnsaved } from '../components/unsaved-changes.js';
import type { DdConfirmDialog } from './dd-confirm-dialog.js';
import './dd-confirm-dialog.js';
import './dd-history.js';
import '../text/dd-record-terms.js';
import { focusFirstField, takeFresh } from './fresh-record.js';
import { bcp47Of, langName } from './lang-names.js';
import { publishOffer, publishSummary } from './publish.js';
import { hrefOf, navigate } from './router.js';
import { isOntologySection, RECORD_WRITTEN, type Session } from './session.js';
import { baseStyles } from './styles.js';

export class DdRecordEdit extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; }
      .bar { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; margin-bottom: 0.75rem; }
      h1 { margin: 0; font-size: 1.4rem; }
      .spacer { flex: 1; }
      /* The record's actions stay together: on a narrow screen they wrap under the title as one row. */
      .actions { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; margin-left: auto; }
      .history h2 { margin: 0 0 0.5rem; font-size: 1.15rem; }
      .sheet { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.25rem 1rem 0.75rem; }
      /* A translatable field beside its second language: two columns, one under the other when narrow. */
      .pair { display: grid; grid-template-columns: 1fr; gap: 0 1rem; }
      .pair.two { grid-template-columns: 1fr 1fr; }
      @media (max-width: 700px) { .pair.two { grid-template-columns: 1fr; } }
      .col-lang { margin: 0.6rem 0 -0.4rem; font-size: 0.8rem; font-weight: 600; color: var(--muted, #555); text-transform: uppercase; letter-spacing: 0.03em; }
      .fallback { margin: 0.1rem 0 0.4rem; padding: 0.3rem 0.5rem; border-left: 3px solid #b7791f; background: #fdf6e3; font-size: 0.9rem; }
      .fallback .shown { display: block; color: #333; }
      /* A record with a player and a text (an audiovisual record): the player beside the text from
         1024 px, kept in view while the text scrolls; under it on narrower screens. */
      .sheet.with-player { display: grid; grid-template-columns: minmax(16rem, 2fr) 3fr; gap: 0 1.25rem; align-items: start; }
      .player-col { position: sticky; top: 0.5rem; min-width: 0; }
      .text-col { min-width: 0; }
      @media (max-width: 1023px) {
        .sheet.with-player { grid-template-columns: minmax(0, 1fr); }
        .player-col { position: static; }
      }
      .history { margin-top: 1rem; background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; }
    `,
  ];
  static override properties = {
    session: { attribute: false },
    section: {},
    sectionId: { type: Number },
    lang: {},
    embedded: { type: Boolean },
    result: { state: true },
    error: { state: true },
    showHistory: { state: true },
    canPublish: { state: true },
    publishing: { state: true },
    compareLang: { state: true },
    compareResult: { state: true },
    fallbacks: { state: true },
  };
  declare session: Session;
  declare section: string;
  declare sectionId: number;
  declare lang: string;
  /** Inside another record's dialog (a portal's "New"): no way out to the list, no duplicate, delete or publish. */
  declare embedded: boolean;
  declare result: ReadResult | undefined;
  declare error: string;
  declare showHistory: boolean;
  declare canPublish: boolean;
  declare publishing: boolean;
  /** The second language shown beside translatable fields ('' : none), chosen per form. */
  declare compareLang: string;
  declare compareResult: ReadResult | undefined;
  /** Translatable fields empty in the data language: the value shown from another language. */
  declare fallbacks: Map<string, { lang: string; text: string }>;
  private store: RecordStore | undefined;
  private compareStore: RecordStore | undefined;

  constructor() {
    super();
    this.error = '';
    this.showHistory = false;
    this.embedded = false;
    this.canPublish = false;
    this.publishing = false;
    this.compareLang = '';
    this.compareResult = undefined;
    this.fallbacks = new Map();
  }

  override updated(changed: Map<string, unknown>) {
    if (changed.has('section') || changed.has('sectionId') || changed.has('lang')) void this.load();
    if (changed.has('section')) this.checkPublishable();
  }

  /** Offers Publish only where the server's publication map takes this section and the user may publish. */
  private checkPublishable() {
    const section = this.section;
    this.canPublish = false;
    void publishOffer(this.session.api, section).then((offer) => {
      if (this.section === section) this.canPublish = offer.record;
    });
  }

  override connectedCallback() {
    super.connectedCallback();
    this.addEventListener(RECORD_WRITTEN, this.onWritten);
  }

  /** A field saved: the fallback marks follow what is now in the store. */
  private onWritten = () => {
    this.syncVersions();
    this.requestUpdate();
  };

  /**
   * A component's version counts saves in every language: a save in one column moves the version
   * the other column must send, or its next save would be refused as someone else's change.
   */
  private syncVersions() {
    const main = this.store;
    const other = this.compareStore;
    if (!main || !other) return;
    for (const a of main.items) {
      if (String(a.section_id) !== String(this.sectionId)) continue;
      const b = itemOf(other.items, a.tipo, this.section, this.sectionId);
      if (!b || typeof a.version !== 'number' || typeof b.version !== 'number') continue;
      const newest = Math.max(a.version, b.version);
      a.version = newest;
      b.version = newest;
    }
  }

  override disconnectedCallback() {
    this.removeEventListener(RECORD_WRITTEN, this.onWritten);
    void this.store?.releaseAll();
    super.disconnectedCallback();
  }

  async load() {
    this.error = '';
    if (this.store && (this.store.sectionTipo !== this.section || this.store.sectionId !== this.sectionId)) {
      void this.store.releaseAll();
    }
    this.store = new RecordStore(this.session, this.section, this.sectionId, this.lang);
    try {
      const answer = await this.session.api.call<ReadResult>({
        action: 'read',
        source: {
          tipo: this.section,
          section_tipo: this.section,
          section_id: this.sectionId,
          model: 'section',
          mode: 'edit',
          lang: this.lang,
        },
        sqo: {
          section_tipo: [this.section],
          limit: 1,
          offset: 0,
          filter_by_locators: [{ section_tipo: this.section, section_id: this.sectionId }],
        },
      });
      const rows = answer.data.data.find((d) => d.typo === 'sections')?.entries ?? [];
      if (rows.length === 0) {
        this.result = undefined;
        this.error = t('recordMissing', { id: this.sectionId });
        return;
      }
      // Typing kept in this tab and not saved yet (a reload, the server away) goes back into its
      // field, over the value read; the fields say it is not saved, the app retries it.
      const kept = pendingSaves.forRecord(this.section, this.sectionId);
      this.store.items = answer.data.data.map((d) => {
        const k = kept.find(
          (e) =>
            e.tipo === d.tipo &&
            String(d.section_id) === String(this.sectionId) &&
            (e.lang === 'lg-nolan' || e.lang === this.lang),
        );
        return k ? withKept(d, k) : d;
      });
      this.result = answer.data;
      await this.saveKeptTyping();
      await Promise.all([this.loadCompare(), this.loadFallbacks()]);
      if (takeFresh(this.section, this.sectionId)) {
        await this.updateComplete;
        await focusFirstField(this.renderRoot.querySelectorAll('form.sheet *'));
      }
    } catch (err) {
      this.result = undefined;
      this.error = err instanceof ApiError ? err.message : t('recordNotRead');
    }
  }

  /** The record read again in the compare language: its translatable fields edit that language. */
  private async loadCompare() {
    const lang = this.compareLang;
    if (!lang || lang === this.lang) {
      this.compareStore = undefined;
      this.compareResult = undefined;
      return;
    }
    const store = new RecordStore(this.session, this.section, this.sectionId, lang);
    try {
      const answer = await this.session.api.call<ReadResult>(this.editRead(lang));
      if (this.compareLang !== lang) return;
      store.items = answer.data.data;
      this.compareStore = store;
      this.compareResult = answer.data;
    } catch (err) {
      this.session.announce(err instanceof ApiError ? err.message : t('recordNotRead'), 'error');
    }
  }

  /**
   * Translatable fields with no value in the data language: their list reading falls back to the
   * first language that has one, which the form shows under the empty field with a mark.
   */
  private async loadFallbacks() {
    const comps = this.componentContexts().filter((c) => c.translatable === true);
    const lang = this.lang;
    const empty = comps.filter((c) => {
      const item = itemOf(this.store?.items ?? [], c.tipo, this.section, this.sectionId);
      return !item || itemText(item).trim() === '';
    });
    if (empty.length === 0) {
      this.fallbacks = new Map();
      return;
    }
    try {
      const answer = await this.session.api.call<ReadResult>({
        ...this.editRead(lang),
        show: {
          ddo_map: empty.map((c) => ({
            tipo: c.tipo,
            section_tipo: this.section,
            parent: 'self',
            mode: 'list',
          })),
        },
      });
      if (this.lang !== lang) return;
      const found = new Map<string, { lang: string; text: string }>();
      for (const c of empty) {
        const item = itemOf(answer.data.data, c.tipo, this.section, this.sectionId);
        const first = (item?.entries as { lang?: string }[] | undefined)?.[0]?.lang;
        if (item && first && first !== lang && itemText(item).trim() !== '')
          found.set(c.tipo, { lang: first, text: itemText(item) });
      }
      this.fallbacks = found;
    } catch {
      // Without the fallback reading the fields show empty, as they are in this language.
      this.fallbacks = new Map();
    }
  }

  private editRead(lang: string) {
    return {
      action: 'read',
      source: {
        tipo: this.section,
        section_tipo: this.section,
        section_id: this.sectionId,
        model: 'section',
        mode: 'edit',
        lang,
      },
      sqo: {
        section_tipo: [this.section],
        limit: 1,
        offset: 0,
        filter_by_locators: [{ section_tipo: this.section, section_id: this.sectionId }],
      },
    };
  }

  private async chooseCompare(e: Event) {
    this.compareLang = (e.target as HTMLSelectElement).value;
    await this.loadCompare();
  }

  /**
   * Saves what was typed in this record when a save was refused because the session had ended
   * (kept in sessionStorage by the field), now that the same user is logged in again, and says
   * so; then the record is read again to show the saved values.
   */
  private async saveKeptTyping() {
    const kept = takeUnsaved(this.section, this.sectionId).filter((k) => k.userId === this.session.userId);
    if (kept.length === 0) return;
    const saved: string[] = [];
    for (const k of kept) {
      try {
        await this.store!.save(k.tipo, k.model, k.lang, k.changes, undefined, k.version);
        saved.push(k.label);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'auth.not_logged') keepUnsaved(k);
        this.session.announce(
          `${k.label}: what you typed before your session ended could not be saved: ${
            err instanceof ApiError ? err.message : 'the server did not answer.'
          }`,
          'error',
        );
      }
    }
    if (saved.length === 0) return;
    // Said once the fields show the saved values: announced before the reading, the message
    // stood beside a field still showing the value read before the save (empty).
    await this.load();
    await this.updateComplete;
    for (const label of saved)
      this.session.announce(`${label}: what you typed before your session ended is now saved.`);
  }

  private get context(): ContextEntry | undefined {
    return this.result?.context.find((c) => c.type === 'section' && c.tipo === this.section);
  }

  private componentContexts(): ContextEntry[] {
    const result = this.result;
    if (!result) return [];
    return showDdos(this.context)
      .filter((d) => d.parent === this.section || d.parent === 'self')
      .map((d) =>
        result.context.find(
          (c) => c.tipo === d.tipo && c.section_tipo === this.section && c.type === 'component',
        ),
      )
      .filter((c): c is ContextEntry => c !== undefined);
  }

  /** A short title: the first text value among the first fields, else the id. */
  private recordTitle(): string {
    const result = this.result;
    if (!result) return '';
    // Short text fields only (a transcription would make a poor heading).
    const short = this.componentContexts().filter((c) => c.model === 'component_input_text');
    for (const c of short.slice(0, 3)) {
      const text = itemText(itemOf(this.store?.items ?? result.data, c.tipo, this.section, this.sectionId));
      // Not a time code either (an audiovisual record's duration).
      if (text && typeof text === 'string' && !/^\w+ \d+$/.test(text) && !/^\d+:\d\d/.test(text))
        return text.slice(0, 80);
    }
    return '';
  }

  private async duplicate() {
    try {
      const answer = await this.session.api.call<number>({
        action: 'duplicate',
        source: { section_tipo: this.section, section_id: this.sectionId },
        idempotency_key: newIdempotencyKey(),
      });
      this.session.announce(t('recordDuplicated', { id: this.sectionId, copy: answer.data }));
      navigate({ name: 'edit', section: this.section, id: answer.data });
    } catch (err) {
      this.session.announce(err instanceof ApiError ? err.message : t('recordNotDuplicated'), 'error');
    }
  }

  private async confirmDelete() {
    const dialog = this.renderRoot.querySelector<DdConfirmDialog>('dd-confirm-dialog.delete')!;
    const answer = await dialog.ask();
    if (!answer) return;
    const mode = (answer.get('mode') as string | null) ?? 'delete_data';
    try {
      const answer = await this.deleteRecord(mode, false).catch(async (err: unknown) => {
        // A TLD whose sections hold records: uninstalled only once the person confirms.
        if (!(err instanceof ApiError) || err.code !== 'ontology.tld_has_records') throw err;
        if (!(await this.confirmUninstall(err.details ?? {}))) return undefined;
        return this.deleteRecord(mode, true);
      });
      if (!answer) return;
      for (const n of answer.notices) this.session.announce(n.message, 'error');
      if (answer.data.length === 0) return;
      if (isOntologySection(this.section)) await this.session.refreshMenu();
      if (mode === 'delete_record') {
        this.session.announce(t('recordDeleted', { id: this.sectionId }));
        navigate({ name: 'list', section: this.section, offset: 0 });
      } else {
        this.session.announce(t('recordEmptied', { id: this.sectionId }));
        await this.load();
      }
    } catch (err) {
      this.session.announce(err instanceof ApiError ? err.message : t('recordNotDeleted'), 'error');
    }
  }

  /** A value restored from the history: shown, and (an ontology record) the menu follows. */
  private onRestored = async () => {
    await this.load();
    if (isOntologySection(this.section)) await this.session.refreshMenu();
  };

  private deleteRecord(mode: string, confirmUninstall: boolean) {
    return this.session.api.call<number[]>({
      action: 'delete',
      source: { section_tipo: this.section, section_id: this.sectionId, delete_mode: mode },
      ...(confirmUninstall ? { options: { confirm_uninstall: true } } : {}),
      idempotency_key: newIdempotencyKey(),
    });
  }

  /** Asks before uninstalling a TLD whose sections hold records (they are kept, hidden). */
  private async confirmUninstall(details: Record<string, unknown>): Promise<boolean> {
    const records = (details.records ?? {}) as Record<string, number>;
    const n = Object.values(records).reduce((a, b) => a + b, 0);
    const list = Object.entries(records)
      .map(([section, count]) => `${this.session.labelOf(section)}: ${count}`)
      .join(', ');
    const dialog = this.renderRoot.querySelector<DdConfirmDialog>('dd-confirm-dialog.uninstall')!;
    dialog.heading = t('uninstallTitle', { tld: String(details.tld ?? '') });
    dialog.body = html`<p>${t('uninstallBody', { n, list })}</p>`;
    dialog.confirmLabel = t('uninstall');
    return (await dialog.ask()) !== undefined;
  }

  private async publish() {
    this.publishing = true;
    try {
      const answer = await this.session.api.call<Record<string, unknown>>({
        dd_api: 'dd_diffusion_api',
        action: 'diffuse',
        options: { section_tipo: this.section, section_id: this.sectionId },
      });
      this.session.announce(publishSummary(answer.data));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'request.unknown_action') this.canPublish = false;
      this.session.announce(err instanceof ApiError ? err.message : t('publishFailed'), 'error');
    } finally {
      this.publishing = false;
    }
  }

  private async switchLang(e: Event) {
    const lang = (e.target as HTMLSelectElement).value;
    try {
      await this.session.setDataLang(lang);
    } catch (err) {
      this.session.announce(err instanceof ApiError ? err.message : t('langNotChanged'), 'error');
    }
  }

  private renderComponent(ctx: ContextEntry) {
    const main = this.renderIn(ctx, this.store!);
    if (ctx.translatable !== true) return main;
    const compareCtx = this.compareResult?.context.find(
      (c) => c.tipo === ctx.tipo && c.section_tipo === this.section && c.type === 'component',
    );
    // Shown only while the field stays empty in this language (a save fills it).
    const own = itemOf(this.store!.items, ctx.tipo, this.section, this.sectionId);
    const fallback = own && itemText(own).trim() !== '' ? undefined : this.fallbacks.get(ctx.tipo);
    const names = this.session.langs;
    const mark = fallback
      ? html`<p class="fallback" role="note" lang=${uiLang()}>${t('fallbackMark', {
          shown: langName(fallback.lang, names),
          wanted: langName(this.lang, names),
        })}<span class="shown" lang=${bcp47Of(fallback.lang)}>${fallback.text}</span></p>`
      : '';
    if (!compareCtx || !this.compareStore) return html`<div class="pair">${main}${mark}</div>`;
    return html`<div class="pair two">
      <div class="col" data-lang=${this.lang} lang=${bcp47Of(this.lang)}>
        <p class="col-lang" lang=${uiLang()}>${langName(this.lang, names)}</p>${main}${mark}
      </div>
      <div class="col" data-lang=${this.compareLang} lang=${bcp47Of(this.compareLang)}>
        <p class="col-lang" lang=${uiLang()}>${langName(this.compareLang, names)}</p>${this.renderIn(compareCtx, this.compareStore)}
      </div>
    </div>`;
  }

  /** One component of the record in the language of `store`. */
  private renderIn(ctx: ContextEntry, store: RecordStore) {
    // From the store, not the first read: Lit sets object properties again on every render, and
    // the store holds each save's echo (the last saved value).
    const items = store.items;
    const tag = unsafeStatic(elementNameOf(ctx.model));
    const item = itemOf(items, ctx.tipo, this.section, this.sectionId);
    return staticHtml`<${tag} .context=${ctx} .item=${item} .data=${items} .store=${store}></${tag}>`;
  }

  override render() {
    const ctx = this.context;
    const label = ctx?.label ?? this.session.labelOf(this.section);
    const back = html`<a href=${hrefOf({ name: 'list', section: this.section, offset: 0 })}>← ${label}</a>`;
    if (this.error)
      return html`<div class="bar">${back}</div><p class="alert" role="alert">${this.error}</p>`;
    if (!this.result) return html`<div class="bar">${back}</div><p class="muted">${t('loading')}</p>`;
    const writable = (ctx?.permissions ?? 0) >= 2 && ctx?.read_only !== true && !this.embedded;
    const title = this.recordTitle();
    const comps = this.componentContexts();
    // The player goes beside the text it is transcribed in.
    const player = comps.some((c) => c.model === 'component_text_area')
      ? comps.find((c) => c.model === 'component_av')
      : undefined;
    return html`
      ${this.embedded ? '' : html`<div class="bar">${back}</div>`}
      <div class="bar">
        <h1>${label} ${this.sectionId}${title ? html`: <span>${title}</span>` : ''}</h1>
        <div class="actions">
        ${
          comps.some((c) => c.translatable === true)
            ? html`<label>${t('language')}
              <select @change=${this.switchLang}>
                ${this.session.langs.map((l) => html`<option value=${l.value} ?selected=${l.value === this.lang}>${l.label}</option>`)}
              </select></label>
              <label>${t('compareWith')}
              <select class="compare" @change=${this.chooseCompare}>
                <option value="" ?selected=${this.compareLang === ''}>${t('compareNone')}</option>
                ${this.session.langs
                  .filter((l) => l.value !== this.lang)
                  .map(
                    (l) =>
                      html`<option value=${l.value} ?selected=${l.value === this.compareLang}>${l.label}</option>`,
                  )}
              </select></label>`
            : ''
        }
        <button type="button" aria-expanded=${this.showHistory ? 'true' : 'false'} @click=${() => {
          this.showHistory = !this.showHistory;
        }}>${t('history')}</button>
        ${writable ? html`<button type="button" @click=${this.duplicate}>${t('duplicate')}</button>` : ''}
        ${
          writable && this.canPublish
            ? html`<button type="button" ?disabled=${this.publishing} @click=${this.publish}>${this.publishing ? t('publishing') : t('publish')}</button>`
            : ''
        }
        ${writable ? html`<button type="button" class="danger" @click=${this.confirmDelete}>${t('deleteEllipsis')}</button>` : ''}
        </div>
      </div>
      <form class="sheet ${player ? 'with-player' : ''}" aria-label="${label} ${this.sectionId}" @submit=${(e: Event) => e.preventDefault()}>
        ${
          player
            ? html`<div class="player-col">${this.renderComponent(player)}</div>
              <div class="text-col">${comps.filter((c) => c !== player).map((c) => this.renderComponent(c))}</div>`
            : comps.map((c) => this.renderComponent(c))
        }
      </form>
      <dd-record-terms .session=${this.session} .sectionTipo=${this.section} .sectionId=${this.sectionId}></dd-record-terms>
      ${
        this.showHistory
          ? html`<section class="history" aria-label=${t('history')}>
            <h2>${t('history')}</h2>
            <dd-history .store=${this.store} .labels=${new Map(comps.map((c) => [c.tipo, c]))} @restored=${this.onRestored}></dd-history>
          </section>`
          : ''
      }
      <dd-confirm-dialog class="delete" danger confirm-label=${t('delete')}
        heading=${title ? t('deleteTitleNamed', { label, id: this.sectionId, title }) : t('deleteTitle', { label, id: this.sectionId })}
        .body=${html`<fieldset>
          <legend>${t('whatGoes')}</legend>
          <label><input type="radio" name="mode" value="delete_data" checked />
            ${t('deleteDataChoice', { n: comps.length })}</label>
          <label><input type="radio" name="mode" value="delete_record" />
            ${t('deleteRecordChoice', { id: this.sectionId })}</label>
        </fieldset>`}></dd-confirm-dialog>
      <dd-confirm-dialog class="uninstall" danger></dd-confirm-dialog>
    `;
  }
}
customElements.define('dd-record-edit', DdRecordEdit);
