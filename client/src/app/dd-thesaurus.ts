/**
 * The thesaurus as a tree (`#/thesaurus/<section>`): terms by name, one level read at a time when
 * a term is expanded (`dd_ts_api.get_children_data`); a search-as-you-type whose matches show
 * their breadcrumb and open the tree down to them. Editors (the level answered with each level)
 * add a child term, rename a term and move it under another parent, each through the ordinary
 * `create` and `save` requests; a move under the term itself or one of its descendants is
 * refused here, before asking (the server refuses it too).
 */
import { css, html, LitElement, nothing } from 'lit';
import { t } from '../api/i18n.js';
import { newIdempotencyKey } from '../api/idempotency-key.js';
import { ApiError } from '../api/rqo-client.js';
import { saveRqo } from '../components/pending-saves.js';
import {
  breadcrumb,
  childrenData,
  searchTerms,
  type TermNode,
  type TreeLevel,
  termKey,
} from '../text/indexing.js';
import { hrefOf } from './router.js';
import type { Session } from './session.js';
import { baseStyles } from './styles.js';

/** The terms open in each thesaurus, for this page's life (a language change remounts the screen). */
const openTerms = new Map<string, ReadonlySet<string>>();

type Editing =
  | { kind: 'add'; parent: TermNode | null }
  | { kind: 'rename'; term: TermNode }
  | { kind: 'move'; term: TermNode; results: TermNode[] };

export class DdThesaurus extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; max-width: 60rem; }
      .head { display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; margin-bottom: 0.6rem; }
      h1 { margin: 0; font-size: 1.4rem; }
      .search { display: grid; gap: 0.2rem; font-weight: 600; max-width: 32rem; }
      .search input { width: 100%; }
      ul.matches { list-style: none; padding: 0; margin: 0.4rem 0 0.8rem; max-width: 40rem; border: 1px solid var(--line); border-radius: 4px; }
      ul.matches:empty { display: none; }
      ul.matches li { border-bottom: 1px solid #eef1f4; }
      ul.matches li:last-child { border-bottom: 0; }
      ul.matches button { display: block; width: 100%; text-align: left; border: 0; border-radius: 0; padding: 0.35rem 0.6rem; }
      .crumb { display: block; font-size: 0.85em; color: var(--muted); }
      ul.tree, ul.group { list-style: none; margin: 0; padding: 0; }
      ul.group { padding-left: 1.4rem; border-left: 1px dotted var(--line); margin-left: 0.7rem; }
      .node { display: flex; align-items: center; gap: 0.35rem; padding: 0.15rem 0.2rem; border-radius: 4px; flex-wrap: wrap; }
      .node.selected { background: #dce9f7; }
      .toggle { width: 1.7rem; height: 1.7rem; padding: 0; border: 0; background: none; font-size: 0.9rem; }
      .toggle[disabled] { visibility: hidden; }
      .label { font-weight: 500; text-decoration: none; color: var(--ink); }
      .label:hover { text-decoration: underline; }
      .fallback { font-size: 0.75em; color: var(--muted); border: 1px solid var(--line); border-radius: 3px; padding: 0 0.2rem; }
      .count { font-size: 0.8em; color: var(--muted); }
      .acts { display: inline-flex; gap: 0.25rem; margin-left: auto; }
      .acts button { font-size: 0.82em; padding: 0.1rem 0.45rem; }
      form.inline { display: flex; gap: 0.35rem; align-items: center; flex-wrap: wrap; margin: 0.25rem 0 0.35rem 1.9rem; }
      form.inline input { width: min(20rem, 100%); }
      .move { margin: 0.25rem 0 0.4rem 1.9rem; padding: 0.5rem; border: 1px solid var(--line); border-radius: 6px; background: var(--wash); max-width: 36rem; }
      .move ul { list-style: none; padding: 0; margin: 0.3rem 0; }
      .move li button { width: 100%; text-align: left; }
      .top-actions { margin: 0.4rem 0 0.6rem; }
      .status { min-height: 1.2rem; }
      @media (max-width: 600px) { .acts { margin-left: 1.9rem; } }
    `,
  ];
  static override properties = {
    session: { attribute: false },
    section: {},
    levels: { state: true },
    expanded: { state: true },
    selected: { state: true },
    query: { state: true },
    found: { state: true },
    status: { state: true },
    editing: { state: true },
    error: { state: true },
  };
  declare session: Session;
  declare section: string;
  /** Loaded levels by parent key ('' for the roots). */
  declare levels: Map<string, TreeLevel>;
  declare expanded: Set<string>;
  declare selected: string;
  declare query: string;
  declare found: TermNode[];
  declare status: string;
  declare editing: Editing | undefined;
  declare error: string;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;

  constructor() {
    super();
    this.levels = new Map();
    this.expanded = new Set();
    this.selected = '';
    this.query = '';
    this.found = [];
    this.status = '';
    this.error = '';
  }

  private get dataLang() {
    return this.session.dataLang;
  }

  private get rootLevel(): TreeLevel | undefined {
    return this.levels.get('');
  }

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('section') || changed.has('session')) {
      this.levels = new Map();
      // The screen is made anew when a language changes: the terms open before stay open.
      this.expanded = new Set(openTerms.get(this.section) ?? []);
      void this.load(undefined);
      for (const key of this.expanded) void this.load(Number(key.slice(key.lastIndexOf('_') + 1)));
    }
    if (changed.has('expanded') && this.section) openTerms.set(this.section, this.expanded);
  }

  private async load(parentId: number | undefined): Promise<TreeLevel | undefined> {
    const key = parentId === undefined ? '' : termKey({ section_tipo: this.section, section_id: parentId });
    try {
      const level = await childrenData(this.session.api, this.section, this.dataLang, parentId);
      this.levels = new Map(this.levels).set(key, level);
      this.error = '';
      return level;
    } catch (err) {
      this.error = err instanceof ApiError ? err.message : t('ts_notRead');
      return undefined;
    }
  }

  private async toggle(term: TermNode) {
    const key = termKey(term);
    const next = new Set(this.expanded);
    if (next.has(key)) next.delete(key);
    else {
      next.add(key);
      if (!this.levels.has(key)) await this.load(term.section_id);
    }
    this.expanded = next;
  }

  /** Opens the tree down to `term` (its ancestors' levels), selects and focuses it. */
  private async reveal(term: TermNode) {
    const next = new Set(this.expanded);
    for (const p of term.path ?? []) {
      const key = termKey(p);
      next.add(key);
      if (!this.levels.has(key)) await this.load(p.section_id);
    }
    this.expanded = next;
    this.selected = termKey(term);
    await this.updateComplete;
    const node = this.renderRoot.querySelector<HTMLElement>(`[data-key="${termKey(term)}"]`);
    node?.scrollIntoView({ block: 'center' });
    node?.focus();
  }

  private typed(e: Event) {
    this.query = (e.target as HTMLInputElement).value;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.search(), 200);
  }

  private async search() {
    const seq = ++this.seq;
    const q = this.query.trim();
    if (q === '') {
      this.found = [];
      this.status = '';
      return;
    }
    try {
      const found = await searchTerms(this.session.api, this.section, this.dataLang, q);
      if (seq !== this.seq) return;
      this.found = found;
      this.status = found.length === 0 ? t('idx_noMatch', { q }) : t('idx_matches', { count: found.length });
    } catch (err) {
      if (seq === this.seq) this.status = err instanceof ApiError ? err.message : t('idx_searchFailed');
    }
  }

  /** Reloads the levels a change touched (a parent's children, the roots). */
  private async reloadLevels(parents: (number | undefined)[]) {
    for (const p of new Set(parents)) await this.load(p);
    // A parent's child count changed too: its own level.
    const grandParents = new Set<number | undefined>();
    for (const level of this.levels.values()) {
      for (const term of level.terms) {
        if (parents.includes(term.section_id)) grandParents.add(term.parent?.section_id);
      }
    }
    for (const g of grandParents) if (!parents.includes(g)) await this.load(g);
  }

  private save(tipo: string, id: number, lang: string, changes: unknown[]) {
    return this.session.api.call(
      saveRqo(
        this.section,
        id,
        tipo,
        tipo === this.rootLevel?.term_tipo ? 'component_input_text' : 'component_relation_parent',
        lang,
        changes as never,
      ),
    );
  }

  private async addTerm(parent: TermNode | null, name: string) {
    const level = this.rootLevel;
    if (!level) return;
    try {
      const created = await this.session.api.call<number>({
        action: 'create',
        source: { section_tipo: this.section, tipo: this.section, model: 'section' },
        idempotency_key: newIdempotencyKey(),
      });
      const id = created.data;
      await this.save(level.term_tipo, id, this.dataLang, [
        { action: 'insert', value: { lang: this.dataLang, value: name } },
      ]);
      if (parent) {
        await this.save(level.parent_tipo, id, 'lg-nolan', [
          { action: 'set_data', value: [{ section_tipo: this.section, section_id: parent.section_id }] },
        ]);
        const expanded = new Set(this.expanded).add(termKey(parent));
        this.expanded = expanded;
      }
      this.editing = undefined;
      await this.reloadLevels([parent?.section_id]);
      this.selected = termKey({ section_tipo: this.section, section_id: id });
      this.session.announce(t('ts_added', { term: name }));
    } catch (err) {
      this.session.announce(err instanceof ApiError ? err.message : t('ts_notSaved'), 'error');
    }
  }

  private async rename(term: TermNode, name: string) {
    const level = this.rootLevel;
    if (!level) return;
    try {
      // The item of this language, if the term has one: updated; otherwise a new translation.
      const read = await this.session.api.call<{
        data: { tipo: string; entries?: { id: number; lang: string }[] }[];
      }>({
        action: 'read',
        source: {
          action: 'get_data',
          model: 'component_input_text',
          tipo: level.term_tipo,
          section_tipo: this.section,
          section_id: term.section_id,
          mode: 'edit',
          lang: this.dataLang,
        },
      });
      const item = read.data.data
        .find((d) => d.tipo === level.term_tipo)
        ?.entries?.find((e) => e.lang === this.dataLang);
      await this.save(level.term_tipo, term.section_id, this.dataLang, [
        item
          ? { action: 'update', id: item.id, value: { id: item.id, lang: this.dataLang, value: name } }
          : { action: 'insert', value: { lang: this.dataLang, value: name } },
      ]);
      this.editing = undefined;
      await this.reloadLevels([term.parent?.section_id]);
      this.session.announce(t('ts_renamed', { term: name }));
    } catch (err) {
      this.session.announce(err instanceof ApiError ? err.message : t('ts_notSaved'), 'error');
    }
  }

  private async move(term: TermNode, to: TermNode | null) {
    const level = this.rootLevel;
    if (!level) return;
    // Under itself or one of its descendants: refused before asking.
    if (to && (termKey(to) === termKey(term) || (to.path ?? []).some((p) => termKey(p) === termKey(term)))) {
      this.session.announce(t('ts_cycle', { term: term.label, parent: to.label }), 'error');
      return;
    }
    try {
      await this.save(level.parent_tipo, term.section_id, 'lg-nolan', [
        { action: 'set_data', value: to ? [{ section_tipo: this.section, section_id: to.section_id }] : [] },
      ]);
      this.editing = undefined;
      await this.reloadLevels([term.parent?.section_id, to?.section_id]);
      if (to) this.expanded = new Set(this.expanded).add(termKey(to));
      this.session.announce(
        to ? t('ts_moved', { term: term.label, parent: to.label }) : t('ts_movedTop', { term: term.label }),
      );
    } catch (err) {
      const message =
        err instanceof ApiError && err.code === 'validation.hierarchy_cycle'
          ? t('ts_cycle', { term: term.label, parent: to?.label ?? '' })
          : err instanceof ApiError
            ? err.message
            : t('ts_notSaved');
      this.session.announce(message, 'error');
    }
  }

  private async searchMoveTarget(e: Event) {
    const editing = this.editing;
    if (editing?.kind !== 'move') return;
    const q = (e.target as HTMLInputElement).value.trim();
    const results = q === '' ? [] : await searchTerms(this.session.api, this.section, this.dataLang, q);
    if (this.editing === editing) this.editing = { ...editing, results };
  }

  private submitName(e: Event, fn: (name: string) => Promise<void>) {
    e.preventDefault();
    const input = (e.target as HTMLFormElement).querySelector('input')!;
    const name = input.value.trim();
    if (name === '') {
      input.setCustomValidity(t('ts_nameRequired'));
      input.reportValidity();
      return;
    }
    void fn(name);
  }

  private renderNameForm(label: string, value: string, fn: (name: string) => Promise<void>) {
    return html`<form class="inline" @submit=${(e: Event) => this.submitName(e, fn)}>
      <input aria-label=${label} .value=${value} @input=${(e: Event) => (e.target as HTMLInputElement).setCustomValidity('')} />
      <button type="submit" class="primary">${t('ts_save')}</button>
      <button type="button" @click=${() => (this.editing = undefined)}>${t('cancel')}</button>
    </form>`;
  }

  private renderMove(term: TermNode) {
    const editing = this.editing as Extract<Editing, { kind: 'move' }>;
    return html`<div class="move" role="group" aria-label=${t('ts_moveTitle', { term: term.label })}>
      <label class="search">${t('ts_moveTo', { term: term.label })}
        <input type="search" autocomplete="off" @input=${this.searchMoveTarget} placeholder=${t('idx_searchPlaceholder')} /></label>
      <ul>${editing.results.map(
        (r) => html`<li><button type="button" @click=${() => this.move(term, r)}>${r.label}
          ${breadcrumb(r) ? html`<span class="crumb">${breadcrumb(r)}</span>` : ''}</button></li>`,
      )}</ul>
      <div class="row">
        ${term.parent ? html`<button type="button" @click=${() => this.move(term, null)}>${t('ts_moveTop')}</button>` : ''}
        <button type="button" @click=${() => (this.editing = undefined)}>${t('cancel')}</button>
      </div>
    </div>`;
  }

  private renderTerm(term: TermNode, level: TreeLevel, depth: number): unknown {
    const key = termKey(term);
    const open = this.expanded.has(key);
    const children = this.levels.get(key);
    const editing = this.editing;
    const mine = (kind: Editing['kind']) =>
      editing?.kind === kind &&
      ((kind === 'add' && editing.kind === 'add' && editing.parent && termKey(editing.parent) === key) ||
        (editing.kind !== 'add' && termKey(editing.term) === key));
    // A nested list with disclosure buttons (each says whether it is open), not an ARIA tree
    // widget: every control is a plain button or link reached with Tab.
    return html`<li data-depth=${depth}>
      <div class="node ${this.selected === key ? 'selected' : ''}" data-key=${key} tabindex="-1"
        aria-current=${this.selected === key ? 'true' : nothing}>
        <button type="button" class="toggle" ?disabled=${term.children === 0} @click=${() => this.toggle(term)}
          aria-expanded=${term.children > 0 ? String(open) : nothing}
          aria-label=${open ? t('ts_collapse', { term: term.label }) : t('ts_expand', { term: term.label })}>${open ? '▾' : '▸'}</button>
        <a class="label" href=${hrefOf({ name: 'edit', section: this.section, id: term.section_id })}
          title=${t('ts_openRecord', { term: term.label })}>${term.label || t('ts_unnamed', { id: term.section_id })}</a>
        ${term.lang ? html`<span class="fallback" title=${t('ts_fallback')}>${term.lang.replace('lg-', '')}</span>` : ''}
        ${term.children > 0 ? html`<span class="count">${t('ts_children', { count: term.children })}</span>` : ''}
        ${term.indexations > 0 ? html`<span class="count">· ${t('ts_indexations', { count: term.indexations })}</span>` : ''}
        <span class="acts">
          ${level.editable.add ? html`<button type="button" @click=${() => (this.editing = { kind: 'add', parent: term })}>${t('ts_addChild')}</button>` : ''}
          ${level.editable.rename ? html`<button type="button" @click=${() => (this.editing = { kind: 'rename', term })}>${t('ts_rename')}</button>` : ''}
          ${level.editable.move ? html`<button type="button" @click=${() => (this.editing = { kind: 'move', term, results: [] })}>${t('ts_move')}</button>` : ''}
        </span>
      </div>
      ${mine('add') ? this.renderNameForm(t('ts_childName', { term: term.label }), '', (n) => this.addTerm(term, n)) : ''}
      ${mine('rename') ? this.renderNameForm(t('ts_newName', { term: term.label }), term.label, (n) => this.rename(term, n)) : ''}
      ${mine('move') ? this.renderMove(term) : ''}
      ${open && children ? html`<ul class="group">${children.terms.map((c) => this.renderTerm(c, children, depth + 1))}</ul>` : ''}
    </li>`;
  }

  override render() {
    const roots = this.rootLevel;
    const label = this.session.labelOf(this.section);
    return html`<div class="head"><h1>${label}</h1>
        <a href=${hrefOf({ name: 'list', section: this.section, offset: 0 })}>${t('ts_asList')}</a></div>
      <label class="search">${t('ts_search')}
        <input type="search" autocomplete="off" .value=${this.query} @input=${this.typed}
          placeholder=${t('idx_searchPlaceholder')} aria-describedby="ts-status" /></label>
      <p id="ts-status" class="status muted" role="status">${this.status}</p>
      <ul class="matches" aria-label=${t('idx_results')}>${this.found.map(
        (m) => html`<li><button type="button" @click=${() => this.reveal(m)}>${m.label}
          <span class="crumb">${breadcrumb(m) || t('ts_topLevel')}</span></button></li>`,
      )}</ul>
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : ''}
      ${
        roots?.editable.add
          ? html`<div class="top-actions">${
              this.editing?.kind === 'add' && this.editing.parent === null
                ? this.renderNameForm(t('ts_topName'), '', (n) => this.addTerm(null, n))
                : html`<button type="button" @click=${() => (this.editing = { kind: 'add', parent: null })}>${t('ts_addTop')}</button>`
            }</div>`
          : ''
      }
      ${
        roots
          ? roots.terms.length === 0
            ? html`<p class="muted">${t('ts_empty')}</p>`
            : html`<ul class="tree" aria-label=${label}>${roots.terms.map((r) => this.renderTerm(r, roots, 1))}</ul>`
          : this.error
            ? ''
            : html`<p class="muted">${t('loading')}</p>`
      }`;
  }
}
customElements.define('dd-thesaurus', DdThesaurus);
