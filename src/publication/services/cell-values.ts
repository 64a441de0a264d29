/**
 * Published text cells often hold JSON (relation arrays, locators, link objects). Clients of the
 * older API expect those parsed, so a text cell that is a JSON array or object is returned as
 * JSON; any other text is returned as it is stored.
 */
import type { Row, TableInfo } from '../db/types.js';

export function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const first = value.trimStart()[0];
  if (first !== '[' && first !== '{') return value;
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
