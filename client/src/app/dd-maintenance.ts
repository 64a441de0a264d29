/**
 * The maintenance page (global administrators): the counters widget (`get_widget_value` of
 * counters_status, with "fix" through `widget_request` / `modify_counter`), the users currently
 * holding component locks (`lock_components_actions` / `get_active_users`, with force unlock) .
 * Each block asks the server; a block whose action the server does not offer says so instead.
 */
import { css, html, LitElement } from 'lit';
import { ApiError } from '../api/rqo-client.js';
import type { Session } from './session.js';
import { baseStyles } from './styles.js';

interface CounterRow {
  section_tipo: string;
  label?: string;
  counter_value?: number;
  last_section_id?: number;
}

interface LockRow {
  user_id: number;
  full_username?: string;
  section_tipo: string;
  section_id: number;
  component_tipo: string;
  date?: string;
}

type Block<T> =
  | { state: 'loading' }
  | { state: 'ok'; rows: T[] }
  | { state: 'absent' | 'error'; message: string };

const API = 'dd_area_maintenance_api';

export class DdMaintenance extends LitElement {
  static override styles = [
    baseStyles,
    css`:host { display: block; } section { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; margin-bottom: 1rem; } h2 { margin-top: 0; font-size: 1.15rem; }`,
  ];
  static override properties = {
    session: { attribute: false },
    counters: { state: true },
    locks: { state: true },
  };
  declare session: Session;
  declare counters: Block<CounterRow>;
  declare locks: Block<LockRow>;

  constructor() {
    super();
    this.counters = { state: 'loading' };
    this.locks = { state: 'loading' };
  }

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private failure<T>(err: unknown): Block<T> {
    if (
      err instanceof ApiError &&
      (err.code === 'request.unknown_action' ||
        err.code === 'request.unknown_api' ||
        err.code === 'rqo.invalid_field')
    ) {
      return { state: 'absent', message: 'This server does not offer this widget yet.' };
    }
    return {
      state: 'error',
      message: err instanceof ApiError ? err.message : 'The widget could not be read.',
    };
  }

  async load() {
    const api = this.session.api;
    try {
      const a = await api.call<{ datalist?: CounterRow[] } | CounterRow[]>({
        dd_api: API,
        action: 'get_widget_value',
        source: { model: 'counters_status' },
      });
      const rows = Array.isArray(a.data) ? a.data : (a.data?.datalist ?? []);
      this.counters = { state: 'ok', rows };
    } catch (err) {
      this.counters = this.failure(err);
    }
    try {
      const a = await api.call<LockRow[] | { ar_user_actions?: LockRow[] }>({
        dd_api: API,
        action: 'lock_components_actions',
        options: { fn_action: 'get_active_users' },
      });
      const rows = Array.isArray(a.data) ? a.data : (a.data?.ar_user_actions ?? []);
      this.locks = { state: 'ok', rows };
    } catch (err) {
      this.locks = this.failure(err);
    }
  }

  private async fixCounter(row: CounterRow) {
    try {
      await this.session.api.call({
        dd_api: API,
        action: 'widget_request',
        source: { model: 'counters_status', action: 'modify_counter' },
        options: { section_tipo: row.section_tipo, counter_action: 'fix' },
      });
      this.session.announce(`Counter of ${row.label ?? row.section_tipo} fixed.`);
      await this.load();
    } catch (err) {
      this.session.announce(
        err instanceof ApiError ? err.message : 'The counter could not be fixed.',
        'error',
      );
    }
  }

  private async unlockAll() {
    try {
      await this.session.api.call({
        dd_api: API,
        action: 'lock_components_actions',
        options: { fn_action: 'force_unlock_all_components' },
      });
      this.session.announce('Every component lock was released.');
      await this.load();
    } catch (err) {
      this.session.announce(
        err instanceof ApiError ? err.message : 'The locks could not be released.',
        'error',
      );
    }
  }

  private blockMessage(b: Block<unknown>) {
    if (b.state === 'loading') return html`<p class="muted">Loading…</p>`;
    if (b.state === 'absent') return html`<p class="notice">${b.message}</p>`;
    if (b.state === 'error') return html`<p class="alert">${b.message}</p>`;
    return undefined;
  }

  override render() {
    const c = this.counters;
    const l = this.locks;
    return html`<h1>Maintenance</h1>
      <section aria-labelledby="counters-h"><h2 id="counters-h">Counters</h2>
        ${
          this.blockMessage(c) ??
          html`<table><thead><tr><th scope="col">Section</th><th scope="col">Counter</th><th scope="col">Highest id</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>${(c as { rows: CounterRow[] }).rows.map(
            (
              r,
            ) => html`<tr><td>${r.label ?? r.section_tipo} <span class="muted">${r.section_tipo}</span></td><td>${r.counter_value ?? ''}</td><td>${r.last_section_id ?? ''}</td>
              <td>${r.counter_value !== r.last_section_id ? html`<button type="button" @click=${() => this.fixCounter(r)}>Fix ${r.label ?? r.section_tipo}</button>` : ''}</td></tr>`,
          )}</tbody></table>`
        }
      </section>
      <section aria-labelledby="locks-h"><h2 id="locks-h">Fields being edited (locks)</h2>
        ${
          this.blockMessage(l) ??
          html`${
            (l as { rows: LockRow[] }).rows.length === 0
              ? html`<p class="muted">Nobody is editing a field now.</p>`
              : html`<table>
            <thead><tr><th scope="col">User</th><th scope="col">Record</th><th scope="col">Field</th><th scope="col">Since</th></tr></thead>
            <tbody>${(l as { rows: LockRow[] }).rows.map((r) => html`<tr><td>${r.full_username ?? r.user_id}</td><td>${r.section_tipo} ${r.section_id}</td><td>${r.component_tipo}</td><td>${r.date ?? ''}</td></tr>`)}</tbody></table>`
          }
          <button type="button" class="danger" @click=${this.unlockAll}>Release every lock</button>`
        }
      </section>
      <section aria-labelledby="sessions-h"><h2 id="sessions-h">Users and profiles</h2>
        <p>Users, profiles (their access grid) and projects are edited in their sections:
          <a href="#/list/dd128">Users</a>, <a href="#/list/dd234">Profiles</a>, <a href="#/list/dd153">Projects</a>;
          the activity log in <a href="#/list/dd542">Activity</a>.</p>
      </section>`;
  }
}
customElements.define('dd-maintenance', DdMaintenance);
