/**
 * The app's confirmation dialog (instead of `window.confirm`, which cannot be styled, names no
 * consequences and blocks the page): a modal `<dialog>` with a heading that asks the question,
 * `body`, the explanation of what will happen (and any choices, such as the delete modes, as
 * form fields), a confirm button named for the action and Cancel. `ask()` opens it and resolves
 * with the form's values when the user confirms, `undefined` on Cancel or Escape; the browser
 * returns focus to where it was. The body is rendered inside the dialog (not slotted), so it is
 * part of the dialog for assistive technology and for the form.
 */
import { css, html, LitElement, type TemplateResult } from 'lit';
import { t } from '../api/i18n.js';
import { baseStyles } from './styles.js';

export class DdConfirmDialog extends LitElement {
  static override styles = [
    baseStyles,
    css`
      dialog { border: 1px solid var(--line); border-radius: 8px; max-width: 34rem; padding: 1rem 1.25rem; }
      dialog::backdrop { background: rgb(0 0 0 / 35%); }
      h2 { margin: 0 0 0.6rem; font-size: 1.15rem; }
      .actions { margin-top: 1rem; }
      fieldset { border: 0; padding: 0; margin: 0; display: grid; gap: 0.5rem; }
      legend { font-weight: 600; margin-bottom: 0.25rem; }
      p { margin: 0; }
    `,
  ];
  static override properties = {
    heading: {},
    body: { attribute: false },
    confirmLabel: { attribute: 'confirm-label' },
    danger: { type: Boolean },
    showing: { state: true },
  };
  declare heading: string;
  declare body: TemplateResult | string;
  declare confirmLabel: string;
  declare danger: boolean;
  /** The content is in the page only while the dialog is open (no hidden duplicate text). */
  declare showing: boolean;
  private settle: ((answer: FormData | undefined) => void) | undefined;

  constructor() {
    super();
    this.heading = '';
    this.body = '';
    this.confirmLabel = '';
    this.danger = false;
    this.showing = false;
  }

  private get dialog(): HTMLDialogElement {
    return this.renderRoot.querySelector('dialog')!;
  }

  /** Opens the dialog; resolves with the form's values on confirm, `undefined` otherwise. */
  async ask(): Promise<FormData | undefined> {
    this.settle?.(undefined);
    this.showing = true;
    await this.updateComplete;
    this.dialog.showModal();
    return new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  private finish(answer: FormData | undefined) {
    const settle = this.settle;
    this.settle = undefined;
    if (this.dialog.open) this.dialog.close();
    this.showing = false;
    settle?.(answer);
  }

  override render() {
    return html`<dialog aria-labelledby="confirm-title" @close=${() => this.finish(undefined)}>
      ${
        this.showing
          ? html`<form @submit=${(e: Event) => {
              e.preventDefault();
              this.finish(new FormData(e.target as HTMLFormElement));
            }}>
              <h2 id="confirm-title">${this.heading}</h2>
              ${this.body}
              <div class="row actions">
                <button type="submit" class=${this.danger ? 'danger' : 'primary'}>${this.confirmLabel || t('confirm')}</button>
                <button type="button" @click=${() => this.finish(undefined)}>${t('cancel')}</button>
              </div>
            </form>`
          : ''
      }
    </dialog>`;
  }
}
customElements.define('dd-confirm-dialog', DdConfirmDialog);
