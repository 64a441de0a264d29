/**
 * The application shell: asks `start` whether a session exists, shows the login or the menu and
 * the screen of the current route, switches the data language, logs out. When any call finds the
 * session gone (expired, or closed elsewhere) the login comes back over the same route, so after
 * logging in the user is where they were.
 */
import { css, html, LitElement } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { dedaloLangOf, setUiLang, t, UI_LANGS, type UiLang, uiLang, uiLangOf } from '../api/i18n.js';
import { ApiError, apiUrlFromPage, RqoClient } from '../api/rqo-client.js';
import { pendingSaves, type SavedDetail } from '../components/pending-saves.js';
import './dd-login.js';
import './dd-menu.js';
import './dd-section-list.js';
import './dd-deleted-records.js';
import './dd-record-edit.js';
import './dd-maintenance.js';
import './dd-import.js';
import { hrefOf, parseRoute, type Route } from './router.js';
import './dd-thesaurus.js';
import {
  isOntologySection,
  type LangOption,
  type MenuNode,
  RECORD_WRITTEN,
  type Session,
} from './session.js';
import { baseStyles } from './styles.js';

interface StartEnvironment {
  plain_vars?: { DEDALO_LOCK_COMPONENTS?: boolean };
  page_globals?: {
    is_logged?: boolean;
    user_id?: number;
    is_global_admin?: boolean;
    username?: string | null;
    full_username?: string | null;
    dedalo_data_lang?: string;
    dedalo_application_lang?: string;
    dedalo_data_langs?: LangOption[];
    dedalo_application_langs?: LangOption[];
  };
}

/** Each interface language named in itself, as people look for their own. */
const LANG_NAMES: Record<UiLang, string> = { en: 'English', es: 'Español', ca: 'Català' };
const LANG_KEY = 'dedalo.uiLang';

function storedUiLang(): UiLang | undefined {
  try {
    const v = localStorage.getItem(LANG_KEY);
    return UI_LANGS.find((l) => l === v);
  } catch {
    return undefined;
  }
}

function rememberUiLang(lang: UiLang): void {
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    // Private mode without storage: the session still keeps it after login.
  }
}

export class DdApp extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; min-height: 100vh; background: var(--wash); }
      header {
        display: flex; align-items: center; gap: 0.75rem; flex-wrap: wrap; padding: 0.5rem 1rem;
        background: #12324f; color: #fff;
      }
      header a.brand { color: #fff; font-weight: 700; text-decoration: none; }
      header .spacer { flex: 1; }
      header label { display: flex; gap: 0.35rem; align-items: center; }
      header .who { font-weight: 600; }
      header select { padding: 0.15rem 0.3rem; color: var(--ink); }
      header button { background: transparent; color: #fff; border-color: #9fb3c8; }
      .layout { display: grid; grid-template-columns: 15rem 1fr; min-height: calc(100vh - 3rem); }
      nav { background: var(--paper); border-right: 1px solid var(--line); padding: 0.75rem; }
      main { padding: 1rem; min-width: 0; }
      .skip { position: absolute; left: -999px; top: 0; background: var(--paper); padding: 0.5rem; z-index: 20; }
      .skip:focus { left: 0.5rem; }
      main:focus { outline: none; }
      #live { position: fixed; bottom: 1rem; right: 1rem; max-width: 28rem; z-index: 10; }
      #live p { margin: 0.25rem 0; box-shadow: 0 2px 8px rgb(0 0 0 / 15%); background: var(--paper); }
      .menu-toggle { display: none; }
      .login-lang { display: flex; justify-content: flex-end; padding: 0.5rem 1rem; }
      .unsaved {
        display: flex; align-items: center; gap: 0.6rem; flex-wrap: wrap; padding: 0.45rem 1rem;
        background: #fdecea; color: #7a1c12; border-bottom: 2px solid #c0392b;
      }
      .unsaved strong { font-weight: 700; }
      .unsaved .why { flex: 1 1 16rem; }
      .unsaved button { background: #fff; color: #7a1c12; border-color: #c0392b; font-weight: 600; }
      @media (max-width: 900px) {
        /* The open menu takes its own height; the screen below it gets the rest. */
        .layout { grid-template-columns: 1fr; grid-template-rows: auto 1fr; align-content: start; }
        nav { border-right: 0; border-bottom: 1px solid var(--line); padding: 0.4rem 0.75rem; }
        .menu-toggle { display: inline-block; }
        nav.closed dd-menu { display: none; }
      }
    `,
  ];
  static override properties = {
    state: { state: true },
    route: { state: true },
    loginReason: { state: true },
    loginItems: { state: true },
    messages: { state: true },
    bootError: { state: true },
    menuOpen: { state: true },
    unsavedCount: { state: true },
    retrying: { state: true },
    userName: { state: true },
  };
  declare state: 'booting' | 'login' | 'ready';
  declare route: Route;
  declare loginReason: string;
  declare loginItems: { type: string; label: string }[];
  declare messages: { id: number; text: string; kind: 'info' | 'error' }[];
  declare bootError: string;
  /** At narrow widths the menu folds behind a button (it is always open on a wide screen). */
  declare menuOpen: boolean;
  /** Changes not saved because the server was away (or refused as stale): the banner's count. */
  declare unsavedCount: number;
  declare retrying: boolean;
  /** Who is logged in, as the header says it (full name, else username). */
  declare userName: string;
  private session: Session;
  private messageSeq = 0;

  constructor() {
    super();
    this.state = 'booting';
    this.route = parseRoute(window.location.hash);
    this.loginReason = '';
    this.loginItems = [];
    this.messages = [];
    this.bootError = '';
    this.menuOpen = false;
    this.unsavedCount = 0;
    this.retrying = false;
    this.userName = '';
    const api = new RqoClient(apiUrlFromPage(document));
    api.onSessionLost = () => {
      if (this.state === 'ready') {
        this.loginReason = t('sessionEnded');
        this.state = 'login';
      }
    };
    const menu: MenuNode[] = [];
    this.session = {
      api,
      userId: undefined,
      dataLang: 'lg-eng',
      appLang: 'lg-eng',
      langs: [],
      menu,
      locksEnabled: false,
      labelOf: (tipo) => this.session.menu.find((n) => n.tipo === tipo)?.label ?? tipo,
      announce: (text, kind = 'info') => this.announce(text, kind),
      refreshMenu: () => this.refreshMenu(),
      setDataLang: async (lang) => {
        await api.call({ dd_api: 'dd_utils_api', action: 'change_lang', options: { svc_data_lang: lang } });
        this.session.dataLang = lang;
        this.requestUpdate();
      },
    };
  }

  override connectedCallback() {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onHash);
    window.addEventListener('beforeunload', this.onBeforeUnload);
    pendingSaves.addEventListener('change', this.onPending);
    pendingSaves.addEventListener('saved', this.onKeptSaved);
    this.addEventListener(RECORD_WRITTEN, this.onRecordWritten);
    void this.boot();
  }

  override disconnectedCallback() {
    window.removeEventListener('hashchange', this.onHash);
    window.removeEventListener('beforeunload', this.onBeforeUnload);
    pendingSaves.removeEventListener('change', this.onPending);
    pendingSaves.removeEventListener('saved', this.onKeptSaved);
    this.removeEventListener(RECORD_WRITTEN, this.onRecordWritten);
    super.disconnectedCallback();
  }

  /** Leaving the page (reload, close, another address) with work not saved: the browser asks. */
  private onBeforeUnload = (e: BeforeUnloadEvent) => {
    if (!pendingSaves.hasUnsaved()) return;
    e.preventDefault();
    // Older browsers need returnValue set; the words are the browser's own.
    e.returnValue = '';
  };

  private onPending = () => {
    this.unsavedCount = pendingSaves.count();
    this.retrying = pendingSaves.retrying;
  };

  /** A kept change saved by a retry: said once, whatever screen is open. */
  private onKeptSaved = (e: Event) => {
    const { entry } = (e as CustomEvent<SavedDetail>).detail;
    this.announce(t('savedLater', { label: entry.label }), 'info');
  };

  /** A save in an ontology section may have added a section or renamed one: the menu follows. */
  private onRecordWritten = (e: Event) => {
    const { sectionTipo } = (e as CustomEvent<{ sectionTipo: string }>).detail;
    if (isOntologySection(sectionTipo)) void this.refreshMenu();
  };

  /** The menu as the server lists it now; said only when it changed. */
  private async refreshMenu(say = true) {
    try {
      const answer = await this.session.api.call<{ data: Record<string, unknown>[] }>({
        action: 'start',
        options: { menu: true },
      });
      const tree = (answer.data.data.find((d) => d.tipo === 'dd85')?.tree_datalist ?? []) as MenuNode[];
      if (JSON.stringify(tree) === JSON.stringify(this.session.menu)) return;
      this.session.menu = tree;
      if (say) this.announce(t('menuUpdated'), 'info');
      this.requestUpdate();
    } catch {
      // The menu stays as it was; the next start shows the change.
    }
  }

  private onHash = () => {
    this.route = parseRoute(window.location.hash);
    this.menuOpen = false;
    // A new screen: screen readers start reading at its content, as after a page load.
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#main')?.focus());
  };

  /** The browser tab names the screen (and what a screen reader announces first). */
  private screenTitle(): string {
    if (this.state === 'login') return `${t('logIn')} — Dédalo`;
    const r = this.route;
    switch (r.name) {
      case 'list':
        return `${this.session.labelOf(r.section)} — Dédalo`;
      case 'edit':
        return `${this.session.labelOf(r.section)} ${r.id} — Dédalo`;
      case 'deleted':
        return `${t('deletedRecordsOf', { label: this.session.labelOf(r.section) })} — Dédalo`;
      case 'maintenance':
        return `${t('maintenance')} — Dédalo`;
      case 'import':
        return `${t('importTitle')} — Dédalo`;
      case 'imported':
        return `${t('importDid', { id: r.id })} — Dédalo`;
      case 'thesaurus':
        return `${this.session.labelOf(r.section)} — Dédalo`;
      default:
        return 'Dédalo';
    }
  }

  override updated() {
    document.title = this.screenTitle();
  }

  private announce(text: string, kind: 'info' | 'error') {
    const id = ++this.messageSeq;
    this.messages = [...this.messages, { id, text, kind }];
    setTimeout(
      () => {
        this.messages = this.messages.filter((m) => m.id !== id);
      },
      kind === 'error' ? 9000 : 4000,
    );
  }

  private async boot() {
    try {
      const answer = await this.session.api.call<{
        context: Record<string, unknown>[];
        data: Record<string, unknown>[];
      }>({ action: 'start', options: { menu: true } });
      const env = (answer.envelope.environment ?? {}) as StartEnvironment;
      const globals = env.page_globals ?? {};
      this.session.langs = (globals.dedalo_data_langs ?? globals.dedalo_application_langs ?? []).filter(
        (l) => l.value !== 'lg-nolan',
      );
      this.session.dataLang = globals.dedalo_data_lang ?? 'lg-eng';
      this.session.appLang = globals.dedalo_application_lang ?? this.session.appLang;
      // Before logging in the server knows no language: the one chosen in this browser holds.
      setUiLang(
        globals.is_logged
          ? uiLangOf(this.session.appLang)
          : (storedUiLang() ?? uiLangOf(this.session.appLang)),
      );
      this.userName = globals.full_username?.trim() || globals.username?.trim() || '';
      this.session.locksEnabled = env.plain_vars?.DEDALO_LOCK_COMPONENTS === true;
      this.session.isGlobalAdmin = globals.is_global_admin === true;
      // Who is logged in: typing kept across a session's end is saved only for the same user.
      this.session.userId = globals.is_logged ? globals.user_id : undefined;
      if (!globals.is_logged) {
        const login = answer.data.context.find((c) => c.model === 'login') as
          | { properties?: { login_items?: { type: string; label: string }[] } }
          | undefined;
        this.loginItems = login?.properties?.login_items ?? [];
        this.state = 'login';
        return;
      }
      const tree = answer.data.data.find((d) => d.tipo === 'dd85')?.tree_datalist as MenuNode[] | undefined;
      this.session.menu = tree ?? [];
      // Changes kept in this tab (server away, a reload) are retried for this user from now on.
      pendingSaves.connect(this.session.api, () => this.session.userId);
      this.onPending();
      this.state = 'ready';
    } catch (err) {
      this.bootError = err instanceof ApiError ? err.message : t('appCouldNotStart');
    }
  }

  private async onLoggedIn() {
    this.loginReason = '';
    this.state = 'booting';
    // The language the login was shown in becomes the session's: labels come in it from now on.
    try {
      await this.session.api.call({
        dd_api: 'dd_utils_api',
        action: 'change_lang',
        options: { svc_application_lang: dedaloLangOf(uiLang()) },
      });
    } catch {
      // The server's default language then; the selector in the header changes it.
    }
    await this.boot();
    // Screens mounted again read afresh; the route (the hash) never changed.
    this.route = parseRoute(window.location.hash);
  }

  private async logout() {
    try {
      await this.session.api.call({ dd_api: 'dd_utils_api', action: 'quit' });
    } catch {
      // Already gone: the login is what the user wants either way.
    }
    this.session.api.csrfToken = undefined;
    this.loginReason = t('loggedOut');
    window.location.hash = '#/';
    await this.boot();
  }

  /** The interface language: kept on the session (server) and in this browser (the login). */
  private async changeAppLang(e: Event) {
    const lang = (e.target as HTMLSelectElement).value as UiLang;
    rememberUiLang(lang);
    if (this.state === 'ready') {
      try {
        // The session first: the screens drawn afresh below read their labels in this language.
        await this.session.api.call({
          dd_api: 'dd_utils_api',
          action: 'change_lang',
          options: { svc_application_lang: dedaloLangOf(lang) },
        });
        await this.refreshMenu(false);
      } catch (err) {
        this.announce(err instanceof ApiError ? err.message : t('langNotChanged'), 'error');
        return;
      }
    }
    this.session.appLang = dedaloLangOf(lang);
    setUiLang(lang);
    this.requestUpdate();
  }

  /** The interface language selector (header and login). */
  private renderAppLang() {
    return html`<label>${t('interfaceLanguage')}
      <select class="app-lang" @change=${this.changeAppLang}>
        ${UI_LANGS.map((l) => html`<option value=${l} lang=${l} ?selected=${l === uiLang()}>${LANG_NAMES[l]}</option>`)}
      </select>
    </label>`;
  }

  private async changeLang(e: Event) {
    const lang = (e.target as HTMLSelectElement).value;
    try {
      await this.session.setDataLang(lang);
      this.announce(
        t('dataLangChanged', { lang: this.session.langs.find((l) => l.value === lang)?.label ?? lang }),
        'info',
      );
    } catch (err) {
      this.announce(err instanceof ApiError ? err.message : t('langNotChanged'), 'error');
    }
  }

  private renderScreen() {
    const r = this.route;
    switch (r.name) {
      case 'list':
        return html`<dd-section-list .session=${this.session} .section=${r.section} .offset=${r.offset} .limit=${r.limit ?? 25}
          .sort=${r.sort} .search=${r.search} .dataLang=${this.session.dataLang}></dd-section-list>`;
      case 'edit':
        return html`<dd-record-edit .session=${this.session} .section=${r.section} .sectionId=${r.id}
          .lang=${this.session.dataLang}></dd-record-edit>`;
      case 'deleted':
        return html`<dd-deleted-records .session=${this.session} .section=${r.section}></dd-deleted-records>`;
      case 'maintenance':
        return html`<dd-maintenance .session=${this.session}></dd-maintenance>`;
      case 'import':
        return html`<dd-import .session=${this.session} .section=${r.section ?? ''}></dd-import>`;
      case 'imported':
        return html`<dd-import .session=${this.session} .importId=${r.id}></dd-import>`;
      case 'thesaurus':
        return html`<dd-thesaurus .session=${this.session} .section=${r.section}></dd-thesaurus>`;
      default:
        return html`<h1>${t('welcome')}</h1><p>${t('welcomeBody')}</p>
          <p><a href=${hrefOf({ name: 'import' })}>${t('importHomeLink')}</a></p>`;
    }
  }

  /** One line in the app chrome while changes wait for the server: how many, why, Retry. */
  private renderUnsaved() {
    if (this.unsavedCount === 0) return '';
    return html`<div class="unsaved" lang=${uiLang()} role="region" aria-label=${t('pendingCount', { n: this.unsavedCount })}>
      <strong role="status">${t('pendingCount', { n: this.unsavedCount })}</strong>
      <span class="why">${t('pendingWhy')}</span>
      <button type="button" ?disabled=${this.retrying} @click=${() => void pendingSaves.retryNow()}>${
        this.retrying ? t('retrying') : t('retry')
      }</button>
    </div>`;
  }

  override render() {
    const live = html`<div id="live" role="status" aria-live="polite">
      ${this.messages.map((m) => html`<p class=${m.kind === 'error' ? 'alert' : 'notice'}>${m.text}</p>`)}
    </div>`;
    if (this.bootError)
      return html`<main><p class="alert" role="alert">${this.bootError}</p>
      <button @click=${() => window.location.reload()}>${t('reload')}</button></main>`;
    if (this.state === 'booting') return html`<main><p class="muted">${t('loading')}</p></main>`;
    if (this.state === 'login') {
      // Keyed by the language: a change of it draws every screen afresh in the new words.
      return html`<div class="login-lang">${this.renderAppLang()}</div>${keyed(
        uiLang(),
        html`<dd-login .api=${this.session.api} .items=${this.loginItems} .reason=${this.loginReason}
        @logged-in=${this.onLoggedIn}></dd-login>`,
      )}${live}`;
    }
    return html`
      <a class="skip" href="#main" @click=${(e: Event) => {
        e.preventDefault();
        this.renderRoot.querySelector<HTMLElement>('#main')?.focus();
      }}>${t('skipToContent')}</a>
      <header>
        <a class="brand" href="#/">Dédalo</a>
        <span class="spacer"></span>
        ${this.renderAppLang()}
        <label>${t('dataLanguage')}
          <select @change=${this.changeLang}>
            ${this.session.langs.map(
              (l) =>
                html`<option value=${l.value} ?selected=${l.value === this.session.dataLang}>${l.label}</option>`,
            )}
          </select>
        </label>
        ${this.userName ? html`<span class="who">${t('loggedInAs', { name: this.userName })}</span>` : ''}
        <button @click=${this.logout}>${t('logOut')}</button>
      </header>
      ${this.renderUnsaved()}
      ${keyed(
        uiLang(),
        html`<div class="layout">
        <nav aria-label=${t('sections')} class=${this.menuOpen ? 'open' : 'closed'}>
          <button class="menu-toggle" aria-expanded=${this.menuOpen ? 'true' : 'false'} @click=${() => {
            this.menuOpen = !this.menuOpen;
          }}>${t('menu')}</button>
          <dd-menu .tree=${this.session.menu} .route=${this.route}></dd-menu>
        </nav>
        <main id="main" tabindex="-1">${this.renderScreen()}</main>
      </div>`,
      )}
      ${live}`;
  }
}
customElements.define('dd-app', DdApp);
