/**
 * The neutral vocabulary between the services and the database engines: what a table looks like
 * and what a read asks for. Nothing outside db/ writes SQL; it builds a SelectQuery instead.
 */

import type { PoolStats } from '../../common/metrics.js';
import type { ParsedSearch } from '../text/search-query.js';

/** How a column's values behave for comparisons and JSON output. */
export type ColumnKind = 'integer' | 'number' | 'text' | 'other';

export interface ColumnInfo {
  name: string;
  /** The SQL type name as the engine reports it (`int(11)`, `mediumtext`, `INTEGER`, ...). */
  type: string;
  kind: ColumnKind;
  /** The column as SHOW COLUMNS describes it (v1 tables_info full); absent in hand-made schemas. */
  catalog?: ColumnCatalog;
}

export interface ColumnCatalog {
  nullable: boolean;
  /** `PRI`, `UNI`, `MUL` or empty, as MariaDB's COLUMN_KEY. */
  key: string;
  /** The default as SHOW COLUMNS prints it: unquoted text, or null for none / NULL. */
  default: string | null;
  /** `auto_increment` and the like, or empty. */
  extra: string;
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
  /** Columns that are part of an ordinary index or the primary key (facets need one). */
  indexedColumns: Set<string>;
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

/** The quoting and engine a statement is rendered for (sql-builder.ts). */
export interface Dialect {
  /** Which engine's functions and full-text syntax expressions are rendered in (db/expr.ts). */
  engine: 'mariadb' | 'sqlite';
  quote(identifier: string): string;
  /**
   * A predicate evaluated for every scanned row before any other condition, so a time-out can
   * interrupt long scans (SQLite has no other interrupt reachable from better-sqlite3).
   */
  liveness?: string;
}

/** Legacy v1 expressions (rendered by expr.ts). */
export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=' | 'LIKE' | 'NOT LIKE';

/** Functions a v1 fragment may call, each rendered per engine (same meaning on both). */
export const EXPR_FUNCTIONS = [
  'CONCAT',
  'CONCAT_WS',
  'LOWER',
  'UPPER',
  'LENGTH',
  'CHAR_LENGTH',
  'TRIM',
  'SUBSTRING',
  'REPLACE',
  'COALESCE',
  'IFNULL',
  'ABS',
  'ROUND',
  'COUNT',
  'MIN',
  'MAX',
  'SUM',
  'AVG',
] as const;
export type ExprFunction = (typeof EXPR_FUNCTIONS)[number];

export type Expr =
  | { kind: 'column'; name: string }
  /** A name given with AS in the select list (ORDER BY relevance). */
  | { kind: 'alias'; name: string }
  | { kind: 'literal'; value: SqlValue | null }
  | { kind: 'star' }
  | { kind: 'compare'; op: CompareOp; left: Expr; right: Expr }
  | { kind: 'and' | 'or'; items: Expr[] }
  | { kind: 'not'; expr: Expr }
  | { kind: 'in'; expr: Expr; list: Expr[]; negated: boolean }
  | { kind: 'is_null'; expr: Expr; negated: boolean }
  | { kind: 'between'; expr: Expr; low: Expr; high: Expr; negated: boolean }
  | { kind: 'call'; fn: ExprFunction; args: Expr[]; distinct?: boolean }
  /** Full-text match on one indexed column; as a value it is the relevance (higher is better). */
  | { kind: 'match'; table: string; column: string; search: ParsedSearch };

export interface SelectItem {
  expr: Expr;
  as?: string;
}

export interface ExprOrder {
  expr: Expr;
  desc: boolean;
}

/**
 * SQLite full-text matches joined once in FROM (sql-builder.ts), by matchKey: the alias of the
 * derived table holding each matching rowid and its rank.
 */
export type MatchJoins = ReadonlyMap<string, string>;

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
  /** Legacy v1 only (db/expr.ts): computed items replacing `columns`, with SELECT DISTINCT. */
  select?: SelectItem[];
  distinct?: boolean;
  /** Legacy v1 only: a condition ANDed after `where`. */
  filter?: Expr;
  groupBy?: Expr[];
  /** Legacy v1 only: ordering by expressions, after `orderBy`. */
  order?: ExprOrder[];
}

/** What a count reads: the rows a SelectQuery would return, before paging (groups count once). */
export type CountQuery = Pick<SelectQuery, 'table' | 'where' | 'filter' | 'groupBy'>;

export type Row = Record<string, unknown>;

/** Per-statement limits, set by the request's budget (see statement-budget.ts). */
export interface StatementOptions {
  /** The engine stops the statement after this long (MariaDB max_statement_time, SQLite interrupt). */
  timeoutMs?: number;
}

/** A full-text query on one indexed column, already translated by the caller's parser. */
export interface FulltextQuery {
  table: string;
  column: string;
  columns: string[];
  /** The engine-neutral parsed query; each driver renders its own syntax. */
  search: ParsedSearch;
  where: Condition[];
  /** A further condition on the table's columns (the v1 API's `filter` fragment). */
  filter?: Expr;
  /** Tie-breakers after relevance (the record key), so pages are stable. */
  orderBy: OrderTerm[];
  limit: number;
  offset: number;
  /** Best-ranked matching rows kept at most before paging (see search-sql.ts). */
  maxCandidates: number;
  /**
   * The columns that identify a row (search-sql.ts rowKeyOf): MariaDB ranks the candidates on
   * them and reads the page's other columns by them. Absent or empty: every column is ranked.
   */
  rowKey?: string[];
}

/** The distinct values of one column under filters, most frequent first (facets). */
export interface FacetQuery {
  table: string;
  column: string;
  where: Condition[];
  limit: number;
}

/** One value of a facet and how many rows carry it. */
export interface FacetCount {
  value: unknown;
  count: number;
}

/** How selectJson writes a statement's rows: defined with the writer, in row-json.cjs. */
export type RowsJsonShape = import('./row-json.cjs').RowsJsonShape;

/** A statement's rows as JSON bytes (selectJson). */
export interface JsonRows {
  /** The rows written, as the JSON array the API sends. */
  json: import('./raw-json.js').RawJson;
  /** Rows the statement returned, written or not. */
  count: number;
  /** The `collect` column's value in every row the statement returned, in order. */
  collected?: string[];
}

/** One engine. Every identifier it receives has been validated against its own schema. */
export interface Driver {
  readonly engine: 'mariadb' | 'sqlite';
  introspect(db: string, options?: StatementOptions): Promise<DatabaseSchema>;
  select(db: string, query: SelectQuery, options?: StatementOptions): Promise<Row[]>;
  /**
   * The rows of a select as the JSON the API answers with, written where they were read (the
   * SQLite workers), for callers that only send them (PublicationContext.rowsAsJson). Engines
   * whose rows are read on the main thread anyway (MariaDB) do not offer it.
   */
  selectJson?(
    db: string,
    query: SelectQuery,
    shape: RowsJsonShape,
    options?: StatementOptions,
  ): Promise<JsonRows>;
  count(db: string, query: CountQuery, options?: StatementOptions): Promise<number>;
  /** Rows matching a full-text query, best first, each with a numeric `relevance` (higher is better). */
  search(db: string, query: FulltextQuery, options?: StatementOptions): Promise<Row[]>;
  searchCount(
    db: string,
    query: Omit<FulltextQuery, 'limit' | 'offset' | 'columns' | 'orderBy'>,
    options?: StatementOptions,
  ): Promise<number>;
  /** Distinct values of a column with their row counts, most frequent first, then by value. */
  facet(db: string, query: FacetQuery, options?: StatementOptions): Promise<FacetCount[]>;
  ping(db: string, options?: StatementOptions): Promise<void>;
  /** The engine's pools right now, for the metrics endpoint (common/metrics.ts). */
  poolStats?(): PoolStats[];
  close(): Promise<void>;
}

/** A statement ran out of the request's time; maps to 504. The engine was told to stop it. */
export class QueryTimeout extends Error {
  constructor(readonly db: string) {
    super(`a statement on "${db}" exceeded the request time-out and was stopped`);
    this.name = 'QueryTimeout';
  }
}

/** The request used up its statement budget; maps to 429. */
export class StatementBudgetExceeded extends Error {
  constructor(readonly max: number) {
    super(`this request needs more than ${max} database statements`);
    this.name = 'StatementBudgetExceeded';
  }
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
