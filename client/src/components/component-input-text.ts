/**
 * component_input_text (and component_email): one text field per value; changing a field saves
 * `update` by the item's id (an emptied field `remove`s it), the empty field at the end `insert`s.
 * A component whose ontology properties list `choices` (the ontology's model and date-mode
 * fields) is one drop-down of those values instead.
 */
import { html } from 'lit';
import { t } from '../api/i18n.js';
import { ComponentBase } from './component-base.js';
import type { ChangeObject } from './record-store.js';

interface TextItem {
  id: number;
  lang: string;
  value: string;
}

export class ComponentInputText extends ComponentBase {
  static override properties = { ...ComponentBase.properties, adding: { state: true } };
  declare adding: boolean;
  protected inputType = 'text';

  constructor() {
    super();
    this.adding = false;
  }

  /** The change list that makes `entry` (undefined: a new value) hold `value`; none when equal. */
  private changesFor(entry: TextItem | undefined, value: string): ChangeObject[] | undefined {
    if (entry) {
      if (value === entry.value) return undefined;
      return value.trim() === ''
        ? [{ action: 'remove', id: entry.id, value: null }]
        : [{ action: 'update', id: entry.id, value: { id: entry.id, lang: this.itemLang, value } }];
    }
    if (value.trim() === '') return undefined;
    return [{ action: 'insert', id: null, value: { id: null, lang: this.itemLang, value } }];
  }

  /**
   * Typing makes the last "Saved" stale: the indicator speaks again when this change is saved.
   * What is typed is kept in the tab until it is saved (a reload or a closed tab keeps it).
   */
  private editing(entry: TextItem | undefined, input: HTMLInputElement) {
    this.typedIn.add(input.id);
    if (this.status === 'saved') this.status = 'idle';
    const changes = this.changesFor(entry, input.value);
    if (changes) this.keepDraft(changes);
    else this.dropDraft();
  }

  /** Inputs typed in since their last change was taken for saving (by element id). */
  private readonly typedIn = new Set<string>();

  /** What was in the inputs typed in, before a render (an echo may set their value). */
  private typedBefore = new Map<string, { value: string; start: number | null; end: number | null }>();

  override willUpdate(changed: Map<string, unknown>) {
    super.willUpdate(changed);
    this.typedBefore.clear();
    for (const id of this.typedIn) {
      const input = this.renderRoot?.querySelector<HTMLInputElement>(`#${id}`);
      if (input)
        this.typedBefore.set(id, {
          value: input.value,
          start: input.selectionStart,
          end: input.selectionEnd,
        });
    }
  }

  /**
   * An earlier save's echo must not replace what the person typed since (Shift+Tab back into
   * the field while it was saving): their text, and caret, are put back.
   */
  override updated(changed: Map<string, unknown>) {
    super.updated(changed);
    for (const [id, was] of this.typedBefore) {
      const input = this.renderRoot.querySelector<HTMLInputElement>(`#${id}`);
      if (!input || input.value === was.value) continue;
      input.value = was.value;
      if (was.start !== null && was.end !== null) input.setSelectionRange(was.start, was.end);
    }
  }

  private async changed(entry: TextItem | undefined, input: HTMLInputElement) {
    this.typedIn.delete(input.id);
    const value = input.value;
    if (entry) {
      const changes = this.changesFor(entry, value);
      if (!changes) {
        // Back to the stored value (after a refusal, say): nothing to save, nothing pending.
        if (this.status === 'failed') this.status = 'idle';
        this.dropDraft();
        return;
      }
      await this.save(changes);
    } else {
      if (value.trim() === '') return;
      if (
        await this.save([{ action: 'insert', id: null, value: { id: null, lang: this.itemLang, value } }])
      ) {
        input.value = '';
        this.adding = false;
      }
    }
  }

  /** The inputs show the item's values again (what someone else saved replaces the typing). */
  protected override async resetInputs() {
    await this.updateComplete;
    this.typedIn.clear();
    const items = this.entries as TextItem[];
    this.renderRoot.querySelectorAll<HTMLInputElement>('input.text').forEach((input, i) => {
      input.value = items[i]?.value ?? '';
    });
  }

  /** `properties.choices`: the only values this field takes. */
  private get choices(): string[] | undefined {
    const choices = (this.context.properties as { choices?: unknown } | undefined)?.choices;
    return Array.isArray(choices) ? choices.filter((c): c is string => typeof c === 'string') : undefined;
  }

  private renderChoices(choices: string[]) {
    const entry = (this.entries as TextItem[])[0];
    const current = entry?.value ?? '';
    const id = `${this.uid}-0`;
    // A stored value outside the list (an imported node) is shown as it is.
    const options = current !== '' && !choices.includes(current) ? [current, ...choices] : choices;
    return this.frame(
      html`<select id=${id} ?disabled=${this.readOnly} @change=${async (e: Event) => {
        const changes = this.changesFor(entry, (e.target as HTMLSelectElement).value);
        if (changes) await this.save(changes);
      }}>
        <option value="" ?selected=${current === ''}>${t('choose')}</option>
        ${options.map((c) => html`<option value=${c} ?selected=${c === current}>${c}</option>`)}
      </select>`,
      id,
    );
  }

  override render() {
    const choices = this.choices;
    if (choices) return this.renderChoices(choices);
    const items = this.entries as TextItem[];
    const showBlank = items.length === 0 || this.adding;
    const fieldId = `${this.uid}-0`;
    return this.frame(
      html`<div class="values">
        ${items.map(
          (
            entry,
            i,
          ) => html`<input class="text" id="${this.uid}-${i}" type=${this.inputType} .value=${entry.value ?? ''}
            aria-label=${i === 0 ? (this.context.label as string) : `${this.context.label} ${i + 1}`}
            ?readonly=${this.readOnly} @input=${(e: Event) => this.editing(entry, e.target as HTMLInputElement)} @change=${(e: Event) => this.changed(entry, e.target as HTMLInputElement)} />`,
        )}
        ${
          // An empty field stays visible (read-only when locked or not writable).
          (showBlank && !this.readOnly) || items.length === 0
            ? html`<input class="text" id="${this.uid}-${items.length}" type=${this.inputType}
              aria-label=${items.length === 0 ? (this.context.label as string) : t('newValueOf', { label: this.context.label as string })}
              ?readonly=${this.readOnly} @input=${(e: Event) => this.editing(undefined, e.target as HTMLInputElement)} @change=${(e: Event) => this.changed(undefined, e.target as HTMLInputElement)} />`
            : ''
        }
        ${
          !showBlank && !this.readOnly
            ? html`<div><button type="button" @click=${() => {
                this.adding = true;
              }}>${t('addValueTo', { label: this.context.label as string })}</button></div>`
            : ''
        }
      </div>`,
      fieldId,
    );
  }
}
customElements.define('component-input-text', ComponentInputText);

export class ComponentEmail extends ComponentInputText {
  constructor() {
    super();
    this.inputType = 'email';
  }
}
customElements.define('component-email', ComponentEmail);
