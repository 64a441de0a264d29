/**
 * Published text cells often hold JSON (relation arrays, locators, link objects). Clients of the
 * older API expect those parsed, so a text cell that is a JSON array or object is returned as
 * JSON; any other text is returned as it is stored.
 *
 * Transcriptions start with tags such as `[TC_00:00:00.000_TC]`, which look like arrays at first
 * sight. A failed JSON.parse costs an exception per cell, so a cheap shape check on the first
 * and last characters rules those out before parsing is attempted.
 */
import type { Row, TableInfo } from '../db/types.js';

const WHITESPACE = new Set([' ', '\n', '\r', '\t']);

function firstNonSpace(value: string, from: number, step: 1 | -1): number {
  let i = from;
  while (i >= 0 && i < value.length && WHITESPACE.has(value[i]!)) i += step;
  return i;
}

/** Could `value` be a JSON array or object? (Necessary, not sufficient.) */
function looksLikeJsonContainer(value: string): boolean {
  const start = firstNonSpace(value, 0, 1);
  const end = firstNonSpace(value, value.length - 1, -1);
  if (start >= end) return false;
  const open = value[start];
  const close = value[end];
  const next = value[firstNonSpace(value, start + 1, 1)];
  if (open === '{') return close === '}' && (next === '"' || next === '}');
  if (open === '[') return close === ']' && next !== undefined && /["[{\]\-0-9tfn]/.test(next);
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

export function decodeRows(rows: Row[], table: TableInfo): Row[] {
  const textColumns = table.columns.filter((c) => c.kind === 'text').map((c) => c.name);
  for (const row of rows) {
    for (const name of textColumns) {
      if (name in row) row[name] = parseJsonText(row[name]);
    }
  }
  return rows;
}
