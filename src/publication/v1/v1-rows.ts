/**
 * The v1 row object (docs/publication-v1.md): `table` first, then the selected columns in order, never `id`;
 * values raw (relation columns stay JSON text). Numbers are native JSON numbers like the latest
 * upstream, or strings like v5 and early v6 when V1_NUMBERS_AS_STRINGS is set (docs/publication-v1.md).
 */
import type { Row } from '../db/types.js';

export type V1Row = Record<string, unknown>;

export function shapeRow(table: string, row: Row, numbersAsStrings: boolean): V1Row {
  const out: V1Row = { table };
  for (const [key, value] of Object.entries(row)) {
    if (key === 'id' || key === 'table') continue;
    out[key] =
      numbersAsStrings && (typeof value === 'number' || typeof value === 'bigint') ? String(value) : value;
  }
  return out;
}

/** A stored relation value (JSON text or already decoded) as a list of ids or locators. */
export function relationItems(value: unknown): unknown[] {
  let v = value;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t === '') return [];
    try {
      v = JSON.parse(t);
    } catch {
      return t.split(',').map((s) => s.trim());
    }
  }
  if (Array.isArray(v)) return v;
  if (v === null || v === undefined || v === '') return [];
  return [v];
}

/** The section_id an item of a relation column points at (an id or a locator). */
export function relationId(item: unknown): string | undefined {
  if (typeof item === 'number') return String(item);
  if (typeof item === 'string') return item.trim() === '' ? undefined : item.trim();
  if (item !== null && typeof item === 'object' && 'section_id' in item) {
    const id = (item as { section_id: unknown }).section_id;
    if (typeof id === 'number' || (typeof id === 'string' && id !== '')) return String(id);
  }
  return undefined;
}
