/**
 * The rules of Dédalo CSV that the reader and the writer share, so a file this archive exports is
 * read back to the same values (docs/import-export.md, "Collection files"):
 *
 * - the header row: `section_id`, optionally `section_tipo`, then one column per component, named
 *   by its tipo alone or as `tipo (label)`; a second row of labels may follow and is skipped;
 * - the separator, `;` (Dédalo's) or `,`, chosen by which one the header row uses;
 * - per value kind, the text of a cell (`encodeCell`) and how a cell's text is split into values
 *   per language (`decodeCell`). Checking each value against its component (lengths, calendar
 *   dates, locator targets) is the reader's job, with the save path's own validators.
 *
 * A cell is plain text or JSON. JSON is recognised only where it can be meant: a cell whose first
 * non-space character is `{` or `[`. For a text component such a cell that is not one of the
 * JSON shapes below is read as the plain text it is; for the other kinds it is refused.
 */
import { type ValueKind, valueKindOf } from '../components/component-values.js';
import { isComponentModel } from '../ontology/component-models.js';
import { NO_LANG } from '../ontology/load-ontology.js';
import { LANG_PATTERN, TIPO_PATTERN } from '../ontology/ontology-schema.js';

/** Dédalo writes `;`; a spreadsheet saved as CSV often writes `,`. */
export type CsvSeparator = ';' | ',';
export const DEFAULT_SEPARATOR: CsvSeparator = ';';

export const SECTION_ID_COLUMN = 'section_id';
export const SECTION_TIPO_COLUMN = 'section_tipo';

/**
 * How a column's cells are encoded: the value kind of its component model, or `stored` for a
 * component whose model is not implemented here (kept as its stored items, untouched).
 */
export type CellKind = ValueKind | 'stored';

export function cellKindOf(model: string): CellKind {
  return isComponentModel(model) ? valueKindOf(model) : 'stored';
}

// ---------------------------------------------------------------------------------------------
// Header

export type HeaderColumn =
  | { kind: 'section_id' }
  | { kind: 'section_tipo' }
  | { kind: 'component'; tipo: string; label?: string }
  /** Not a tipo (Dédalo's metadata columns, a typo): listed, its cells ignored. */
  | { kind: 'other'; name: string };

const TIPO_HEADER = new RegExp(`^(${TIPO_PATTERN.source.slice(1, -1)})(?:\\s*\\((.*)\\))?$`, 's');

/** One header cell: `section_id`, `section_tipo`, `tipo` or `tipo (label)` (spaces around ignored). */
export function parseHeaderCell(text: string): HeaderColumn {
  const name = text.trim();
  if (name === SECTION_ID_COLUMN) return { kind: 'section_id' };
  if (name === SECTION_TIPO_COLUMN) return { kind: 'section_tipo' };
  const match = TIPO_HEADER.exec(name);
  if (!match) return { kind: 'other', name };
  const label = match[2]?.trim();
  return label ? { kind: 'component', tipo: match[1]!, label } : { kind: 'component', tipo: match[1]! };
}

/** The header cell the writer puts over a component's column. */
export function headerCell(tipo: string, label?: string): string {
  return label ? `${tipo} (${label})` : tipo;
}

/**
 * The separator of a file from the start of its text: the one of `;` and `,` that appears more
 * often outside quotes in the first row (`;` when neither does, or on a tie: Dédalo's).
 */
export function detectSeparator(text: string): CsvSeparator {
  let semicolons = 0;
  let commas = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c === ';') semicolons++;
    else if (!quoted && c === ',') commas++;
  }
  return commas > semicolons ? ',' : ';';
}

/**
 * Whether the row after the header is a row of labels (Dédalo's export can write one): its
 * `section_id` cell is not a record id, and every filled component cell is one of that
 * component's labels (in any language) or the label its header gives.
 */
export function isLabelRow(
  cells: readonly string[],
  columns: readonly HeaderColumn[],
  labelsOf: (tipo: string) => readonly string[],
): boolean {
  let labels = 0;
  for (const [i, column] of columns.entries()) {
    const cell = (cells[i] ?? '').trim();
    if (column.kind === 'section_id' && /^\d+$/.test(cell)) return false;
    if (column.kind !== 'component' || cell === '') continue;
    if (cell !== column.label && !labelsOf(column.tipo).some((l) => l.trim() === cell)) return false;
    labels++;
  }
  return labels > 0;
}

// ---------------------------------------------------------------------------------------------
// Cells

/** A cell that could be formula in a spreadsheet. Read as text, never evaluated. */
export const looksLikeFormula = (text: string) => /^[=+\-@]/.test(text);

const looksLikeJson = (text: string) => /^\s*[[{]/.test(text);

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** `{"lg-spa": [...], "lg-eng": [...]}`: every key a language code. */
const isLangObject = (v: unknown): v is Record<string, unknown> =>
  isObject(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => LANG_PATTERN.test(k));

/** Items grouped by their language, languages in the order they first appear. */
function byLanguage(items: readonly unknown[], value: (item: Record<string, unknown>) => unknown) {
  const out: Record<string, unknown[]> = {};
  for (const item of items) {
    const record = isObject(item) ? item : { value: item };
    const lang = typeof record.lang === 'string' ? record.lang : NO_LANG;
    if (!Object.hasOwn(out, lang)) out[lang] = [];
    out[lang]!.push(value(record));
  }
  return out;
}

const onlyNoLang = (items: readonly unknown[]) =>
  items.every((i) => !isObject(i) || i.lang === undefined || i.lang === NO_LANG);

const DATE_PARTS = ['year', 'month', 'day', 'hour', 'minute', 'second', 'ms'] as const;

/** A stored date part without its computed `time` (the reader recomputes it). */
function datePart(raw: unknown): Record<string, unknown> | undefined {
  if (!isObject(raw)) return undefined;
  const out: Record<string, unknown> = {};
  for (const p of DATE_PARTS) if (raw[p] !== undefined && raw[p] !== null) out[p] = raw[p];
  return out;
}

/** A date written as plain text, when it can be: one item, a start of year[-month[-day]] only. */
function plainDate(item: Record<string, unknown>): string | undefined {
  if (item.end !== undefined && item.end !== null) return undefined;
  const start = datePart(item.start);
  if (!start) return undefined;
  const keys = Object.keys(start);
  const { year, month, day } = start;
  if (!keys.every((k) => k === 'year' || k === 'month' || k === 'day')) return undefined;
  if (typeof year !== 'number' || !Number.isInteger(year) || year < 0 || year > 9999) return undefined;
  if (day !== undefined && month === undefined) return undefined;
  const two = (n: unknown) =>
    typeof n === 'number' && Number.isInteger(n) ? String(n).padStart(2, '0') : '';
  let text = String(year).padStart(4, '0');
  if (month !== undefined) text += `-${two(month)}`;
  if (day !== undefined) text += `-${two(day)}`;
  return /^\d{4}(-\d{2}(-\d{2})?)?$/.test(text) ? text : undefined;
}

/**
 * The cell text of a component's stored items (the items of its typed column in a matrix row).
 * No items: an empty cell. Passwords are never written.
 */
export function encodeCell(kind: CellKind, items: readonly unknown[]): string {
  if (items.length === 0 || kind === 'password') return '';
  switch (kind) {
    case 'text': {
      const only = items[0];
      const value = isObject(only) ? only.value : only;
      if (
        items.length === 1 &&
        onlyNoLang(items) &&
        typeof value === 'string' &&
        value.trim() !== '' &&
        !looksLikeJson(value)
      ) {
        return value;
      }
      return JSON.stringify(byLanguage(items, (i) => i.value ?? null));
    }
    case 'number': {
      const only = items[0];
      const value = isObject(only) ? only.value : only;
      if (items.length === 1 && onlyNoLang(items) && typeof value === 'number' && Number.isFinite(value)) {
        return String(value);
      }
      const values = items.map((i) => (isObject(i) ? (i.value ?? null) : i));
      return JSON.stringify(onlyNoLang(items) ? values : byLanguage(items, (i) => i.value ?? null));
    }
    case 'date': {
      const dates = items.filter(isObject).map((i) => {
        const start = datePart(i.start);
        const end = datePart(i.end);
        return end ? { start, end } : { start };
      });
      const plain = items.length === 1 && isObject(items[0]) ? plainDate(items[0]) : undefined;
      return plain ?? JSON.stringify(dates);
    }
    case 'relation':
      return JSON.stringify(
        items.filter(isObject).map((l) => {
          // Dédalo's key order, the record id as a string as Dédalo writes it.
          const { id: _id, type, section_id, section_tipo, from_component_tipo, ...extras } = l;
          return { type, section_id: String(section_id), section_tipo, from_component_tipo, ...extras };
        }),
      );
    case 'security_access':
      return JSON.stringify(
        items.filter(isObject).map(({ tipo, section_tipo, value }) => ({ tipo, section_tipo, value })),
      );
    case 'json':
      return JSON.stringify(byLanguage(items, (i) => i.value ?? null));
    default:
      // media and stored: the items as they are.
      return JSON.stringify(items);
  }
}

/** A cell's values by language; `null` stands for "no language given" (plain text, a bare list). */
export type DecodedCell = { empty: true } | { empty: false; byLang: Map<string | null, unknown[]> };

/** A cell that does not have the shape its kind needs; the reader turns it into a row refusal. */
export class CellFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CellFormatError';
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    // A syntax error, or nesting too deep for the stack: either way not a value.
    return { ok: false, reason: error instanceof SyntaxError ? error.message : 'nested too deeply' };
  }
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === null ? [] : [v]);

function langMap(value: Record<string, unknown>): Map<string | null, unknown[]> {
  return new Map(Object.entries(value).map(([lang, list]) => [lang, asList(list)]));
}

const single = (values: unknown[]) => new Map<string | null, unknown[]>([[null, values]]);

const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const PLAIN_DATE = /^(-?\d{1,6})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/;

export interface DecodeOptions {
  /**
   * A component_filter's project section: a Dédalo 5 project filter object (`{"1": 2}`, project
   * id → 2) becomes locators into it. Without it such an object is refused.
   */
  filterSection?: string;
}

/**
 * Splits a cell's text into values per language, by the shapes each kind accepts:
 *
 * - text, password: plain text, or `{"lg-xxx": [...]}`, or a JSON list of strings;
 * - number: a plain number (`12`, `-3.5`, `1e3`), or a JSON number, list or language object;
 * - date: `YYYY`, `YYYY-MM`, `YYYY-MM-DD` (a negative year is BCE), or JSON date objects
 *   `{"start": {...}, "end": {...}}`, a list of them, or a language object of lists;
 * - relation: a JSON locator or list of locators (`section_id` a string or a number), a language
 *   object of lists, or a project filter object (component_filter);
 * - security_access: a JSON list of `{tipo, section_tipo, value}`;
 * - json: any JSON; a language object gives the values per language, anything else is one value;
 * - media, stored: a JSON list of stored items, or a language object (each value one item).
 *
 * Values are not checked here beyond their shape.
 */
export function decodeCell(kind: CellKind, text: string, options: DecodeOptions = {}): DecodedCell {
  if (text.trim() === '') return { empty: true };
  const json = looksLikeJson(text) ? parseJson(text) : undefined;
  const decoded = (byLang: Map<string | null, unknown[]>): DecodedCell => ({ empty: false, byLang });
  switch (kind) {
    case 'text':
    case 'password': {
      if (json?.ok) {
        if (isLangObject(json.value)) return decoded(langMap(json.value));
        const v = json.value;
        if (Array.isArray(v) && v.every((x) => typeof x === 'string' || x === null))
          return decoded(single(v));
      }
      return decoded(single([text]));
    }
    case 'number': {
      const t = text.trim();
      if (PLAIN_NUMBER.test(t)) return decoded(single([Number(t)]));
      if (!json) {
        throw new CellFormatError(`"${t.slice(0, 40)}" is not a number (write 12, -3.5 or 1e3, with a dot)`);
      }
      break;
    }
    case 'date': {
      const m = PLAIN_DATE.exec(text.trim());
      if (m) {
        const start: Record<string, number> = { year: Number(m[1]) };
        if (m[2] !== undefined) start.month = Number(m[2]);
        if (m[3] !== undefined) start.day = Number(m[3]);
        return decoded(single([{ start }]));
      }
      if (!json) {
        throw new CellFormatError(
          `"${text.trim().slice(0, 40)}" is not a date (write YYYY, YYYY-MM, YYYY-MM-DD or JSON date objects)`,
        );
      }
      if (json.ok && isObject(json.value) && Object.hasOwn(json.value, 'start')) {
        return decoded(single([json.value]));
      }
      break;
    }
    case 'relation': {
      if (!json) throw new CellFormatError('a relation cell is a JSON list of locators');
      if (json.ok && isObject(json.value) && !isLangObject(json.value)) {
        const v = json.value;
        if (Object.hasOwn(v, 'section_tipo') || Object.hasOwn(v, 'section_id')) return decoded(single([v]));
        const keys = Object.keys(v);
        if (keys.length > 0 && keys.every((k) => /^\d{1,10}$/.test(k))) {
          if (!options.filterSection) {
            throw new CellFormatError('a project filter object ({"1": 2}) is only read for a project filter');
          }
          const section = options.filterSection;
          return decoded(single(keys.map((id) => ({ section_tipo: section, section_id: id }))));
        }
        throw new CellFormatError('a relation cell is a JSON list of locators {section_tipo, section_id}');
      }
      break;
    }
    case 'json':
      if (!json) throw new CellFormatError('a JSON component cell must be JSON');
      if (json.ok) return decoded(isLangObject(json.value) ? langMap(json.value) : single([json.value]));
      break;
    default:
      if (!json) throw new CellFormatError(`a ${kind} cell is a JSON list of stored items`);
      break;
  }
  // The JSON shapes every non-text kind shares: a list, or a language object of lists.
  if (!json?.ok) {
    throw new CellFormatError(`the cell is not valid JSON (${json?.ok === false ? json.reason : 'no JSON'})`);
  }
  if (Array.isArray(json.value)) return decoded(single(json.value));
  if (isLangObject(json.value)) return decoded(langMap(json.value));
  if (kind === 'number' && typeof json.value === 'number') return decoded(single([json.value]));
  throw new CellFormatError(`a ${kind} cell holds a list or a language object, not this JSON`);
}
