/**
 * What a publish run asks of a target database, whatever its engine: create or migrate the
 * tables of the map, replace the rows of a batch of records in one transaction (a reader sees a
 * record's old rows or its new rows, never half of them), and for a full rebuild write everything
 * into a fresh database and swap it in at the end in one atomic step. SQLite and MariaDB are the
 * two dialects (sqlite-writer.ts, mariadb-writer.ts).
 */
import type { TableDef } from '../demo/schema.js';
import type { MappedRecord } from './map-record.js';

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
