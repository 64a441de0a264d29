/**
 * The read answer's shapes (shared with the server's read-types) and the small lookups every
 * screen does on them: the section's show columns, a record's item for a column, plain text of a
 * value for lists and history.
 */
import type { ContextEntry, DataItem, Ddo, Pagination } from '../../../src/work/read/read-types.js';
import { dateText, type MomentParts, momentPartsText } from './date-text.js';

export type { ContextEntry, DataItem, Ddo, Pagination };

export interface ReadResult {
  context: ContextEntry[];
  data: DataItem[];
}

export interface Locator {
  id?: number;
  type?: string;
  section_tipo: string;
  section_id: number | string;
  from_component_tipo?: string;
  paginated_key?: number;
}

export interface DateParts {
  year?: number;
  month?: number;
  day?: number;
}

/** The `show.ddo_map` of a context's main request_config (what the server will resolve). */
export function showDdos(context: ContextEntry | undefined): Ddo[] {
  const configs = (context?.request_config ?? []) as { type?: string; show?: { ddo_map?: Ddo[] } }[];
  return configs.find((c) => c.type === 'main')?.show?.ddo_map ?? [];
}

export function searchDdos(context: ContextEntry | undefined): Ddo[] {
  const configs = (context?.request_config ?? []) as { type?: string; search?: { ddo_map?: Ddo[] } }[];
  return configs.find((c) => c.type === 'main')?.search?.ddo_map ?? [];
}

export function itemOf(
  data: readonly DataItem[],
  tipo: string,
  sectionTipo: string,
  sectionId: number | string,
  parentTipo?: string,
): DataItem | undefined {
  return data.find(
    (d) =>
      d.tipo === tipo &&
      d.section_tipo === sectionTipo &&
      String(d.section_id) === String(sectionId) &&
      (parentTipo === undefined || d.parent_tipo === undefined || d.parent_tipo === parentTipo),
  );
}

export function formatDate(parts: DateParts | undefined): string {
  if (!parts || parts.year === undefined) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  let text = String(parts.year);
  if (parts.month !== undefined) text += `/${pad(parts.month)}`;
  if (parts.month !== undefined && parts.day !== undefined) text += `/${pad(parts.day)}`;
  return text;
}

/** `2026/11/24 19:32:03` from date parts with a clock time (the day alone when it has none). */
export function momentText(
  parts: (DateParts & { hour?: number; minute?: number; second?: number }) | undefined,
): string {
  const day = formatDate(parts);
  if (!parts || parts.hour === undefined) return day;
  const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${day} ${pad(parts.hour)}:${pad(parts.minute)}:${pad(parts.second)}`;
}

/** `1990`, `1990-05`, `1990-05-17` (or with /) to date parts; undefined when it is not a date. */
export function parseDateInput(text: string): DateParts | undefined {
  const m = /^\s*(-?\d{1,5})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?\s*$/.exec(text);
  if (!m) return undefined;
  const parts: DateParts = { year: Number(m[1]) };
  if (m[2]) parts.month = Number(m[2]);
  if (m[3]) parts.day = Number(m[3]);
  if (parts.month !== undefined && (parts.month < 1 || parts.month > 12)) return undefined;
  if (parts.day !== undefined && (parts.day < 1 || parts.day > 31)) return undefined;
  return parts;
}

function isLocator(v: unknown): v is Locator {
  return typeof v === 'object' && v !== null && 'section_tipo' in v && 'section_id' in v;
}

/** A one-line text of an item's entries (literal values, dates, media names; locators by id). */
export function entryText(entry: unknown): string {
  if (entry === null || entry === undefined) return '';
  if (typeof entry !== 'object') return String(entry);
  const e = entry as Record<string, unknown>;
  if ('start' in e) {
    // In the reader's locale (date-text.ts); a stored moment (with a time) with its time.
    const start = momentPartsText(e.start as MomentParts);
    const end = dateText(e.end as DateParts | undefined);
    return end ? `${start} – ${end}` : start;
  }
  if ('value' in e) {
    const v = e.value;
    if (typeof v === 'string' || typeof v === 'number') return String(v);
    if (v && typeof v === 'object' && 'name' in v) return String((v as { name: unknown }).name);
    // A moment (activity rows): its date and, when known, its time of day.
    if (v && typeof v === 'object' && 'start' in v)
      return momentPartsText((v as { start: MomentParts }).start);
    if ('tipo' in e) return `${String(e.tipo)}: ${String(v)}`;
    // Never raw JSON on screen: a structured value this client cannot word is named as such.
    return v === null || v === undefined ? '' : '(structured value)';
  }
  if (isLocator(e)) return `${e.section_tipo} ${e.section_id}`;
  return '';
}

export function itemText(item: DataItem | undefined): string {
  return (item?.entries ?? []).map(entryText).filter(Boolean).join(' · ');
}

/**
 * Text of a portal's linked records in a list or edit screen: for each locator, the values of the
 * portal's sub-columns (their items come in the same answer, keyed by parent_tipo); '' when
 * none has a value, for the caller to name the record otherwise.
 */
export function linkedText(
  data: readonly DataItem[],
  portal: DataItem,
  columns: readonly Ddo[],
  locator: Locator,
): string {
  const parts = columns
    .filter((c) => c.section_tipo === locator.section_tipo)
    .map((c) => itemText(itemOf(data, c.tipo, locator.section_tipo, locator.section_id, portal.tipo)))
    .filter(Boolean);
  return parts.join(' ');
}
