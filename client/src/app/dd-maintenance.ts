/**
 * The maintenance page, one block per widget of `dd_area_maintenance_api` (docs/work-api.md,
 * "Maintenance widgets"): counters (`get_widget_value` of counters_status; "Fix" / "Reset" through
 * `widget_request` `modify_counter`), system status, sessions and login locks (`end_session`,
 * `unlock_login`; global administrators), the sweep (`run`), and the fields being edited
 * (`lock_components_actions` `get_active_users`, "Release every lock"). Each block asks the server
 * on its own; a block the server refuses or does not offer says so instead, and the others work.
 */
import { css, html, LitElement } from 'lit';
import { localeOf, t } from '../api/i18n.js';
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
const when = (iso: string) => new Date(iso).toLocaleString(localeOf());

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
      return { state: 'absent', message: t('widgetAbsent') };
    }
    if (err instanceof ApiError && err.code === 'perm.global_admin_required') {
      return { state: 'absent', message: t('globalAdminOnly') };
    }
    return {
      state: 'error',
      message: err instanceof ApiError ? err.message : t('widgetNotRead'),
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
      this.session.announce(err instanceof ApiError ? err.message : t('maintenanceFailed'), 'error');
    }
  }

  private async unlockAll() {
    try {
      await this.session.api.call({
        dd_api: API,
        action: 'lock_components_actions',
        options: { fn_action: 'force_unlock_all_components' },
      });
      this.session.announce(t('locksReleased'));
      await this.load();
    } catch (err) {
      this.session.announce(err instanceof ApiError ? err.message : t('locksNotReleased'), 'error');
    }
  }

  private blockMessage(b: Block<unknown>) {
    if (b.state === 'loading') return html`<p class="muted">${t('loading')}</p>`;
    if (b.state === 'absent') return html`<p class="notice">${b.message}</p>`;
    if (b.state === 'error') return html`<p class="alert">${b.message}</p>`;
    return undefined;
  }

  /** get_active_users rows: who holds which field of which record, since when, until when. */
  private renderLocks(rows: Row[]) {
    if (rows.length === 0) return html`<p class="muted">${t('nobodyEditing')}</p>`;
    const time = (v: unknown) => {
      const d = typeof v === 'string' ? new Date(v) : undefined;
      return d && !Number.isNaN(d.getTime()) ? d.toLocaleString(localeOf()) : plainValue(v);
    };
    return html`<table>
      <thead><tr><th scope="col">${t('user')}</th><th scope="col">${t('record')}</th><th scope="col">${t('field')}</th><th scope="col">${t('since')}</th><th scope="col">${t('lapsesAt')}</th></tr></thead>
      <tbody>${rows.map((r) => {
        const who = r.full_username ?? r.username ?? t('userNumber', { id: plainValue(r.user_id) });
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
      <thead><tr><th scope="col">${t('section')}</th><th scope="col">${t('counter')}</th><th scope="col">${t('highestId')}</th><th scope="col"><span class="visually-hidden">${t('actions')}</span></th></tr></thead>
      <tbody>${c.value.map((r) => {
        const name = r.label ?? r.section_tipo;
        const drift = r.out_of_step ?? (r.counter_value ?? 0) < (r.last_section_id ?? 0);
        return html`<tr><td>${name} <span class="muted">${r.section_tipo}</span></td><td>${r.counter_value ?? html`<span class="muted">${t('counterNone', { next: (r.last_section_id ?? 0) + 1 })}</span>`}${drift ? html` <strong class="error">${t('outOfStep')}</strong>` : ''}</td><td>${r.last_section_id ?? ''}</td>
          <td class="row">
            ${drift ? html`<button type="button" @click=${() => this.request('counters_status', 'modify_counter', { section_tipo: r.section_tipo, counter_action: 'fix' }, t('counterFixed', { name }))}>${t('fixCounter', { name })}</button>` : ''}
            <button type="button" @click=${() => this.request('counters_status', 'modify_counter', { section_tipo: r.section_tipo, counter_action: 'reset' }, t('counterReset', { name }))}>${t('resetCounter', { name })}</button>
          </td></tr>`;
      })}</tbody></table>`;
  }

  private renderStatus(v: Row) {
    const known: [string, unknown][] = [
      [t('st_version'), v.version],
      [t('st_database'), v.database_engine],
      [
        t('st_databaseSize'),
        typeof v.database_size_bytes === 'number'
          ? `${(v.database_size_bytes / 1048576).toFixed(1)} MB`
          : undefined,
      ],
      [t('st_schemaVersion'), v.schema_version],
      [t('st_migrations'), Array.isArray(v.migrations) ? v.migrations.length : undefined],
      [t('st_activeSessions'), v.active_sessions],
      [t('st_upFor'), typeof v.uptime_seconds === 'number' ? duration(v.uptime_seconds) : undefined],
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
      r.username ?? r.full_username ?? t('userNumber', { id: String(r.user_id) });
    const lockTarget = (l: LoginLockRow): Row =>
      l.scope === 'address'
        ? { address: l.address }
        : l.scope === 'pair'
          ? { username: l.username, address: l.address }
          : { username: l.username };
    const lockName = (l: LoginLockRow) =>
      l.scope === 'address'
        ? t('lockAddress', { address: l.address })
        : l.scope === 'pair'
          ? t('lockPair', { username: l.username, address: l.address })
          : l.scope === 'device'
            ? t('lockDevice', { username: l.username })
            : t('lockUsername', { username: l.username });
    return html`${
      v.sessions.length === 0
        ? html`<p class="muted">${t('noSessions')}</p>`
        : html`<table>
          <thead><tr><th scope="col">${t('user')}</th><th scope="col">${t('fullName')}</th><th scope="col">${t('loggedInAt')}</th><th scope="col">${t('lastSeen')}</th><th scope="col"><span class="visually-hidden">${t('actions')}</span></th></tr></thead>
          <tbody>${v.sessions.map(
            (
              r,
            ) => html`<tr><td>${who(r)}</td><td>${r.full_username ?? ''}</td><td>${when(r.created_at)}</td><td>${when(r.last_seen_at)}</td>
              <td>${
                r.current
                  ? html`<span class="muted">${t('thisSession')}</span>`
                  : html`<button type="button" @click=${() => this.request('sessions', 'end_session', { session_id: r.session_id }, t('sessionEndedOf', { who: who(r) }))}>${t('endSessionOf', { who: who(r) })}</button>`
              }</td></tr>`,
          )}</tbody></table>`
    }
      <h3>${t('loginLocks')}</h3>
      ${
        v.login_locks.length === 0
          ? html`<p class="muted">${t('noLoginLocked')}</p>`
          : html`<table>
          <thead><tr><th scope="col">${t('locked')}</th><th scope="col">${t('failures')}</th><th scope="col">${t('endsIn')}</th><th scope="col"><span class="visually-hidden">${t('actions')}</span></th></tr></thead>
          <tbody>${v.login_locks.map(
            (
              l,
            ) => html`<tr><td>${lockName(l)}</td><td>${l.failures}</td><td>${duration(l.retry_after_seconds)}</td>
              <td><button type="button" @click=${() => this.request('sessions', 'unlock_login', lockTarget(l), t('loginUnlocked', { name: lockName(l) }))}>${t('unlockLogin', { name: lockName(l) })}</button></td></tr>`,
          )}</tbody></table>`
      }`;
  }

  private renderSweep(v: SweepValue) {
    const every =
      v.interval_seconds === undefined
        ? ''
        : v.interval_seconds > 0
          ? t('sweepEvery', { every: duration(v.interval_seconds) })
          : t('sweepOnDemand');
    const last = v.last_run;
    const purged = (p: Record<string, number>) =>
      Object.entries(p)
        .map(([k, n]) => `${n} ${words(k)}`)
        .join(', ');
    return html`<p>${every} ${
      last
        ? t(last.trigger === 'timer' ? 'sweepLastTimer' : 'sweepLastPage', {
            when: when(last.ran_at),
            removed: purged(last.purged),
          })
        : t('sweepNotYet')
    }</p>
      ${last && Object.keys(last.failed).length > 0 ? html`<p class="alert">${t('sweepFailed', { list: Object.keys(last.failed).map(words).join(', ') })}</p>` : ''}
      <button type="button" @click=${() =>
        this.request('sweep', 'run', {}, (data) =>
          t('sweepDone', { removed: purged((data as { purged?: Record<string, number> })?.purged ?? {}) }),
        )}>${t('runSweep')}</button>`;
  }

  override render() {
    const st = this.status;
    const sw = this.sweep;
    const ss = this.sessions;
    const lk = this.locks;
    return html`<h1>${t('maintenance')}</h1>
      <section aria-labelledby="counters-h"><h2 id="counters-h">${t('counters')}</h2>${this.renderCounters()}</section>
      <section aria-labelledby="status-h"><h2 id="status-h">${t('systemStatus')}</h2>
        ${st.state === 'ok' ? this.renderStatus(st.value) : this.blockMessage(st)}
      </section>
      <section aria-labelledby="sessions-h"><h2 id="sessions-h">${t('sessionsTitle')}</h2>
        ${ss.state === 'ok' ? this.renderSessions(ss.value) : this.blockMessage(ss)}
      </section>
      <section aria-labelledby="sweep-h"><h2 id="sweep-h">${t('sweep')}</h2>
        ${sw.state === 'ok' ? this.renderSweep(sw.value) : this.blockMessage(sw)}
      </section>
      <section aria-labelledby="locks-h"><h2 id="locks-h">${t('fieldLocks')}</h2>
        ${
          lk.state === 'ok'
            ? html`${this.renderLocks(lk.value)}
              <button type="button" class="danger" @click=${this.unlockAll}>${t('releaseLocks')}</button>`
            : this.blockMessage(lk)
        }
      </section>
      <section aria-labelledby="admin-h"><h2 id="admin-h">${t('adminTitle')}</h2>
        <p>${t('adminIntro')}</p>
        <ul>${['dd128', 'dd234', 'dd153', 'dd542'].map(
          (tipo) => html`<li><a href="#/list/${tipo}">${this.session.labelOf(tipo)}</a></li>`,
        )}</ul>
      </section>`;
  }
}
customElements.define('dd-maintenance', DdMaintenance);
