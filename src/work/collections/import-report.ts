/**
 * The report of an import: what each row did (counts), every refused row with its line, column
 * and reason (the readers' refusal reasons, plus `permission` and `conflict` found while
 * writing), and the refused rows as a CSV file in the file's own header with a `reason` column
 * added, to fix and import again. Bounded: past MAX_LISTED refusals the list and the file stop
 * growing (the counts go on), so a hostile file cannot grow the report without limit.
 */
import { stringify } from 'csv-stringify/sync';
import type { CellRefusal, RefusalReason } from './cell-changes.js';
import type { ImportCounts, ImportKind } from './import-register.js';

export type ImportRefusalReason = RefusalReason | 'permission' | 'conflict';

export interface ImportRefusal extends Omit<CellRefusal, 'reason'> {
  reason: ImportRefusalReason;
}

export interface ImportReport {
  /** The run's id in the imports register; null for a dry run (nothing was kept). */
  import_id: number | null;
  file_name: string;
  kind: ImportKind;
  section_tipo: string | null;
  dry_run: boolean;
  all_or_nothing: boolean;
  /** Whether the rows counted as created/updated are in the database now. */
  written: boolean;
  /** Data rows read (refused ones included). */
  rows: number;
  counts: ImportCounts;
  /** Every problem of every refused row (a row may have several), in file order. */
  refusals: ImportRefusal[];
  /** True when refused rows past MAX_LISTED (or the file's size limit) were counted but not listed. */
  refusals_truncated: boolean;
  /**
   * What each accepted row did (would do, in a dry run or an all-or-nothing run that wrote
   * nothing), in file order, with the record it wrote: the per-row list the client's dry run
   * shows beside the refusals. Bounded like them.
   */
  outcomes: ImportOutcome[];
  outcomes_truncated: boolean;
  /** The refused rows, header first, with a `reason` column; null when none (or not CSV). */
  refused_csv: string | null;
  /** Columns of the file that were not imported (Dédalo CSV metadata, a mapping's unused). */
  ignored_columns: string[];
  /** Thesaurus TLDs installed first (a package of a TLD the ontology lacked). */
  installed_tlds: string[];
  /** What a COPY record kept as it was (misc), per line. */
  notes: { line: number; section_tipo: string; section_id: number; notes: string[] }[];
  /** A database failure that stopped the run: rows from `line` on were not written. */
  failure: { line: number; message: string } | null;
}

export interface ImportOutcome {
  line: number;
  outcome: 'created' | 'updated' | 'unchanged';
  section_tipo: string;
  section_id: number;
}

export const MAX_LISTED = 1000;
/** The refused rows file stops growing past this many characters (rows may be megabytes). */
export const MAX_REFUSED_CSV_CHARS = 16 * 1024 * 1024;

export class ReportBuilder {
  readonly report: ImportReport;
  private readonly csvRows: string[][] = [];
  private csvHeader: string[] | null = null;
  private separator: ';' | ',' = ';';
  private csvChars = 0;

  constructor(
    init: Pick<ImportReport, 'file_name' | 'kind' | 'section_tipo' | 'dry_run' | 'all_or_nothing'>,
  ) {
    this.report = {
      import_id: null,
      ...init,
      written: false,
      rows: 0,
      counts: { created: 0, updated: 0, unchanged: 0, refused: 0 },
      refusals: [],
      refusals_truncated: false,
      outcomes: [],
      outcomes_truncated: false,
      refused_csv: null,
      ignored_columns: [],
      installed_tlds: [],
      notes: [],
      failure: null,
    };
  }

  /** The file's header (CSV kinds), for the refused rows file. */
  setHeader(cells: readonly string[], separator: ';' | ','): void {
    this.csvHeader = [...cells, 'reason'];
    this.separator = separator;
  }

  refuse(refusals: readonly ImportRefusal[], cells?: readonly string[]): void {
    this.report.counts.refused++;
    if (this.report.refusals.length >= MAX_LISTED) {
      this.report.refusals_truncated = true;
      return;
    }
    this.report.refusals.push(...refusals);
    const size = cells?.reduce((n, c) => n + c.length + 1, 0) ?? 0;
    if (cells && this.csvHeader && this.csvChars + size > MAX_REFUSED_CSV_CHARS) {
      this.report.refusals_truncated = true;
    } else if (cells && this.csvHeader) {
      this.csvChars += size;
      const width = this.csvHeader.length - 1;
      const padded = [...cells.slice(0, width), ...Array(Math.max(0, width - cells.length)).fill('')];
      const reason = refusals
        .map((r) => `${r.header ? `${r.header}: ` : ''}${r.message}`)
        .join(' | ')
        .slice(0, 2000);
      this.csvRows.push([...padded, reason]);
    }
  }

  outcome(entry: ImportOutcome): void {
    if (this.report.outcomes.length >= MAX_LISTED) this.report.outcomes_truncated = true;
    else this.report.outcomes.push(entry);
  }

  /** A batch rolled back by a fault: its rows (from `line` on) did nothing after all. */
  dropOutcomesFrom(line: number): void {
    this.report.outcomes = this.report.outcomes.filter((o) => o.line < line);
  }

  note(entry: ImportReport['notes'][number]): void {
    if (this.report.notes.length < MAX_LISTED && entry.notes.length > 0) this.report.notes.push(entry);
  }

  finish(): ImportReport {
    if (this.csvHeader && this.csvRows.length > 0) {
      this.report.refused_csv = stringify([this.csvHeader, ...this.csvRows], {
        delimiter: this.separator,
        record_delimiter: '\n',
        quoted_match: /[\r\n]/,
      });
    }
    return this.report;
  }
}
