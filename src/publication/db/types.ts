/**
 * The neutral vocabulary between the services and the database engines: what a table looks like
 * and what a read asks for. Nothing outside db/ writes SQL; it builds a SelectQuery instead.
 */

/** How a column's values behave for comparisons and JSON output. */
export type ColumnKind = 'integer' | 'number' | 'text' | 'other';

export interface ColumnInfo {
  name: string;
  /** The SQL type name as the engine reports it (`int(11)`, `mediumtext`, `INTEGER`, ...). */
  type: string;
  kind: ColumnKind;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  columnsByName: Map<string, ColumnInfo>;
  /** Estimate from engine statistics; never an exact COUNT(*). */
  rowEstimate: number;
  hasLang: boolean;
  /** Columns that carry a full-text index (MariaDB FULLTEXT, SQLite FTS5 `fts_<table>_<column>`). */
  fulltextColumns: Set<string>;
}

export interface DatabaseSchema {
  tables: Map<string, TableInfo>;
}

export const FILTER_OPS = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'in',
  'not_in',
  'is_null',
  'is_not_null',
] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export type SqlValue = string | number;

export type Condition =
  | { column: string; op: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'like'; value: SqlValue }
  | { column: string; op: 'in' | 'not_in'; value: SqlValue[] }
  | { column: string; op: 'is_null' | 'is_not_null' };

export interface OrderTerm {
  column: string;
  desc: boolean;
}

export interface SelectQuery {
  table: string;
  /** Columns to return, already validated against the schema. */
  columns: string[];
  where: Condition[];
  orderBy: OrderTerm[];
  limit?: number;
  offset?: number;
}

export type Row = Record<string, unknown>;

/** One engine. Every identifier it receives has been validated against its own schema. */
export interface Driver {
  readonly engine: 'mariadb' | 'sqlite';
  introspect(db: string): Promise<DatabaseSchema>;
  select(db: string, query: SelectQuery): Promise<Row[]>;
  count(db: string, query: Pick<SelectQuery, 'table' | 'where'>): Promise<number>;
  ping(db: string): Promise<void>;
  close(): Promise<void>;
}

/** The database could not be reached or failed; maps to 503, never blamed on the client. */
export class DatabaseUnavailable extends Error {
  constructor(
    readonly db: string,
    cause: unknown,
  ) {
    super(`database "${db}" is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'DatabaseUnavailable';
  }
}
