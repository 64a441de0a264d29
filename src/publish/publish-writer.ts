/**
 * What a publish run asks of a target database, whatever its engine: create or migrate the
 * tables of the map, replace the rows of a batch of records in one transaction (a reader sees a
 * record's old rows or its new rows, never half of them), and for a full rebuild write everything
 * into a fresh database and swap it in at the end in one atomic step. SQLite and MariaDB are the
 * two dialects (sqlite-writer.ts, mariadb-writer.ts).
 */
import type { TableDef } from '../demo/schema.js';
import type { MappedRecord, PublishLocator } from './map-record.js';

export type WriteMode = 'incremental' | 'rebuild';

export interface RecordRemoval {
  table: TableDef;
  sectionIds: readonly number[];
}

export interface PublishWriter {
  /** `sqlite` or `mariadb`, for messages. */
  readonly dialect: 'sqlite' | 'mariadb';
  /**
   * Opens the target (rebuild: a new, empty database beside the live one) and creates the
   * tables, or in incremental mode adds the columns and full-text indexes an existing table
   * lacks. An unreachable target throws TargetUnavailable.
   */
  open(defs: readonly TableDef[], mode: WriteMode): Promise<void>;
  /** Replaces the rows of each record (none: removed) in one transaction; answers rows written. */
  writeBatch(records: readonly MappedRecord[], removals?: readonly RecordRemoval[]): Promise<number>;
  /**
   * Rebuild: the table gets no more rows; a writer may start building its indexes now, beside
   * the writes of the next tables (finish() waits for them).
   */
  tableDone?(def: TableDef): void;
  /**
   * Incremental: the ids of the published records of `def` whose `dd_relations` list one of
   * `sources` (the published side's memory of who pointed at them, for refreshing the targets
   * a record no longer points at). A few sources: LIKE tests in SQL; many: one read of the column.
   */
  listedIn?(def: TableDef, sources: readonly PublishLocator[]): Promise<number[]>;
  /** Rebuild: builds the full-text indexes and statistics, then swaps the new database in. */
  finish(): Promise<void>;
  /** Drops what an unfinished rebuild wrote; the live database is untouched. Never throws. */
  abort(): Promise<void>;
  close(): Promise<void>;
}

/** The target cannot be reached or refused a write; the run stops. */
export class TargetUnavailable extends Error {
  constructor(
    readonly target: string,
    cause: unknown,
  ) {
    super(`publication target "${target}" is unavailable: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'TargetUnavailable';
  }
}

/** Above this many sources, listedIn reads the whole dd_relations column instead of LIKE tests. */
const LISTED_IN_LIKE_LIMIT = 20;

/** How a source appears in a published dd_relations JSON (map-record.ts writes it compactly). */
function listedPattern(source: PublishLocator): string {
  return `%${JSON.stringify({ section_tipo: source.section_tipo, section_id: Number(source.section_id) })}%`;
}

/** Whether a published dd_relations value lists one of `keys` (`<section_tipo>/<section_id>`). */
function listsAny(json: unknown, keys: ReadonlySet<string>): boolean {
  if (typeof json !== 'string' || json === '') return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return false;
  }
  return (
    Array.isArray(parsed) &&
    parsed.some(
      (l) =>
        l &&
        typeof l === 'object' &&
        keys.has(`${(l as PublishLocator).section_tipo}/${(l as PublishLocator).section_id}`),
    )
  );
}

/**
 * The statement of a writer's listedIn in either dialect (`ident` quotes an identifier), and how
 * to read its rows (`ids`): for a few sources, LIKE tests that answer the ids; for many, one read
 * of the column, filtered here. Undefined when there is nothing to ask.
 */
export function listedInQuery(
  def: TableDef,
  sources: readonly PublishLocator[],
  ident: (name: string) => string,
):
  | { sql: string; params: string[]; ids(rows: Iterable<{ id: unknown; d?: unknown }>): number[] }
  | undefined {
  if (sources.length === 0 || !def.columns.some((c) => c.name === 'dd_relations')) return undefined;
  const t = ident(def.name);
  const id = ident(def.primaryKey[0]!);
  if (sources.length <= LISTED_IN_LIKE_LIMIT) {
    return {
      sql: `SELECT DISTINCT ${id} AS id FROM ${t} WHERE ${sources.map(() => 'dd_relations LIKE ?').join(' OR ')}`,
      params: sources.map(listedPattern),
      ids: (rows) => Array.from(rows, (r) => Number(r.id)),
    };
  }
  const keys = new Set(sources.map((l) => `${l.section_tipo}/${Number(l.section_id)}`));
  return {
    sql: `SELECT ${id} AS id, dd_relations AS d FROM ${t} WHERE dd_relations IS NOT NULL`,
    params: [],
    ids: (rows) => {
      const out = new Set<number>();
      for (const r of rows) if (listsAny(r.d, keys)) out.add(Number(r.id));
      return [...out];
    },
  };
}
