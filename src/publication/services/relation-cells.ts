/**
 * Reads what a stored relation cell refers to, without touching the database. Published cells
 * come in several shapes (docs/publishing.md): arrays of ids as numbers or numeric
 * strings, locators `{"section_tipo","section_id"}`, links `{"table","section_id"}`, a single
 * id, NULL, and JSON either still as text or already parsed. Anything that is none of these is
 * skipped rather than refused: a cell is data the client cannot change.
 *
 * Values are turned into match keys (a string per distinct value, plus the value to bind) by the
 * kind of the column they are compared with, so `"3"` and `3` meet the same integer row and the
 * comparison is exact on both engines (MariaDB's case-insensitive collations do not leak into
 * which rows a cell gets).
 */
import type { ColumnKind, SqlValue } from '../db/types.js';
import { BOUNDS, TABLE_NAME_PATTERN } from '../query/bounds.js';
import { parseJsonText } from './cell-values.js';

const MAX_ENTRIES = BOUNDS.relations.maxIdsPerCell;
const MAX_TEXT_VALUE = BOUNDS.filters.maxValueLength;
const INTEGER_TEXT = /^\s*-?\d{1,16}\s*$/;
const NUMBER_TEXT = /^\s*-?\d{1,30}(\.\d{1,30})?\s*$/;

export interface MatchKey {
  key: string;
  bind: SqlValue;
}

export interface Locator {
  /** The locator's section_tipo; absent for a bare id. */
  tipo?: string;
  value: unknown;
}

export interface Link {
  table: string;
  value: unknown;
}

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The entries of a cell in stored order, or null for a cell with no relation (NULL or empty
 * text). Only the first BOUNDS.relations.maxIdsPerCell entries count: the spec bounds the ids
 * resolved per cell, and since the cell is stored data rather than input, a longer one is cut
 * instead of failing the request.
 */
export function cellEntries(cell: unknown): unknown[] | null {
  if (cell === null || cell === undefined) return null;
  if (typeof cell === 'string' && cell.trim() === '') return null;
  const value = typeof cell === 'string' ? parseJsonText(cell) : cell;
  const list = Array.isArray(value) ? value : [value];
  return list.length > MAX_ENTRIES ? list.slice(0, MAX_ENTRIES) : list;
}

/** What an entry points at: the entry itself for an id, its section_id for a locator or link. */
export function entryValue(entry: unknown): unknown {
  return isObject(entry) ? entry.section_id : entry;
}

export function entryLocator(entry: unknown): Locator {
  if (!isObject(entry)) return { value: entry };
  const tipo = entry.section_tipo;
  return { tipo: typeof tipo === 'string' ? tipo : undefined, value: entry.section_id };
}

export function entryLink(entry: unknown): Link | undefined {
  if (!isObject(entry)) return undefined;
  const { table, section_id: value } = entry;
  if (typeof table !== 'string' || table.length > 64 || !TABLE_NAME_PATTERN.test(table)) return undefined;
  if (value === undefined || value === null) return undefined;
  return { table, value };
}

/** Does the cell hold links (one, or a non-empty array of them)? Decides what bare `auto` follows. */
export function isLinkCell(cell: unknown): boolean {
  const value = typeof cell === 'string' ? parseJsonText(cell) : cell;
  if (Array.isArray(value)) return value.length > 0 && value.every((e) => entryLink(e) !== undefined);
  return entryLink(value) !== undefined;
}

/** The key a cell value matches under, compared with a column of `kind`; undefined if it cannot. */
export function matchKey(value: unknown, kind: ColumnKind): MatchKey | undefined {
  if (kind === 'integer' || kind === 'number') {
    let n: number;
    if (typeof value === 'number') n = value;
    else if (typeof value === 'string' && (kind === 'integer' ? INTEGER_TEXT : NUMBER_TEXT).test(value)) {
      n = Number(value);
    } else return undefined;
    if (!Number.isFinite(n) || (kind === 'integer' && !Number.isSafeInteger(n))) return undefined;
    return { key: String(n), bind: n };
  }
  if (typeof value === 'number' && Number.isFinite(value)) return { key: String(value), bind: String(value) };
  if (typeof value === 'string' && value.length <= MAX_TEXT_VALUE) return { key: value, bind: value };
  return undefined;
}

/** The key of a stored target value, comparable with matchKey's keys. */
export function storedKey(value: unknown, kind: ColumnKind): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (kind === 'integer' || kind === 'number') {
    const n = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(n) ? String(n) : undefined;
  }
  return typeof value === 'string' ? value : String(value);
}

/**
 * The positive integer ids of a relation cell (ids, numeric strings or locators), in stored
 * order: what the audiovisual routes follow to the media row and the speakers.
 */
export function relationIds(cell: unknown): number[] {
  const ids: number[] = [];
  for (const entry of cellEntries(cell) ?? []) {
    const key = matchKey(entryValue(entry), 'integer');
    if (key && typeof key.bind === 'number' && key.bind > 0) ids.push(key.bind);
  }
  return ids;
}
