/**
 * Published text cells often hold JSON (relation arrays, locators, link objects). Clients of the
 * older API expect those parsed, so a text cell that is a JSON array or object is returned as
 * JSON; any other text is returned as it is stored.
 *
 * Which columns can hold such text is decided once per table of the schema cache (the text
 * columns; the catalogue types cannot say more: MariaDB reports JSON columns as longtext and the
 * demo declares them TEXT), and kept until the cache replaces the table. Per cell only a shape
 * check on character codes remains: transcriptions start with tags such as
 * `[TC_00:00:00.000_TC]`, which look like arrays at first sight, and a failed JSON.parse costs
 * an exception, so the first and last characters rule those out before parsing is attempted.
 */
import type { Row, TableInfo } from '../db/types.js';

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const QUOTE = 34;

const isSpace = (c: number) => c === SPACE || c === LF || c === CR || c === TAB;

/** What may follow `[` in a JSON array: a value's first character or `]`. */
function opensArrayItem(c: number): boolean {
  return (
    c === QUOTE ||
    c === OPEN_BRACKET ||
    c === OPEN_BRACE ||
    c === CLOSE_BRACKET ||
    c === 45 || // -
    (c >= 48 && c <= 57) || // 0-9
    c === 116 || // t(rue)
    c === 102 || // f(alse)
    c === 110 // n(ull)
  );
}

/** Could `value` be a JSON array or object? (Necessary, not sufficient.) */
function looksLikeJsonContainer(value: string): boolean {
  let start = 0;
  let end = value.length - 1;
  while (start <= end && isSpace(value.charCodeAt(start))) start++;
  while (end > start && isSpace(value.charCodeAt(end))) end--;
  if (start >= end) return false;
  const open = value.charCodeAt(start);
  const close = value.charCodeAt(end);
  let next = start + 1;
  while (next < end && isSpace(value.charCodeAt(next))) next++;
  const after = value.charCodeAt(next);
  if (open === OPEN_BRACE) return close === CLOSE_BRACE && (after === QUOTE || after === CLOSE_BRACE);
  if (open === OPEN_BRACKET) return close === CLOSE_BRACKET && opensArrayItem(after);
  return false;
}

export function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string' || !looksLikeJsonContainer(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The text columns of each table the schema cache holds; dropped with the table. */
const textColumnsOf = new WeakMap<TableInfo, readonly string[]>();

function textColumns(table: TableInfo): readonly string[] {
  let names = textColumnsOf.get(table);
  if (names === undefined) {
    names = table.columns.filter((c) => c.kind === 'text').map((c) => c.name);
    textColumnsOf.set(table, names);
  }
  return names;
}

export function decodeRows(rows: Row[], table: TableInfo): Row[] {
  if (rows.length === 0) return rows;
  // Only the text columns this statement selected: the same for every row.
  const names = textColumns(table).filter((name) => name in rows[0]!);
  for (const row of rows) {
    for (const name of names) {
      const cell = row[name];
      if (typeof cell === 'string') row[name] = parseJsonText(cell);
    }
  }
  return rows;
}
