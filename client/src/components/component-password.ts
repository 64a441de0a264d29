/**
 * component_password: never shown (the server never sends it); a new one is typed twice and saved
 * on "Set password". The server hashes it with Argon2id and refuses one under 8 characters.
 */

import { html } from 'lit';
import { t } from '../api/i18n.js';
import { ComponentBase } from './component-base.js';

export class ComponentPassword extends ComponentBase {
  private async submit(e: Event) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const first = (form.elements.namedItem('first') as HTMLInputElement).value;
    const second = (form.elements.namedItem('second') as HTMLInputElement).value;
    if (first !== second) {
      this.status = 'failed';
      this.message = t('passwordsDiffer');
      return;
    }
    if (
      await this.save([{ action: 'insert', id: null, value: { id: null, lang: 'lg-nolan', value: first } }])
    )
      form.reset();
  }

  override render() {
    if (this.readOnly) return this.frame(html`<p class="muted">${t('passwordSet')}</p>`);
    return this.frame(
      html`<form class="row" @submit=${this.submit}>
        <input id="${this.uid}-p1" name="first" type="password" autocomplete="new-password" aria-label=${t('newPassword')} required minlength="8" />
        <input name="second" type="password" autocomplete="new-password" aria-label=${t('repeatPassword')} required minlength="8" />
        <button type="submit">${t('setPassword')}</button>
      </form>`,
    );
  }
}
customElements.define('component-password', ComponentPassword);
