/**
 * The common part of every component element (one custom element per ontology model, named after
 * it: component_input_text -> <component-input-text>): the label, the saving / saved / failed
 * indicator with the server's message on refusal, saving a change list and taking the server's
 * echo as the new value, and the lock on focus / release on blur. A component the ontology marks
 * `mandatory` shows an asterisk after its label and its inputs carry aria-required; a save the
 * server refuses because it would empty it, or because another record holds the same value of a
 * `unique` component, is explained in the field, the latter with a link to that record.
 */
import { css, html, LitElement, type TemplateResult } from 'lit';
import { t, uiLang } from '../api/i18n.js';
import { newIdempotencyKey } from '../api/idempotency-key.js';
import { type ContextEntry, type DataItem, itemText, type ReadResult } from '../api/read-shapes.js';
import { ApiError } from '../api/rqo-client.js';
import { hrefOf } from '../app/router.js';
import { RECORD_WRITTEN } from '../app/session.js';
import { baseStyles } from '../app/styles.js';
import { type Conflict, conflictOf } from './conflict.js';
import {
  applyChanges,
  type FieldKey,
  isUnreachable,
  keepable,
  type PendingSave,
  pendingKeyOf,
  pendingSaves,
  type RefusedDetail,
  type SavedDetail,
} from './pending-saves.js';
import {
  announceSaved,
  type ChangeObject,
  type ComponentSavedDetail,
  componentSaved,
  type LockState,
  lockHolderSentence,
  type RecordStore,
} from './record-store.js';
import { keepUnsaved } from './unsaved-changes.js';

/**
 * `pending`: not saved because the server could not be reached (kept and retried);
 * `conflict`: someone else saved the field since it was read (the person chooses).
 */
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'failed' | 'pending' | 'conflict';

/** How often a field refused a lock asks again while it keeps the focus. */
export const LOCK_RETRY_MS = 4_000;

let draftSeq = Date.now();

let idSeq = 0;

/** How often a focused field renews its lock (the server lets one lapse after 150 s). */
export const LOCK_HEARTBEAT_MS = 45_000;

export class ComponentBase extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; padding: 0.6rem 0; border-bottom: 1px solid #e6eaee; }
      .head { display: flex; gap: 0.5rem; align-items: baseline; margin-bottom: 0.3rem; flex-wrap: wrap; }
      .label { font-weight: 600; }
      .lang { font-size: 0.8em; color: var(--muted); border: 1px solid var(--line); border-radius: 3px; padding: 0 0.25rem; }
      .status { font-size: 0.85em; }
      .status.saving { color: var(--warn); }
      .status.saved { color: var(--ok); }
      .status.failed { color: var(--bad); }
      .locked { color: var(--warn); font-size: 0.9em; }
      .required { color: var(--bad); font-weight: 700; margin-left: -0.4rem; }
      .refusal { margin: 0.3rem 0; color: var(--bad); }
      .refusal a { font-weight: 600; }
      .values { display: grid; gap: 0.35rem; }
      input.text { width: min(40rem, 100%); }
      .status.pending, .status.conflict { color: var(--bad); font-weight: 600; }
      .conflict-panel { margin: 0.4rem 0; padding: 0.6rem 0.75rem; border: 2px solid var(--bad); border-radius: 6px; background: #fff8f6; max-width: 46rem; }
      .conflict-panel h3 { margin: 0 0 0.3rem; font-size: 1rem; }
      .conflict-panel p { margin: 0 0 0.5rem; }
      .conflict-panel .both { display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: 0.6rem; margin-bottom: 0.6rem; }
      .conflict-panel figure { margin: 0; padding: 0.45rem 0.55rem; border: 1px solid var(--line); border-radius: 4px; background: var(--paper); min-width: 0; }
      .conflict-panel figcaption { font-weight: 600; font-size: 0.9em; margin-bottom: 0.25rem; }
      .conflict-panel figcaption .muted { font-weight: 400; }
      .conflict-panel .value { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 12rem; overflow: auto; }
      .conflict-panel .row { display: flex; gap: 0.5rem; flex-wrap: wrap; }
    `,
  ];
  static override properties = {
    context: { attribute: false },
    item: { attribute: false },
    data: { attribute: false },
    store: { attribute: false },
    status: { state: true },
    message: { state: true },
    lockedBy: { state: true },
    conflict: { state: true },
    duplicate: { state: true },
  };
  declare context: ContextEntry;
  declare item: DataItem | undefined;
  /** Every data item of the read (portals find their targets' columns here). */
  declare data: DataItem[];
  declare store: RecordStore;
  declare status: SaveStatus;
  declare message: string;
  declare lockedBy: string;
  declare conflict: Conflict | undefined;
  /** The record that already holds the value a `unique` save was refused for. */
  declare duplicate: { section_tipo: string; section_id: number; value: string } | undefined;
  /** A unique id prefix for label/for pairs inside this element. */
  protected readonly uid = `c${++idSeq}`;
  private hasLock = false;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private lockRetry: ReturnType<typeof setInterval> | undefined;
  private focused = false;
  /** The store whose kept (not yet saved) value was looked up for this field. */
  private keptCheckedFor: RecordStore | undefined;

  constructor() {
    super();
    this.status = 'idle';
    this.message = '';
    this.lockedBy = '';
    this.data = [];
    this.addEventListener('focusin', () => {
      this.focused = true;
      void this.takeLock();
    });
    this.addEventListener('focusout', (e: FocusEvent) => {
      if (
        !this.shadowRoot?.contains(e.relatedTarget as Node | null) &&
        !this.contains(e.relatedTarget as Node | null)
      ) {
        this.focused = false;
        void this.releaseLock();
      }
    });
  }

  get tipo(): string {
    return this.context.tipo;
  }

  /** The item language: the data language for translatable components, else lg-nolan. */
  get itemLang(): string {
    return this.context.translatable === true ? this.store.lang : 'lg-nolan';
  }

  /** Where this field's unsaved value is kept (per user, record, component and language). */
  get fieldKey(): FieldKey {
    return {
      userId: this.store.session.userId,
      sectionTipo: this.store.sectionTipo,
      sectionId: this.store.sectionId,
      tipo: this.tipo,
      lang: this.itemLang,
    };
  }

  get label(): string {
    return String(this.context.label ?? this.tipo);
  }

  /** The ontology marks the component mandatory: the server refuses a save that empties it. */
  get mandatory(): boolean {
    return (this.context.properties as { mandatory?: unknown } | undefined)?.mandatory === true;
  }

  get readOnly(): boolean {
    return (this.context.permissions ?? 0) < 2 || this.lockedBy !== '';
  }

  get entries(): unknown[] {
    return this.item?.entries ?? [];
  }

  private async takeLock() {
    if (this.hasLock || (this.context.permissions ?? 0) < 2) return;
    const wasHeld = this.lockedBy !== '';
    this.applyLockState(await this.store.focus(this.tipo));
    // Someone else held the field: its value here is what it was before their edit. Show the
    // value saved now before this person types on it.
    if (wasHeld && this.hasLock) await this.refreshValue();
    if (!this.hasLock && this.lockRetry === undefined) {
      // Ask again while the focus stays here: the field opens (with their value) once released.
      this.lockRetry = setInterval(() => {
        if (this.hasLock || !this.focused) {
          clearInterval(this.lockRetry);
          this.lockRetry = undefined;
          return;
        }
        void this.takeLock();
      }, LOCK_RETRY_MS);
    }
    // A lock lapses 150 s after its last focus: renew it while the field keeps the focus. A
    // renewal refused (the page slept past the expiry and someone else took the field) makes
    // the field read-only with their name.
    if (this.hasLock && this.store.session.locksEnabled && this.heartbeat === undefined) {
      this.heartbeat = setInterval(async () => {
        const state = await this.store.focus(this.tipo);
        if (!state.locked) {
          clearInterval(this.heartbeat);
          this.heartbeat = undefined;
        }
        this.applyLockState(state);
      }, LOCK_HEARTBEAT_MS);
    }
  }

  private applyLockState(state: LockState) {
    this.hasLock = state.locked;
    this.lockedBy = state.locked ? '' : (state.message ?? t('someoneEditing'));
    if (state.locked) {
      clearInterval(this.lockRetry);
      this.lockRetry = undefined;
    }
  }

  /**
   * Reads this field's value (and version) afresh, unless this person has unsaved work in it;
   * `announce` tells a screen reader when another user's value came in.
   */
  protected async refreshValue(announce = true) {
    if (this.status === 'pending' || this.status === 'conflict' || pendingSaves.get(this.fieldKey)) return;
    try {
      const fresh = await this.store.readComponent(this.tipo, this.context.model, this.itemLang);
      if (fresh && JSON.stringify(fresh.entries) !== JSON.stringify(this.item?.entries ?? [])) {
        this.item = fresh;
        await this.resetInputs();
        if (announce) this.store.session.announce(t('refreshed', { label: this.label }));
      } else if (fresh) this.item = fresh;
    } catch {
      // Unreadable now: the save's version check still stops an overwrite.
    }
  }

  private async releaseLock() {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    clearInterval(this.lockRetry);
    this.lockRetry = undefined;
    if (!this.hasLock) return;
    this.hasLock = false;
    await this.store.blur(this.tipo);
  }

  override connectedCallback() {
    super.connectedCallback();
    pendingSaves.addEventListener('saved', this.onKeptSaved);
    pendingSaves.addEventListener('refused', this.onKeptRefused);
    componentSaved.addEventListener('saved', this.onSourceSaved);
  }

  override disconnectedCallback() {
    pendingSaves.removeEventListener('saved', this.onKeptSaved);
    pendingSaves.removeEventListener('refused', this.onKeptRefused);
    componentSaved.removeEventListener('saved', this.onSourceSaved);
    void this.releaseLock();
    super.disconnectedCallback();
  }

  override willUpdate(changed: Map<string, unknown>) {
    super.willUpdate(changed);
    // A value typed here before a reload (or while the server was away) and not saved yet: the
    // record screen put it in the field; say that it is not saved.
    if (this.store && this.context && this.store !== this.keptCheckedFor) {
      this.keptCheckedFor = this.store;
      const kept = pendingSaves.get(this.fieldKey);
      if (kept) {
        this.status = 'pending';
        this.message = t('restoredField');
      }
    }
  }

  /** The components this one is computed from (`properties.computed.from`), if any. */
  private get computedFrom(): readonly string[] {
    const from = (this.context?.properties as { computed?: { from?: unknown } } | undefined)?.computed?.from;
    return Array.isArray(from) ? from : [];
  }

  /** A component this one is computed from was saved in the same record: read the new value. */
  private onSourceSaved = (e: Event) => {
    const { sectionTipo, sectionId, tipo } = (e as CustomEvent<ComponentSavedDetail>).detail;
    if (!this.store || !this.context || !this.computedFrom.includes(tipo)) return;
    if (sectionTipo !== this.store.sectionTipo || sectionId !== this.store.sectionId) return;
    // The person's own save made the change they see: nothing to announce.
    void this.refreshValue(false);
  };

  /** The app's retry saved this field's kept value: show the echo. */
  private onKeptSaved = (e: Event) => {
    const { key, echo } = (e as CustomEvent<SavedDetail>).detail;
    if (!this.store || key !== pendingKeyOf(this.fieldKey)) return;
    // The record's items too: a later re-render of the record shows this saved value.
    this.store.keep(echo.data ?? []);
    announceSaved({ sectionTipo: this.store.sectionTipo, sectionId: this.store.sectionId, tipo: this.tipo });
    this.applyEcho(echo);
    this.status = 'saved';
    this.message = '';
  };

  private onKeptRefused = (e: Event) => {
    const { key, error, entry } = (e as CustomEvent<RefusedDetail>).detail;
    if (!this.store || key !== pendingKeyOf(this.fieldKey)) return;
    this.showRefusal(error, entry.changes);
  };

  private saveQueue: Promise<unknown> = Promise.resolve();

  /**
   * Runs `fn` once this field's earlier saves have answered. A change list built from the
   * current value (an insert when the field is empty, else an update of its item) must see the
   * echo of the save before it: two quick changes (leaving the text, then inserting a chip) would
   * otherwise both insert.
   */
  protected afterPendingSaves<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.saveQueue.then(fn, fn);
    this.saveQueue = run.catch(() => undefined);
    return run;
  }

  /** Subclasses whose inputs keep typed text put the item's values back in them. */
  protected async resetInputs(): Promise<void> {}

  /** Keeps what is being typed (not saved yet) so that a reload or a closed tab does not lose it. */
  protected keepDraft(changes: ChangeObject[]) {
    if (!keepable(this.context.model, changes)) return;
    pendingSaves.put(this.pendingEntry(changes, 'draft'));
  }

  /** Typing went back to the saved value: nothing is kept for the field. */
  protected dropDraft() {
    const kept = pendingSaves.get(this.fieldKey);
    if (kept?.state === 'draft') pendingSaves.remove(this.fieldKey);
  }

  private pendingEntry(changes: ChangeObject[], state: PendingSave['state'], version?: number): PendingSave {
    return {
      ...this.fieldKey,
      model: this.context.model,
      label: this.label,
      changes,
      version: version ?? (this.item?.version as number | undefined),
      pageLimit: this.item?.pagination?.limit,
      idempotencyKey: newIdempotencyKey(),
      state,
      seq: ++draftSeq,
    };
  }

  /**
   * Saves and takes the echo; answers false (with the message shown) when refused. The version
   * sent is the one the value was read (or last saved) with, or `version` (Keep mine: the
   * version the conflict named).
   */
  protected async save(changes: ChangeObject[], version?: number): Promise<boolean> {
    this.status = 'saving';
    this.message = '';
    this.conflict = undefined;
    this.duplicate = undefined;
    const entry = this.pendingEntry(changes, 'pending', version);
    try {
      const echo: ReadResult = await this.store.save(
        this.tipo,
        this.context.model,
        this.itemLang,
        changes,
        entry.pageLimit,
        entry.version,
        entry,
      );
      this.applyEcho(echo);
      this.status = 'saved';
      this.dispatchEvent(
        new CustomEvent(RECORD_WRITTEN, {
          bubbles: true,
          composed: true,
          detail: { sectionTipo: this.store.sectionTipo },
        }),
      );
      return true;
    } catch (err) {
      this.showRefusal(err, changes);
      return false;
    }
  }

  /** Shows why a save was refused (or did not reach the server) in the field. */
  private showRefusal(err: unknown, changes: ChangeObject[]) {
    if (isUnreachable(err) && keepable(this.context.model, changes)) {
      this.status = 'pending';
      this.message = t('pendingField');
      return;
    }
    if (err instanceof ApiError && err.code === 'record.stale_write') {
      this.status = 'conflict';
      this.message = '';
      this.conflict = conflictOf(err, changes);
      void this.updateComplete.then(() =>
        this.renderRoot.querySelector<HTMLElement>('.conflict-panel')?.focus({ preventScroll: false }),
      );
      return;
    }
    this.status = 'failed';
    this.message = err instanceof ApiError ? err.message : t('couldNotSave');
    if (err instanceof ApiError && err.code === 'record.mandatory_empty') {
      this.message = t('mandatoryEmpty', { label: this.label });
    }
    if (err instanceof ApiError && err.code === 'record.duplicate_value' && err.details) {
      const d = err.details as { section_tipo?: unknown; section_id?: unknown; value?: unknown };
      if (typeof d.section_tipo === 'string' && typeof d.section_id === 'number') {
        this.duplicate = {
          section_tipo: d.section_tipo,
          section_id: d.section_id,
          value: String(d.value ?? ''),
        };
        this.message = t('duplicateValue', { label: this.label, value: this.duplicate.value });
      }
    }
    if (err instanceof ApiError && err.code === 'record.in_use')
      this.applyLockState({ locked: false, message: lockHolderSentence(err) });
    if (err instanceof ApiError && err.code === 'auth.not_logged') {
      // The session ended while typing: keep the change to save it after the next login.
      keepUnsaved({
        sectionTipo: this.store.sectionTipo,
        sectionId: this.store.sectionId,
        tipo: this.tipo,
        model: this.context.model,
        lang: this.itemLang,
        label: this.label,
        userId: this.store.session.userId,
        changes,
        version: this.item?.version as number | undefined,
      });
      this.message = `${this.message} ${t('keptUntilLogin')}`;
      // The login replaces the record on screen: the app's message area (shown beside the
      // login form) says it there too.
      this.store.session.announce(t('keptUntilLoginLabel', { label: this.label }));
    }
    this.requestUpdate();
  }

  /** Keep mine: my value saved again, over the version the conflict named. */
  private async keepMine() {
    const c = this.conflict;
    if (!c) return;
    await this.save(c.mine, c.currentVersion);
  }

  /** Take theirs: the field shows the other value (and its version); nothing is saved. */
  private takeTheirs() {
    const c = this.conflict;
    if (!c) return;
    if (c.theirs) {
      this.item = c.theirs;
      this.store.keep([c.theirs]);
    }
    pendingSaves.remove(this.fieldKey);
    this.conflict = undefined;
    void this.resetInputs();
    this.status = 'idle';
    this.message = '';
    this.store.session.announce(t('tookTheirs', { label: this.label }));
  }

  /** The conflict: both values side by side, whose and when the newer one is, and the choice. */
  protected renderConflict(): TemplateResult | string {
    const c = this.conflict;
    if (!c) return '';
    const mine = itemText({
      ...(this.item ?? { tipo: this.tipo, section_tipo: this.store.sectionTipo }),
      entries: applyChanges(this.item?.entries ?? [], c.mine),
    });
    const theirs = itemText(c.theirs);
    const empty = html`<span class="muted">${t('empty')}</span>`;
    return html`<div class="conflict-panel" lang=${uiLang()} role="alertdialog" tabindex="-1" aria-modal="false"
        aria-labelledby="${this.uid}-conflict-title" aria-describedby="${this.uid}-conflict-body">
      <h3 id="${this.uid}-conflict-title">${t('conflictTitle', { label: this.label })}</h3>
      <p id="${this.uid}-conflict-body">${t('conflictBody', { who: c.who, when: c.when })}</p>
      <div class="both">
        <figure class="theirs"><figcaption>${t('theirs')} <span class="muted">(${t('theirsBy', { who: c.who, when: c.when })})</span></figcaption>
          <div class="value">${theirs || empty}</div></figure>
        <figure class="mine"><figcaption>${t('mine')} <span class="muted">(${t('mineWhat')})</span></figcaption>
          <div class="value">${mine || empty}</div></figure>
      </div>
      <div class="row">
        <button type="button" class="primary" @click=${this.keepMine}>${t('keepMine')}</button>
        <button type="button" @click=${this.takeTheirs}>${t('takeTheirs')}</button>
      </div>
    </div>`;
  }

  protected applyEcho(echo: ReadResult) {
    const own = echo.data.find(
      (d) => d.tipo === this.tipo && String(d.section_id) === String(this.store.sectionId),
    );
    if (own) this.item = own;
    // Portal targets' columns come with the echo: keep them beside the others.
    const others = echo.data.filter((d) => d !== own);
    if (others.length > 0) {
      const key = (d: DataItem) =>
        `${d.tipo}|${String(d.section_tipo)}|${d.section_id}|${d.parent_tipo ?? ''}`;
      const fresh = new Set(others.map(key));
      this.data = [...this.data.filter((d) => !fresh.has(key(d))), ...others];
    }
  }

  protected renderStatus(): TemplateResult {
    const text =
      this.status === 'saving'
        ? t('saving')
        : this.status === 'saved'
          ? t('saved')
          : this.status === 'failed'
            ? t('notSaved', { message: this.message })
            : this.status === 'pending'
              ? this.message
              : this.status === 'conflict'
                ? t('conflictStatus')
                : '';
    return html`<span class="status ${this.status}" lang=${uiLang()} role="status" aria-live="polite">${text}</span>`;
  }

  /** A mandatory component's inputs say so to assistive technology (the asterisk is visual). */
  override updated(changed: Map<string, unknown>) {
    super.updated(changed);
    for (const input of this.renderRoot.querySelectorAll('input, textarea, select')) {
      if (this.mandatory) input.setAttribute('aria-required', 'true');
      else input.removeAttribute('aria-required');
    }
  }

  /** The other record holding the value of a refused `unique` save: a link that opens it. */
  private renderDuplicate(): TemplateResult | string {
    const d = this.duplicate;
    if (!d || this.status !== 'failed') return '';
    const href = hrefOf({ name: 'edit', section: d.section_tipo, id: d.section_id });
    return html`<p class="refusal" lang=${uiLang()} role="alert">
      <a href=${href}>${t('openOther', { id: d.section_id })}</a>
    </p>`;
  }

  /** The label row (with the language of a translatable component) and the status. */
  protected frame(body: unknown, labelFor?: string): TemplateResult {
    const label = this.context.label as string;
    // Beside the label, not in it: the label stays the component's name (its inputs are named by
    // it); assistive technology learns "required" from aria-required on the inputs.
    const marker = this.mandatory
      ? html`<span class="required" aria-hidden="true" title=${t('required')}>*</span>`
      : '';
    return html`<div class="head">
        ${labelFor ? html`<label class="label" for=${labelFor}>${label}</label>` : html`<span class="label" id="${this.uid}-label">${label}</span>`}${marker}
        ${this.context.translatable === true ? html`<span class="lang" title=${t('dataLanguage')}>${this.itemLang}</span>` : ''}
        ${this.renderStatus()}
      </div>
      ${this.lockedBy ? html`<p class="locked" role="note">${this.lockedBy}</p>` : ''}
      ${this.renderConflict()}
      ${this.renderDuplicate()}
      ${body}`;
  }
}
