/**
 * The login form, built from the login context's `login_items` labels. Throttling (429) shows the
 * wait; an expired session shows why the form is back. On success the app re-opens the screen the
 * user was on.
 */
import { css, html, LitElement } from 'lit';
import { t } from '../api/i18n.js';
import { ApiError, type RqoClient } from '../api/rqo-client.js';
import { baseStyles } from './styles.js';

interface LoginItem {
  type: string;
  label: string;
}

export class DdLogin extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: grid; place-items: center; min-height: 80vh; }
      form { width: min(24rem, 92vw); display: grid; gap: 0.75rem; background: var(--paper);
        border: 1px solid var(--line); border-radius: 8px; padding: 1.5rem; }
      h1 { margin: 0; font-size: 1.4rem; }
      label { display: grid; gap: 0.25rem; font-weight: 600; }
    `,
  ];
  static override properties = {
    api: { attribute: false },
    items: { attribute: false },
    reason: {},
    error: { state: true },
    busy: { state: true },
  };
  declare api: RqoClient;
  declare items: LoginItem[];
  declare reason: string;
  declare error: string;
  declare busy: boolean;

  constructor() {
    super();
    this.items = [];
    this.reason = '';
    this.error = '';
    this.busy = false;
  }

  private async submit(e: Event) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    this.busy = true;
    this.error = '';
    try {
      const answer = await this.api.call({
        dd_api: 'dd_utils_api',
        action: 'login',
        options: { username: String(data.get('username') ?? ''), auth: String(data.get('password') ?? '') },
      });
      this.dispatchEvent(
        new CustomEvent('logged-in', {
          detail: { userId: answer.envelope.user_id },
          bubbles: true,
          composed: true,
        }),
      );
    } catch (err) {
      this.error = err instanceof ApiError ? err.message : t('loginFailed');
      (form.elements.namedItem('password') as HTMLInputElement | null)?.select();
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`<form @submit=${this.submit} aria-labelledby="login-title">
      <h1 id="login-title">${t('loginTitle')}</h1>
      ${this.reason ? html`<p class="notice" role="status">${this.reason}</p>` : ''}
      <label>${t('user')}
        <input name="username" autocomplete="username" required autofocus />
      </label>
      <label>${t('password')}
        <input name="password" type="password" autocomplete="current-password" required />
      </label>
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : ''}
      <button class="primary" type="submit" ?disabled=${this.busy}>${t('enter')}</button>
    </form>`;
  }
}
customElements.define('dd-login', DdLogin);
