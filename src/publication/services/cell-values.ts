/**
 * Published text cells that hold a JSON array or object are answered as JSON (parseJsonText, in
 * db/row-json.cjs, which the SQLite workers share: the why and the per-cell shape check are
 * there). Which columns can hold such text is decided once per table of the schema cache (the
 * text columns; the catalogue types cannot say more: MariaDB reports JSON columns as longtext and
 * the demo declares them TEXT), and kept until the cache replaces the table.
 */
import { parseJsonText } from '../db/row-json.cjs';
import type { Row, TableInfo } from '../db/types.js';

export { parseJsonText };

/** The text columns of each table the schema cache holds; dropped with the table. */
const textColumnsOf = new WeakMap<TableInfo, readonly string[]>();

export function textColumns(table: TableInfo): readonly string[] {
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
