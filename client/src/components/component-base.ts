/**
 * The common part of every component element (one custom element per ontology model, named after
 * it: component_input_text -> <component-input-text>): the label, the saving / saved / failed
 * indicator with the server's message on refusal, saving a change list and taking the server's
 * echo as the new value, and the lock on focus / release on blur.
 */
import { css, html, LitElement, type TemplateResult } from 'lit';
import type { ContextEntry, DataItem, ReadResult } from '../api/read-shapes.js';
import { ApiError } from '../api/rqo-client.js';
import { baseStyles } from '../app/styles.js';
import { type ChangeObject, type LockState, lockHolderSentence, type RecordStore } from './record-store.js';
import { keepUnsaved } from './unsaved-changes.js';

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'failed';

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
      .values { display: grid; gap: 0.35rem; }
      input.text { width: min(40rem, 100%); }
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
  };
  declare context: ContextEntry;
  declare item: DataItem | undefined;
  /** Every data item of the read (portals find their targets' columns here). */
  declare data: DataItem[];
  declare store: RecordStore;
  declare status: SaveStatus;
  declare message: string;
  declare lockedBy: string;
  /** A unique id prefix for label/for pairs inside this element. */
  protected readonly uid = `c${++idSeq}`;
  private hasLock = false;
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.status = 'idle';
    this.message = '';
    this.lockedBy = '';
    this.data = [];
    this.addEventListener('focusin', () => void this.takeLock());
    this.addEventListener('focusout', (e: FocusEvent) => {
      if (
        !this.shadowRoot?.contains(e.relatedTarget as Node | null) &&
        !this.contains(e.relatedTarget as Node | null)
      ) {
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

  get readOnly(): boolean {
    return (this.context.permissions ?? 0) < 2 || this.lockedBy !== '';
  }

  get entries(): unknown[] {
    return this.item?.entries ?? [];
  }

  private async takeLock() {
    if (this.hasLock || (this.context.permissions ?? 0) < 2) return;
    this.applyLockState(await this.store.focus(this.tipo));
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
    this.lockedBy = state.locked ? '' : (state.message ?? 'Another user is editing this field.');
  }

  private async releaseLock() {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (!this.hasLock) return;
    this.hasLock = false;
    await this.store.blur(this.tipo);
  }

  override disconnectedCallback() {
    void this.releaseLock();
    super.disconnectedCallback();
  }

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

  /** Saves and takes the echo; answers false (with the message shown) when refused. */
  protected async save(changes: ChangeObject[]): Promise<boolean> {
    this.status = 'saving';
    this.message = '';
    try {
      const echo: ReadResult = await this.store.save(
        this.tipo,
        this.context.model,
        this.itemLang,
        changes,
        this.item?.pagination?.limit,
      );
      this.applyEcho(echo);
      this.status = 'saved';
      return true;
    } catch (err) {
      this.status = 'failed';
      this.message = err instanceof ApiError ? err.message : 'The value could not be saved.';
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
          label: String(this.context.label ?? this.tipo),
          userId: this.store.session.userId,
          changes,
        });
        this.message = `${this.message} What you typed is kept and saved when you log in again.`;
        // The login replaces the record on screen: the app's message area (shown beside the
        // login form) says it there too.
        this.store.session.announce(
          `${String(this.context.label ?? this.tipo)}: what you typed is kept and will be saved when you log in again.`,
        );
      }
      this.requestUpdate();
      return false;
    }
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
        ? 'Saving…'
        : this.status === 'saved'
          ? 'Saved'
          : this.status === 'failed'
            ? `Not saved: ${this.message}`
            : '';
    return html`<span class="status ${this.status}" role="status" aria-live="polite">${text}</span>`;
  }

  /** The label row (with the language of a translatable component) and the status. */
  protected frame(body: unknown, labelFor?: string): TemplateResult {
    const label = this.context.label as string;
    return html`<div class="head">
        ${labelFor ? html`<label class="label" for=${labelFor}>${label}</label>` : html`<span class="label" id="${this.uid}-label">${label}</span>`}
        ${this.context.translatable === true ? html`<span class="lang" title="Data language">${this.itemLang}</span>` : ''}
        ${this.renderStatus()}
      </div>
      ${this.lockedBy ? html`<p class="locked" role="note">${this.lockedBy}</p>` : ''}
      ${body}`;
  }
}
