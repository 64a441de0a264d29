/**
 * The maintenance page, one block per widget of `dd_area_maintenance_api` (docs/work-api.md,
 * "Maintenance widgets"): counters (`get_widget_value` of counters_status; "Fix" / "Reset" through
 * `widget_request` `modify_counter`), system status, sessions and login locks (`end_session`,
 * `unlock_login`; global administrators), the sweep (`run`), and the fields being edited
 * (`lock_components_actions` `get_active_users`, "Release every lock"). Each block asks the server
 * on its own; a block the server refuses or does not offer says so instead, and the others work.
 */
import { css, html, LitElement } from 'lit';
import { ApiError } from '../api/rqo-client.js';
import type { Session } from './session.js';
import { baseStyles } from './styles.js';

interface CounterRow {
  section_tipo: string;
  label?: string;
  /** null: no counter yet (new or reset section); the next record takes last_section_id + 1. */
  counter_value?: number | null;
  last_section_id?: number;
  out_of_step?: boolean;
}

interface SessionRow {
  session_id: string;
  user_id: number;
  username: string | null;
  full_username: string | null;
  created_at: string;
  last_seen_at: string;
  current: boolean;
}

interface LoginLockRow {
  scope: 'pair' | 'address' | 'username' | 'device';
  username: string | null;
  address: string | null;
  failures: number;
  retry_after_seconds: number;
}

interface SessionsValue {
  sessions: SessionRow[];
  login_locks: LoginLockRow[];
}

interface SweepValue {
  interval_seconds?: number;
  last_run?: {
    ran_at: string;
    trigger: string;
    purged: Record<string, number>;
    failed: Record<string, string>;
  } | null;
}

type Row = Record<string, unknown>;

/** A moment as the reader's local date and time. */
const when = (iso: string) => new Date(iso).toLocaleString();

/** 3725 -> "1 h 2 min": how long, in words a person reads at a glance. */
export function duration(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const parts = [d ? `${d} d` : '', h ? `${h} h` : '', m ? `${m} min` : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : `${Math.floor(seconds)} s`;
}

const words = (key: string) => key.replaceAll('_', ' ');

type Block<T> =
  | { state: 'loading' }
  | { state: 'ok'; value: T }
  | { state: 'absent' | 'error'; message: string };

const API = 'dd_area_maintenance_api';

/** A cell's words: never JSON on screen. */
export function plainValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.every((x) => typeof x !== 'object') ? v.join(', ') : `${v.length} items`;
  return Object.entries(v as Row)
    .filter(([, x]) => typeof x !== 'object' || x === null)
    .map(([k, x]) => `${k.replaceAll('_', ' ')}: ${String(x)}`)
    .join('; ');
}

function rowsOf(data: unknown, ...keys: string[]): Row[] {
  if (Array.isArray(data)) return data as Row[];
  for (const k of keys) {
    const v = (data as Row | null)?.[k];
    if (Array.isArray(v)) return v as Row[];
  }
  return [];
}

export class DdMaintenance extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; }
      /* The same title size and spacing as the list and record screens. */
      h1 { margin: 0 0 0.75rem; font-size: 1.5rem; }
      section { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; margin-bottom: 1rem; overflow-x: auto; }
      h2 { margin-top: 0; font-size: 1.15rem; }
      dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0; }
      dt { font-weight: 600; }
    `,
  ];
  static override properties = {
    session: { attribute: false },
    counters: { state: true },
    status: { state: true },
    sessions: { state: true },
    sweep: { state: true },
    locks: { state: true },
  };
  declare session: Session;
  declare counters: Block<CounterRow[]>;
  declare status: Block<Row>;
  declare sessions: Block<SessionsValue>;
  declare sweep: Block<SweepValue>;
  declare locks: Block<Row[]>;

  constructor() {
    super();
    this.counters = { state: 'loading' };
    this.status = { state: 'loading' };
    this.sessions = { state: 'loading' };
    this.sweep = { state: 'loading' };
    this.locks = { state: 'loading' };
  }

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private failure<T>(err: unknown): Block<T> {
    if (
      err instanceof ApiError &&
      (err.code === 'request.unknown_action' || err.code === 'request.unknown_api' || err.status === 404)
    ) {
      return { state: 'absent', message: 'This server does not offer this widget yet.' };
    }
    if (err instanceof ApiError && err.code === 'perm.global_admin_required') {
      return { state: 'absent', message: 'Only a global administrator sees and changes this.' };
    }
    return {
      state: 'error',
      message: err instanceof ApiError ? err.message : 'The widget could not be read.',
    };
  }

  private async widget(model: string): Promise<unknown> {
    const answer = await this.session.api.call({
      dd_api: API,
      action: 'get_widget_value',
      source: { model },
    });
    return answer.data;
  }

  async load() {
    const [counters, status, sessions, sweep] = await Promise.allSettled([
      this.widget('counters_status'),
      this.widget('system_status'),
      this.widget('sessions'),
      this.widget('sweep'),
    ]);
    this.counters =
      counters.status === 'fulfilled'
        ? { state: 'ok', value: rowsOf(counters.value, 'datalist', 'counters') as unknown as CounterRow[] }
        : this.failure(counters.reason);
    this.status =
      status.status === 'fulfilled'
        ? { state: 'ok', value: (status.value ?? {}) as Row }
        : this.failure(status.reason);
    this.sessions =
      sessions.status === 'fulfilled'
        ? {
            state: 'ok',
            value: {
              sessions: rowsOf(sessions.value, 'sessions') as unknown as SessionRow[],
              login_locks: rowsOf(sessions.value, 'login_locks') as unknown as LoginLockRow[],
            },
          }
        : this.failure(sessions.reason);
    this.sweep =
      sweep.status === 'fulfilled'
        ? { state: 'ok', value: (sweep.value ?? {}) as SweepValue }
        : this.failure(sweep.reason);
    try {
      const a = await this.session.api.call({
        dd_api: API,
        action: 'lock_components_actions',
        options: { fn_action: 'get_active_users' },
      });
      this.locks = { state: 'ok', value: rowsOf(a.data, 'ar_user_actions') };
    } catch (err) {
      this.locks = this.failure(err);
    }
  }

  /**
   * A widget method; `done` is said when it succeeds (a function of the answer's data when the
   * answer has something to tell), then every block is read again.
   */
  private async request(
    model: string,
    action: string,
    options: Row,
    done: string | ((data: unknown) => string),
  ) {
    try {
      const answer = await this.session.api.call({
        dd_api: API,
        action: 'widget_request',
        source: { model, action },
        options,
      });
      this.session.announce(typeof done === 'string' ? done : done(answer.data));
      await this.load();
    } catch (err) {
      this.session.announce(
        err instanceof ApiError ? err.message : 'The maintenance action failed.',
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

  /** get_active_users rows: who holds which field of which record, since when, until when. */
  private renderLocks(rows: Row[]) {
    if (rows.length === 0) return html`<p class="muted">Nobody is editing a field now.</p>`;
    const time = (v: unknown) => {
      const d = typeof v === 'string' ? new Date(v) : undefined;
      return d && !Number.isNaN(d.getTime()) ? d.toLocaleString() : plainValue(v);
    };
    return html`<table>
      <thead><tr><th scope="col">User</th><th scope="col">Record</th><th scope="col">Field</th><th scope="col">Since</th><th scope="col">Lapses at</th></tr></thead>
      <tbody>${rows.map((r) => {
        const who = r.full_username ?? r.username ?? `user ${plainValue(r.user_id)}`;
        const record = `${plainValue(r.section_label ?? r.section_tipo)} ${plainValue(r.section_id)}`;
        return html`<tr><td>${plainValue(who)}${r.username && r.full_username ? html` <span class="muted">${plainValue(r.username)}</span>` : ''}</td>
          <td><a href="#/edit/${plainValue(r.section_tipo)}/${plainValue(r.section_id)}">${record}</a></td>
          <td>${plainValue(r.component_label ?? r.component_tipo)} <span class="muted">${plainValue(r.component_tipo)}</span></td>
          <td>${time(r.date)}</td><td>${time(r.expires_at)}</td></tr>`;
      })}</tbody></table>`;
  }

  private renderCounters() {
    const c = this.counters;
    if (c.state !== 'ok') return this.blockMessage(c);
    return html`<table>
      <thead><tr><th scope="col">Section</th><th scope="col">Counter</th><th scope="col">Highest id</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>${c.value.map((r) => {
        const name = r.label ?? r.section_tipo;
        const drift = r.out_of_step ?? (r.counter_value ?? 0) < (r.last_section_id ?? 0);
        return html`<tr><td>${name} <span class="muted">${r.section_tipo}</span></td><td>${r.counter_value ?? html`<span class="muted">none (next: ${(r.last_section_id ?? 0) + 1})</span>`}${drift ? html` <strong class="error">out of step</strong>` : ''}</td><td>${r.last_section_id ?? ''}</td>
          <td class="row">
            ${drift ? html`<button type="button" @click=${() => this.request('counters_status', 'modify_counter', { section_tipo: r.section_tipo, counter_action: 'fix' }, `Counter of ${name} fixed.`)}>Fix ${name}</button>` : ''}
            <button type="button" @click=${() => this.request('counters_status', 'modify_counter', { section_tipo: r.section_tipo, counter_action: 'reset' }, `Counter of ${name} reset.`)}>Reset ${name}</button>
          </td></tr>`;
      })}</tbody></table>`;
  }

  private renderStatus(v: Row) {
    const known: [string, unknown][] = [
      ['Version', v.version],
      ['Database', v.database_engine],
      [
        'Database size',
        typeof v.database_size_bytes === 'number'
          ? `${(v.database_size_bytes / 1048576).toFixed(1)} MB`
          : undefined,
      ],
      ['Schema version', v.schema_version],
      ['Migrations applied', Array.isArray(v.migrations) ? v.migrations.length : undefined],
      ['Active sessions', v.active_sessions],
      ['Up for', typeof v.uptime_seconds === 'number' ? duration(v.uptime_seconds) : undefined],
      ['Node.js', v.node_version],
    ];
    const shown = new Set([
      'version',
      'database_engine',
      'database_size_bytes',
      'schema_version',
      'migrations',
      'active_sessions',
      'uptime_seconds',
      'started_at',
      'node_version',
    ]);
    const rest = Object.entries(v).filter(([k]) => !shown.has(k));
    return html`<dl>${known
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => html`<dt>${k}</dt><dd>${plainValue(x)}</dd>`)}${rest.map(
      ([k, x]) => html`<dt>${words(k)}</dt><dd>${plainValue(x)}</dd>`,
    )}</dl>`;
  }

  private renderSessions(v: SessionsValue) {
    const who = (r: { username: string | null; full_username?: string | null; user_id?: number }) =>
      r.username ?? r.full_username ?? `user ${r.user_id}`;
    const lockTarget = (l: LoginLockRow): Row =>
      l.scope === 'address'
        ? { address: l.address }
        : l.scope === 'pair'
          ? { username: l.username, address: l.address }
          : { username: l.username };
    const lockName = (l: LoginLockRow) =>
      l.scope === 'address'
        ? `address ${l.address}`
        : l.scope === 'pair'
          ? `${l.username} from ${l.address}`
          : l.scope === 'device'
            ? `${l.username} on one trusted browser`
            : `${l.username} from new addresses`;
    return html`${
      v.sessions.length === 0
        ? html`<p class="muted">No open sessions.</p>`
        : html`<table>
          <thead><tr><th scope="col">User</th><th scope="col">Full name</th><th scope="col">Logged in</th><th scope="col">Last seen</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>${v.sessions.map(
            (
              r,
            ) => html`<tr><td>${who(r)}</td><td>${r.full_username ?? ''}</td><td>${when(r.created_at)}</td><td>${when(r.last_seen_at)}</td>
              <td>${
                r.current
                  ? html`<span class="muted">this session</span>`
                  : html`<button type="button" @click=${() => this.request('sessions', 'end_session', { session_id: r.session_id }, `Session of ${who(r)} ended.`)}>End session of ${who(r)}</button>`
              }</td></tr>`,
          )}</tbody></table>`
    }
      <h3>Login locks</h3>
      ${
        v.login_locks.length === 0
          ? html`<p class="muted">No login is locked.</p>`
          : html`<table>
          <thead><tr><th scope="col">Locked</th><th scope="col">Failures</th><th scope="col">Ends in</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>${v.login_locks.map(
            (
              l,
            ) => html`<tr><td>${lockName(l)}</td><td>${l.failures}</td><td>${duration(l.retry_after_seconds)}</td>
              <td><button type="button" @click=${() => this.request('sessions', 'unlock_login', lockTarget(l), `Login of ${lockName(l)} unlocked.`)}>Unlock ${lockName(l)}</button></td></tr>`,
          )}</tbody></table>`
      }`;
  }

  private renderSweep(v: SweepValue) {
    const every =
      v.interval_seconds === undefined
        ? ''
        : v.interval_seconds > 0
          ? `Runs every ${duration(v.interval_seconds)}.`
          : 'Runs only when asked here.';
    const last = v.last_run;
    const purged = (p: Record<string, number>) =>
      Object.entries(p)
        .map(([k, n]) => `${n} ${words(k)}`)
        .join(', ');
    return html`<p>${every} ${
      last
        ? `Last run ${when(last.ran_at)} (${last.trigger === 'timer' ? 'by the timer' : 'from this page'}): removed ${purged(last.purged)}.`
        : 'It has not run yet.'
    }</p>
      ${last && Object.keys(last.failed).length > 0 ? html`<p class="alert">Failed: ${Object.keys(last.failed).map(words).join(', ')}</p>` : ''}
      <button type="button" @click=${() =>
        this.request(
          'sweep',
          'run',
          {},
          (data) =>
            `Sweep done: removed ${purged((data as { purged?: Record<string, number> })?.purged ?? {})}.`,
        )}>Run the sweep now</button>`;
  }

  override render() {
    const st = this.status;
    const sw = this.sweep;
    const ss = this.sessions;
    const lk = this.locks;
    return html`<h1>Maintenance</h1>
      <section aria-labelledby="counters-h"><h2 id="counters-h">Counters</h2>${this.renderCounters()}</section>
      <section aria-labelledby="status-h"><h2 id="status-h">System status</h2>
        ${st.state === 'ok' ? this.renderStatus(st.value) : this.blockMessage(st)}
      </section>
      <section aria-labelledby="sessions-h"><h2 id="sessions-h">Sessions</h2>
        ${ss.state === 'ok' ? this.renderSessions(ss.value) : this.blockMessage(ss)}
      </section>
      <section aria-labelledby="sweep-h"><h2 id="sweep-h">Sweep</h2>
        ${sw.state === 'ok' ? this.renderSweep(sw.value) : this.blockMessage(sw)}
      </section>
      <section aria-labelledby="locks-h"><h2 id="locks-h">Fields being edited (locks)</h2>
        ${
          lk.state === 'ok'
            ? html`${this.renderLocks(lk.value)}
              <button type="button" class="danger" @click=${this.unlockAll}>Release every lock</button>`
            : this.blockMessage(lk)
        }
      </section>
      <section aria-labelledby="admin-h"><h2 id="admin-h">Users, profiles, projects</h2>
        <p>Edited in their sections: <a href="#/list/dd128">Users</a>, <a href="#/list/dd234">Profiles</a> (the access grid),
          <a href="#/list/dd153">Projects</a>; the activity log in <a href="#/list/dd542">Activity</a>.</p>
      </section>`;
  }
}
customElements.define('dd-maintenance', DdMaintenance);
