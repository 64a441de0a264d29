/**
 * The Import page (`#/import`, `#/import/<section>`; docs/import-export.md, "From the client"):
 * choose a file and the section its rows become records of; see the columns the file has and, for
 * a spreadsheet CSV, choose the field of each column (by its label; the language of a translatable
 * field; how a related record is found: by its id or by a field of it); try it (a dry run: what
 * would be created, updated or refused, and why, nothing written); run it, with a progress bar;
 * then every refused row with its reason, the refused rows as a CSV to fix and import again, and
 * for global administrators an Undo of the whole import.
 *
 * The server (`dd_import_api`) does the reading, the checks and the writing: the page reads only
 * the file's first line, to show its columns. Small files go in the request (checked as UTF-8
 * here first, so a file saved in another encoding is named as such); larger ones are uploaded
 * (chunked, with the upload's progress) and imported from there.
 */
import { css, html, LitElement, type TemplateResult } from 'lit';
import { type MessageKey, t, uiLang } from '../api/i18n.js';
import type { ContextEntry } from '../api/read-shapes.js';
import { ApiError } from '../api/rqo-client.js';
import { uploadFile } from '../upload/chunked-upload.js';
import type { DdConfirmDialog } from './dd-confirm-dialog.js';
import './dd-confirm-dialog.js';
import { type DetectedFile, detectFile, type ImportKind, looseText, tipoOfHeader } from './import-file.js';
import { hrefOf, navigate } from './router.js';
import { isOntologySection, type Session } from './session.js';
import { baseStyles } from './styles.js';

/** Files up to this size go in the request as text (the API takes 4 MiB); larger ones are uploaded. */
const INLINE_BYTES = 3 * 1024 * 1024;
/** The beginning of the file read in the browser for its header. */
const HEAD_BYTES = 64 * 1024;
/** Components a file cannot fill (the server refuses them too). */
const NOT_IMPORTED = new Set(['component_password', 'component_section_id', 'component_inverse']);

interface ImportRefusal {
  line: number;
  column: number;
  header: string;
  reason: string;
  message: string;
}

/** The report `import_records` answers (collections/import-report.ts on the server). */
export interface ImportReport {
  import_id: number | null;
  file_name: string;
  kind: ImportKind;
  section_tipo: string | null;
  dry_run: boolean;
  all_or_nothing: boolean;
  written: boolean;
  rows: number;
  counts: { created: number; updated: number; unchanged: number; refused: number };
  refusals: ImportRefusal[];
  refusals_truncated: boolean;
  /** Per accepted row (absent from reports stored before it existed). */
  outcomes?: ImportOutcome[];
  outcomes_truncated?: boolean;
  refused_csv: string | null;
  ignored_columns: string[];
  installed_tlds?: string[];
  failure: { line: number; message: string } | null;
}

interface ImportOutcome {
  line: number;
  outcome: 'created' | 'updated' | 'unchanged';
  section_tipo: string;
  section_id: number;
}

/** One column's choice in the mapping editor. */
interface ColumnChoice {
  tipo: string;
  lang: string;
  /**
   * 'id' (ids of the field's first related section), `id:<section>` (ids of that one, when the
   * field relates to several), or `key:<section>:<component>` (the record whose field holds the
   * cell's text).
   */
  match: string;
}

/** `get_import`'s answer: the run (collections/import-register.ts) and its stored report. */
interface ImportSummary {
  id: number;
  file_name: string;
  section_tipo: string | null;
  username: string | null;
  started_at: string;
  status: 'running' | 'done' | 'failed';
  undone_at: string | null;
  report: ImportReport | null;
}

type Phase = 'choose' | 'working' | 'tried' | 'done';

const KIND_TEXT = {
  dedalo_csv: 'importKindDedalo',
  mapped_csv: 'importKindMapped',
  matrix_copy: 'importKindCopy',
} as const satisfies Record<ImportKind, MessageKey>;

const isRelation = (e: ContextEntry) => Array.isArray(e.target_sections) && e.target_sections.length > 0;
const targetsOf = (e: ContextEntry) => (e.target_sections ?? []) as { tipo: string; label: string }[];

export class DdImport extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host { display: block; max-width: 70rem; }
      h1 { margin: 0 0 0.5rem; font-size: 1.5rem; }
      h2 { font-size: 1.15rem; margin: 1.25rem 0 0.5rem; }
      .card { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem; margin: 0.75rem 0; }
      .fields { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 0.75rem 1.25rem; }
      .fields label { display: flex; flex-direction: column; gap: 0.25rem; font-weight: 600; }
      .fields label span.muted { font-weight: 400; font-size: 0.9em; }
      .check { display: flex; gap: 0.4rem; align-items: center; margin: 0.5rem 0; }
      .table-wrap { overflow-x: auto; }
      td select { min-width: 10rem; }
      td.col { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
      .card > h2:first-child { margin-top: 0.25rem; }
      .table-wrap + .fields { margin-top: 0.75rem; }
      .fields select { max-width: 26rem; }
      /* On a phone each column of the file is a block: its name, then its choices, full width. */
      @media (max-width: 640px) {
        table.mapping thead { display: none; }
        table.mapping tr { display: block; padding: 0.5rem 0; border-bottom: 1px solid var(--line); }
        table.mapping td { display: block; border: 0; padding: 0.15rem 0; }
        table.mapping td.col { font-weight: 600; }
        table.mapping td select { width: 100%; }
        table.mapping td:empty { display: none; }
      }
      .actions { display: flex; gap: 0.6rem; flex-wrap: wrap; align-items: center; margin-top: 0.75rem; }
      .counts { display: flex; gap: 0.5rem 1.5rem; flex-wrap: wrap; margin: 0.5rem 0; padding: 0; list-style: none; }
      .counts li { display: flex; flex-direction: column; }
      .counts strong { font-size: 1.4rem; }
      .counts .refused strong { color: var(--bad); }
      progress { width: min(28rem, 100%); height: 1.1rem; }
      td.line { width: 4rem; white-space: nowrap; }
      ul.why { margin: 0; padding-left: 1.1rem; }
      a.download { font-weight: 600; }
      .row h3 { margin: 0.75rem 0 0.5rem; }
      .spacer { flex: 1; }
      tr.refused { background: #fdf6f5; }
    `,
  ];
  static override properties = {
    session: { attribute: false },
    section: {},
    importId: { type: Number },
    summary: { state: true },
    file: { state: true },
    detected: { state: true },
    elements: { state: true },
    choices: { state: true },
    idColumn: { state: true },
    textLang: { state: true },
    allOrNothing: { state: true },
    keyFields: { state: true },
    phase: { state: true },
    progress: { state: true },
    report: { state: true },
    error: { state: true },
    undone: { state: true },
    undoConflict: { state: true },
    onlyRefused: { state: true },
  };
  declare session: Session;
  declare section: string;
  /** `#/imported/<id>`: the page shows that import's stored report (and its undo). */
  declare importId: number;
  /** Who ran the shown import, from what file, when (get_import). */
  declare summary: ImportSummary | undefined;
  declare file: File | undefined;
  declare detected: DetectedFile | undefined;
  declare elements: ContextEntry[];
  declare choices: ColumnChoice[];
  declare idColumn: string;
  declare textLang: string;
  declare allOrNothing: boolean;
  /** Text fields of each related section, for "find the related record by". */
  declare keyFields: Record<string, ContextEntry[]>;
  declare phase: Phase;
  /** Upload progress (0..1); null while the server works (the bar has no end then). */
  declare progress: number | null;
  declare report: ImportReport | undefined;
  declare error: string;
  declare undone: boolean;
  declare undoConflict: string;
  /** The row-by-row list shows only the refused rows. */
  declare onlyRefused: boolean;
  private refusedUrl = '';
  private loadSeq = 0;

  constructor() {
    super();
    this.section = '';
    this.importId = 0;
    this.elements = [];
    this.choices = [];
    this.idColumn = '';
    this.textLang = '';
    this.allOrNothing = false;
    this.keyFields = {};
    this.phase = 'choose';
    this.progress = null;
    this.error = '';
    this.undone = false;
    this.undoConflict = '';
    this.onlyRefused = false;
  }

  override disconnectedCallback() {
    if (this.refusedUrl) URL.revokeObjectURL(this.refusedUrl);
    super.disconnectedCallback();
  }

  override updated(changed: Map<string, unknown>) {
    if (changed.has('section')) void this.loadElements();
    if (changed.has('importId') && this.importId > 0) void this.loadImport();
  }

  /** An import done earlier (or just now): its stored report, and whether it was undone. */
  private async loadImport() {
    const id = this.importId;
    try {
      const answer = await this.session.api.call<ImportSummary>({
        dd_api: 'dd_import_api',
        action: 'get_import',
        options: { import_id: id },
      });
      if (id !== this.importId) return;
      this.summary = answer.data;
      this.undone = answer.data.undone_at !== null;
      if (answer.data.report) this.showReport(answer.data.report);
      this.phase = 'done';
    } catch (err) {
      this.error = err instanceof ApiError ? err.message : t('importNotRead');
    }
  }

  private showReport(report: ImportReport) {
    if (this.refusedUrl) URL.revokeObjectURL(this.refusedUrl);
    this.refusedUrl = report.refused_csv
      ? URL.createObjectURL(new Blob([report.refused_csv], { type: 'text/csv;charset=utf-8' }))
      : '';
    this.report = report;
  }

  /** The sections a file may be imported into: every section of the menu but the ontology's. */
  private get sections() {
    return this.session.menu.filter((n) => n.model === 'section' && !isOntologySection(n.tipo));
  }

  private async loadElements() {
    const seq = ++this.loadSeq;
    this.elements = [];
    this.keyFields = {};
    if (!this.section) return;
    try {
      const answer = await this.session.api.call<ContextEntry[]>({
        action: 'get_section_elements_context',
        options: { section_tipo: this.section },
      });
      if (seq !== this.loadSeq) return;
      this.elements = answer.data.filter(
        (e) => e.type === 'component' && !NOT_IMPORTED.has(e.model) && e.model_not_implemented !== true,
      );
      this.autoMap();
      for (const e of this.elements.filter(isRelation))
        for (const s of targetsOf(e)) void this.loadKeyFields(s.tipo);
    } catch (err) {
      if (seq === this.loadSeq) this.error = err instanceof ApiError ? err.message : t('importNotRead');
    }
  }

  private async loadKeyFields(sectionTipo: string) {
    if (this.keyFields[sectionTipo]) return;
    this.keyFields = { ...this.keyFields, [sectionTipo]: [] };
    try {
      const answer = await this.session.api.call<ContextEntry[]>({
        action: 'get_section_elements_context',
        options: { section_tipo: sectionTipo },
      });
      const texts = answer.data.filter(
        (e) => e.type === 'component' && ['component_input_text', 'component_email'].includes(e.model),
      );
      this.keyFields = { ...this.keyFields, [sectionTipo]: texts };
    } catch {
      // A related section the user cannot read: matched by id only.
    }
  }

  private async onFile(e: Event) {
    const file = (e.target as HTMLInputElement).files?.[0];
    this.resetResult();
    this.file = file;
    this.detected = undefined;
    if (!file) return;
    const head = new TextDecoder('utf-8').decode(await file.slice(0, HEAD_BYTES).arrayBuffer());
    this.detected = detectFile(head);
    // A file named after a section (`oh1.csv`, as the export names it) chooses it.
    const named = file.name.replace(/\.[^.]*$/, '');
    if (!this.section && this.sections.some((s) => s.tipo === named)) this.section = named;
    this.autoMap();
  }

  /** Each column takes the field whose label (or tipo) it is; a column of ids is the id column. */
  private autoMap() {
    const columns = this.detected?.columns ?? [];
    const lang = this.session.dataLang;
    this.textLang ||= lang;
    this.choices = columns.map((name) => {
      const key = looseText(name);
      const found = this.elements.find((e) => looseText(String(e.label ?? '')) === key || e.tipo === name);
      return { tipo: found?.tipo ?? '', lang, match: 'id' };
    });
    this.idColumn = columns.find((c) => ['section_id', 'id'].includes(looseText(c))) ?? '';
  }

  private resetResult() {
    this.report = undefined;
    this.error = '';
    this.phase = 'choose';
    this.undone = false;
    this.undoConflict = '';
    if (this.refusedUrl) URL.revokeObjectURL(this.refusedUrl);
    this.refusedUrl = '';
  }

  private setChoice(index: number, patch: Partial<ColumnChoice>) {
    this.resetResult();
    this.choices = this.choices.map((c, i) => (i === index ? { ...c, ...patch } : c));
  }

  private element(tipo: string): ContextEntry | undefined {
    return this.elements.find((e) => e.tipo === tipo);
  }

  /** The mapping file the server reads (docs/import-export.md, "Mapping file"). */
  private mapping(): Record<string, unknown> {
    const columns: Record<string, unknown> = {};
    (this.detected?.columns ?? []).forEach((name, i) => {
      const choice = this.choices[i];
      if (!choice?.tipo || name === this.idColumn) return;
      const el = this.element(choice.tipo);
      const column: Record<string, unknown> = { tipo: choice.tipo };
      if (el?.translatable === true) column.lang = choice.lang;
      if (el && isRelation(el)) {
        const [by, section, component] = choice.match.split(':');
        column.match =
          by === 'key'
            ? { by: 'key', section, component }
            : { by: 'id', section: section ?? targetsOf(el)[0]!.tipo };
      }
      columns[name] = column;
    });
    return {
      section_tipo: this.section,
      lang: this.textLang,
      ...(this.idColumn ? { id_column: this.idColumn } : {}),
      columns,
    };
  }

  /** Why the import cannot be tried yet, or ''. */
  private missing(): string {
    if (!this.file || !this.detected) return t('importNoFile');
    if (this.detected.kind !== 'matrix_copy' && !this.section) return t('importNoSection');
    if (this.detected.kind === 'mapped_csv' && !this.choices.some((c) => c.tipo))
      return t('importNeedMapping');
    return '';
  }

  /** The file for the request: its text when small (checked as UTF-8 here), else an upload. */
  private async fileOptions(file: File): Promise<Record<string, unknown>> {
    if (file.size <= INLINE_BYTES) {
      let content: string;
      try {
        content = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
      } catch {
        throw new ApiError(t('importNotUtf8'), 'client.not_utf8', 400);
      }
      return { content, file_name: file.name };
    }
    this.progress = 0;
    const uploaded = await uploadFile(this.session.api, file, 'document', (f) => {
      this.progress = f;
    });
    this.progress = null;
    return { upload: { key_dir: 'document', file_name: uploaded.name }, file_name: file.name };
  }

  private async run(dryRun: boolean) {
    const file = this.file;
    const detected = this.detected;
    if (!file || !detected || this.missing()) return;
    if (!dryRun && !(await this.renderRoot.querySelector<DdConfirmDialog>('dd-confirm-dialog.run')!.ask()))
      return;
    this.resetResult();
    this.phase = 'working';
    this.progress = null;
    try {
      const options: Record<string, unknown> = {
        ...(await this.fileOptions(file)),
        kind: detected.kind,
        dry_run: dryRun,
        all_or_nothing: this.allOrNothing,
      };
      if (detected.kind !== 'matrix_copy') options.section_tipo = this.section;
      if (detected.kind === 'dedalo_csv') options.lang = this.textLang;
      if (detected.kind === 'mapped_csv') options.mapping = this.mapping();
      this.progress = null;
      const answer = await this.session.api.call<ImportReport>({
        dd_api: 'dd_import_api',
        action: 'import_records',
        options,
      });
      this.showReport(answer.data);
      this.phase = dryRun ? 'tried' : 'done';
      if (!dryRun && answer.data.import_id !== null) {
        if (answer.data.written) {
          this.session.announce(t('importDone', { id: answer.data.import_id }));
          // Imported users or profiles (or a thesaurus installed) may change what the menu offers.
          void this.session.refreshMenu();
        }
        // The result has an address of its own: back from the list, or a reload, finds it again.
        navigate({ name: 'imported', id: answer.data.import_id });
      }
    } catch (err) {
      this.phase = 'choose';
      this.error = err instanceof ApiError ? err.message : t('importFailed');
    } finally {
      this.progress = null;
    }
  }

  private async undo(force = false) {
    const id = this.report?.import_id;
    if (id === null || id === undefined) return;
    if (!force && !(await this.renderRoot.querySelector<DdConfirmDialog>('dd-confirm-dialog.undo')!.ask()))
      return;
    this.undoConflict = '';
    try {
      await this.session.api.call({
        dd_api: 'dd_import_api',
        action: 'undo_import',
        options: { import_id: id, ...(force ? { force: true } : {}) },
      });
      this.undone = true;
      this.session.announce(t('importUndone', { id }));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'import.undo_conflict') this.undoConflict = err.message;
      else this.session.announce(err instanceof ApiError ? err.message : t('importFailed'), 'error');
    }
  }

  private renderMappedColumns(columns: string[]) {
    const langs = this.session.langs;
    const fieldLabel = (e: ContextEntry) => `${e.label ?? e.tipo}`;
    return html`<div class="table-wrap"><table class="mapping">
      <caption class="visually-hidden">${t('importColumns')}</caption>
      <thead><tr><th scope="col">${t('importColumn')}</th><th scope="col">${t('importField')}</th>
        <th scope="col">${t('importLanguageOrMatch')}</th></tr></thead>
      <tbody>${columns.map((name, i) => {
        const choice = this.choices[i] ?? { tipo: '', lang: this.textLang, match: 'id' };
        const el = this.element(choice.tipo);
        const isId = name === this.idColumn;
        const fieldSelect = isId
          ? html`<span class="muted">${t('importRecordId')}</span>`
          : html`<select aria-label=${t('importFieldOf', { column: name })}
              @change=${(e: Event) => this.setChoice(i, { tipo: (e.target as HTMLSelectElement).value, match: 'id' })}>
              <option value="" ?selected=${!choice.tipo}>${t('importNotImported')}</option>
              ${this.elements.map((e) => html`<option value=${e.tipo} ?selected=${e.tipo === choice.tipo}>${fieldLabel(e)}</option>`)}
            </select>`;
        let extra: TemplateResult | string = '';
        if (!isId && el?.translatable === true) {
          extra = html`<select aria-label=${t('importLanguageOf', { column: name })}
            @change=${(e: Event) => this.setChoice(i, { lang: (e.target as HTMLSelectElement).value })}>
            ${langs.map((l) => html`<option value=${l.value} ?selected=${l.value === choice.lang}>${l.label}</option>`)}
          </select>`;
        } else if (!isId && el && isRelation(el)) {
          const keys = targetsOf(el).flatMap((s) =>
            (this.keyFields[s.tipo] ?? []).map((k) => ({
              value: `key:${s.tipo}:${k.tipo}`,
              label: t('importMatchKey', { field: k.label ?? k.tipo, section: s.label }),
            })),
          );
          extra = html`<select aria-label=${t('importMatchOf', { column: name })}
            @change=${(e: Event) => this.setChoice(i, { match: (e.target as HTMLSelectElement).value })}>
            ${
              targetsOf(el).length > 1
                ? targetsOf(el).map(
                    (s, n) =>
                      html`<option value=${`id:${s.tipo}`} ?selected=${choice.match === `id:${s.tipo}` || (n === 0 && choice.match === 'id')}>${t('importMatchIdIn', { section: s.label })}</option>`,
                  )
                : html`<option value="id" ?selected=${choice.match === 'id'}>${t('importMatchId')}</option>`
            }
            ${keys.map((k) => html`<option value=${k.value} ?selected=${k.value === choice.match}>${k.label}</option>`)}
          </select>`;
        }
        return html`<tr><td class="col">${name}</td><td>${fieldSelect}</td><td>${extra}</td></tr>`;
      })}</tbody>
    </table></div>
    <div class="fields">
      <label>${t('importIdColumn')}
        <select @change=${(e: Event) => {
          this.resetResult();
          this.idColumn = (e.target as HTMLSelectElement).value;
        }}>
          <option value="" ?selected=${!this.idColumn}>${t('importIdColumnNone')}</option>
          ${columns.map((c) => html`<option value=${c} ?selected=${c === this.idColumn}>${c}</option>`)}
        </select>
      </label>
    </div>`;
  }

  private renderDedaloColumns(columns: string[]) {
    return html`<div class="table-wrap"><table>
      <caption class="visually-hidden">${t('importColumns')}</caption>
      <thead><tr><th scope="col">${t('importColumn')}</th><th scope="col">${t('importField')}</th></tr></thead>
      <tbody>${columns.map((name) => {
        const tipo = tipoOfHeader(name);
        const el = this.element(tipo);
        const what =
          name === 'section_id'
            ? html`<span class="muted">${t('importRecordId')}</span>`
            : name === 'section_tipo'
              ? html`<span class="muted">${t('importSectionColumn')}</span>`
              : el
                ? html`${el.label ?? tipo}`
                : html`<span class="error">${t('importUnknownColumn')}</span>`;
        return html`<tr><td class="col">${name}</td><td>${what}</td></tr>`;
      })}</tbody>
    </table></div>
    <div class="fields">
      <label>${t('importTextLanguage')}
        <select @change=${(e: Event) => {
          this.resetResult();
          this.textLang = (e.target as HTMLSelectElement).value;
        }}>
          ${this.session.langs.map((l) => html`<option value=${l.value} ?selected=${l.value === this.textLang}>${l.label}</option>`)}
        </select>
      </label>
    </div>`;
  }

  private renderColumns() {
    const d = this.detected;
    if (!d) return '';
    return html`<section class="card" aria-labelledby="columns-h">
      <h2 id="columns-h">${t('importColumns')}</h2>
      <p>${t(KIND_TEXT[d.kind])}</p>
      ${
        d.kind === 'matrix_copy'
          ? ''
          : !this.section
            ? html`<p class="notice">${t('importNoSection')}</p>`
            : d.kind === 'dedalo_csv'
              ? this.renderDedaloColumns(d.columns)
              : this.renderMappedColumns(d.columns)
      }
    </section>`;
  }

  private renderProgress() {
    if (this.phase !== 'working') return '';
    const uploading = this.progress !== null;
    const text = uploading
      ? t('importUploading', { pct: Math.round((this.progress ?? 0) * 100) })
      : t('importWorking');
    return html`<div class="card" role="status">
      <p>${text}</p>
      ${uploading ? html`<progress max="1" .value=${this.progress ?? 0} aria-label=${text}></progress>` : html`<progress aria-label=${text}></progress>`}
    </div>`;
  }

  private renderReport() {
    const r = this.report;
    if (!r || this.phase === 'working') return '';
    const byLine = new Map<number, ImportRefusal[]>();
    for (const x of r.refusals) byLine.set(x.line, [...(byLine.get(x.line) ?? []), x]);
    // Every row by its line: what it did (or would do), or why it was refused.
    const done = new Map((r.outcomes ?? []).map((o) => [o.line, o]));
    const lines = [...new Set([...(this.onlyRefused ? [] : done.keys()), ...byLine.keys()])].sort(
      (a, b) => a - b,
    );
    const would = r.dry_run || !r.written;
    const resultOf = (o: ImportOutcome) => {
      // One row's words (singular where a language makes the count's words plural).
      const word =
        o.outcome === 'created'
          ? would
            ? t('importRowWouldCreate')
            : t('importRowCreated')
          : o.outcome === 'updated'
            ? would
              ? t('importRowWouldUpdate')
              : t('importRowUpdated')
            : t('importRowUnchanged');
      // A record a dry run "created" was rolled back: it has no page to open.
      if (would || this.undone || o.outcome === 'unchanged') return word;
      return html`${word} · <a href=${hrefOf({ name: 'edit', section: o.section_tipo, id: o.section_id })}>${t('importRecord', { id: o.section_id })}</a>`;
    };
    const sectionLabel = r.section_tipo ? this.session.labelOf(r.section_tipo) : '';
    const heading = r.dry_run ? t('importWouldDo') : t('importDid', { id: r.import_id ?? '' });
    return html`<section class="card" aria-labelledby="report-h">
      <h2 id="report-h">${heading}</h2>
      ${r.dry_run ? html`<p class="notice">${t('importDryNote')}</p>` : ''}
      ${!r.dry_run && !r.written ? html`<p class="alert">${t('importNotWritten')}</p>` : ''}
      ${r.failure ? html`<p class="alert" role="alert">${t('importFailedAt', { line: r.failure.line, message: r.failure.message })}</p>` : ''}
      ${r.installed_tlds?.length ? html`<p>${t('importInstalled', { list: r.installed_tlds.join(', ') })}</p>` : ''}
      <ul class="counts">
        <li><span>${t('importRows')}</span><strong>${r.rows}</strong></li>
        <li><span>${r.dry_run ? t('importWouldCreate') : t('importCreated')}</span><strong>${r.counts.created}</strong></li>
        <li><span>${r.dry_run ? t('importWouldUpdate') : t('importUpdated')}</span><strong>${r.counts.updated}</strong></li>
        <li><span>${t('importUnchanged')}</span><strong>${r.counts.unchanged}</strong></li>
        <li class="refused"><span>${t('importRefused')}</span><strong>${r.counts.refused}</strong></li>
      </ul>
      ${
        r.ignored_columns.length > 0
          ? html`<p class="muted">${t('importIgnored', { list: r.ignored_columns.join(', ') })}</p>`
          : ''
      }
      <div class="row">
        <h3>${t('importRowByRow')}</h3>
        <span class="spacer"></span>
        <label class="check"><input type="checkbox" .checked=${this.onlyRefused}
          @change=${(e: Event) => {
            this.onlyRefused = (e.target as HTMLInputElement).checked;
          }} />${t('importOnlyRefused')}</label>
      </div>
      ${byLine.size === 0 ? html`<p>${t('importNoRefused')}</p>` : ''}
      ${
        lines.length === 0
          ? ''
          : html`<div class="table-wrap"><table class="rows">
            <caption class="visually-hidden">${t('importRowByRow')}</caption>
            <thead><tr><th scope="col">${t('importLine')}</th><th scope="col">${t('importResult')}</th></tr></thead>
            <tbody>${lines.map((line) => {
              const refused = byLine.get(line);
              const o = done.get(line);
              return refused
                ? html`<tr class="refused"><td class="line">${line}</td><td><strong class="error">${t('importRefusedRow')}</strong>
                    <ul class="why">${refused.map(
                      (x) =>
                        html`<li>${x.header ? html`<strong>${x.header}</strong>: ` : ''}${x.message}</li>`,
                    )}</ul></td></tr>`
                : html`<tr><td class="line">${line}</td><td>${o ? resultOf(o) : ''}</td></tr>`;
            })}</tbody>
          </table></div>`
      }
      ${r.refusals_truncated || r.outcomes_truncated ? html`<p class="muted">${t('importTruncated')}</p>` : ''}
      ${
        this.refusedUrl
          ? html`<p><a class="download" href=${this.refusedUrl} download=${`${r.file_name.replace(/\.[^.]*$/, '')}-refused.csv`}>${t('importRefusedDownload')}</a></p>`
          : ''
      }
      ${
        !r.dry_run && r.written
          ? html`<div class="actions">
            ${r.section_tipo ? html`<a href=${hrefOf({ name: 'list', section: r.section_tipo, offset: 0 })}>${t('importOpenList', { label: sectionLabel })}</a>` : ''}
            ${
              this.session.isGlobalAdmin && r.import_id !== null
                ? this.undone
                  ? html`<span role="status">${t('importUndone', { id: r.import_id })}</span>`
                  : html`<button class="danger" @click=${() => void this.undo()}>${t('importUndo')}</button>`
                : ''
            }
          </div>
          ${
            this.undoConflict
              ? html`<p class="alert" role="alert">${this.undoConflict}</p>
                <button class="danger" @click=${() => void this.undo(true)}>${t('importUndoForce')}</button>`
              : ''
          }`
          : ''
      }
    </section>`;
  }

  /** `#/imported/<id>`: the stored report of an import, with Undo for global administrators. */
  private renderImported() {
    const run = this.summary;
    return html`<div lang=${uiLang()}>
      <h1>${t('importTitle')}</h1>
      ${
        run
          ? html`<p class="muted">${t('importRunBy', {
              file: run.file_name,
              user: run.username ?? '',
              when: new Date(run.started_at).toLocaleString(uiLang()),
            })}</p>`
          : ''
      }
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : ''}
      ${this.renderReport()}
      <p><a href=${hrefOf(run?.section_tipo ? { name: 'import', section: run.section_tipo } : { name: 'import' })}>${t('importAnother')}</a></p>
      <dd-confirm-dialog class="undo" danger confirm-label=${t('importUndo')} heading=${t('importUndoTitle', { id: this.importId })}
        .body=${html`<p>${t('importUndoBody')}</p>`}></dd-confirm-dialog>
    </div>`;
  }

  override render() {
    if (this.importId > 0) return this.renderImported();
    const missing = this.missing();
    const working = this.phase === 'working';
    const d = this.detected;
    return html`<div lang=${uiLang()}>
      <h1>${t('importTitle')}</h1>
      <p class="muted">${t('importIntro')}</p>
      <section class="card" aria-labelledby="file-h">
        <h2 id="file-h">${t('importFileAndSection')}</h2>
        <div class="fields">
          <label>${t('importFile')}
            <input type="file" accept=".csv,.txt,.tsv,.copy,.sql,text/csv,text/plain" ?disabled=${working} @change=${this.onFile} />
          </label>
          <label>${t('importSection')}
            <select ?disabled=${working || d?.kind === 'matrix_copy'} @change=${(e: Event) => {
              this.resetResult();
              this.section = (e.target as HTMLSelectElement).value;
            }}>
              <option value="" ?selected=${!this.section}>${t('importChooseSection')}</option>
              ${this.sections.map((s) => html`<option value=${s.tipo} ?selected=${s.tipo === this.section}>${s.label}</option>`)}
            </select>
            ${d?.kind === 'matrix_copy' ? html`<span class="muted">${t('importCopySections')}</span>` : ''}
          </label>
        </div>
      </section>
      ${this.renderColumns()}
      ${
        d
          ? html`<section class="card" aria-labelledby="run-h">
          <h2 id="run-h">${t('importRunHeading')}</h2>
          <label class="check"><input type="checkbox" .checked=${this.allOrNothing} ?disabled=${working}
            @change=${(e: Event) => {
              this.resetResult();
              this.allOrNothing = (e.target as HTMLInputElement).checked;
            }} />${t('importAllOrNothing')}</label>
          ${missing ? html`<p class="muted">${missing}</p>` : ''}
          <div class="actions">
            <button ?disabled=${!!missing || working} @click=${() => void this.run(true)}>${t('importTry')}</button>
            <button class="primary" ?disabled=${!!missing || working || this.phase === 'done'} @click=${() => void this.run(false)}>${t('importRun')}</button>
          </div>
        </section>`
          : ''
      }
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : ''}
      ${this.renderProgress()}
      ${this.renderReport()}
      <dd-confirm-dialog class="run" confirm-label=${t('importRun')} heading=${t('importRunTitle')}
        .body=${html`<p>${t('importRunBody', { file: this.file?.name ?? '', section: this.section ? this.session.labelOf(this.section) : '' })}</p>`}></dd-confirm-dialog>
      <dd-confirm-dialog class="undo" danger confirm-label=${t('importUndo')} heading=${t('importUndoTitle', { id: this.report?.import_id ?? '' })}
        .body=${html`<p>${t('importUndoBody')}</p>`}></dd-confirm-dialog>
    </div>`;
  }
}
customElements.define('dd-import', DdImport);
