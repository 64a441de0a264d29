/**
 * Assembles a DatabaseSchema from the rows each engine's catalogue returns, so the two drivers
 * share the rules (what counts as multilingual, how columns are indexed by name).
 */
import { columnKind } from './column-kind.js';
import type { ColumnCatalog, ColumnInfo, DatabaseSchema, TableInfo } from './types.js';

export interface RawColumn {
  table: string;
  name: string;
  type: string;
  catalog?: ColumnCatalog;
}

/**
 * A catalogue default as SHOW COLUMNS prints it. information_schema (MariaDB 10.2+) and SQLite's
 * pragma give the SQL text of the default: `NULL`, a quoted literal `'draft'`, a number or an
 * expression such as `current_timestamp()`. Quoted literals are unquoted, NULL is null.
 */
export function catalogDefault(sql: string | null | undefined): string | null {
  if (sql === null || sql === undefined) return null;
  const t = sql.trim();
  if (/^null$/i.test(t)) return null;
  const quoted = /^'((?:[^']|'')*)'$/s.exec(t);
  return quoted ? quoted[1]!.replaceAll("''", "'") : t;
}

export function buildSchema(
  columns: RawColumn[],
  rowEstimates: Map<string, number>,
  fulltext: Map<string, Set<string>>,
  indexed: Map<string, Set<string>> = new Map(),
): DatabaseSchema {
  const tables = new Map<string, TableInfo>();
  for (const c of columns) {
    let t = tables.get(c.table);
    if (!t) {
      t = {
        name: c.table,
        columns: [],
        columnsByName: new Map(),
        rowEstimate: Math.max(0, Math.round(rowEstimates.get(c.table) ?? 0)),
        hasLang: false,
        fulltextColumns: fulltext.get(c.table) ?? new Set(),
        indexedColumns: indexed.get(c.table) ?? new Set(),
      };
      tables.set(c.table, t);
    }
    const info: ColumnInfo = { name: c.name, type: c.type, kind: columnKind(c.type) };
    if (c.catalog) info.catalog = c.catalog;
    t.columns.push(info);
    t.columnsByName.set(c.name, info);
    if (c.name === 'lang') t.hasLang = true;
  }
  return { tables };
}
