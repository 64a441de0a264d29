/**
 * Importing a collection file (docs/import-export.md, "Importing"): ONE operation that the CLI
 * (`npm run work -- import`) and the API (`dd_import_api.import_records`) both call.
 *
 * The file's kind is detected (import-source.ts) and read by its reader (Dédalo CSV, a
 * spreadsheet with its mapping, Dédalo 6 COPY text); each accepted row is written through the
 * API's write paths (import-write-row.ts, import-write-copy.ts) under the importer's own rights.
 * Rows run in transactions of `batchSize` rows, each row inside a savepoint: a refused row (by
 * its reader, or while writing: a permission, a missing link target, a rule) is rolled back to
 * its savepoint, so it changes nothing, and the others go on. `allOrNothing` and `dryRun` run
 * the whole file in one transaction: all-or-nothing commits only when no row was refused, a dry
 * run always rolls back, so its report is exactly what the import would do.
 *
 * Every real run is registered (import-register.ts) before its first write and tags its
 * transactions, so every history and activity row it writes carries its id, and each record it
 * touched is kept as it was before (undo: import-undo.ts).
 */
import { assertCan, isGlobalAdmin, PermissionDenied, type UserAccess } from '../auth/permissions.js';
import { accountGuard } from '../auth/rights-ceiling.js';
import { ERROR_REGISTRY, WorkError } from '../dispatch/error-registry.js';
import { ensureHierarchyTld } from '../ontology/hierarchy-install.js';
import type { Ontology } from '../ontology/load-ontology.js';
import { ontologySectionKind } from '../ontology/ontology-edit.js';
import { loadStoredOntology } from '../ontology/ontology-store.js';
import { writableSectionTable } from '../records/create-record.js';
import type { SqlClient, SqlQueryable } from '../store/sql-client.js';
import type { CellRefusal } from './cell-changes.js';
import { CellRefused } from './cell-changes.js';
import { CollectionFileError } from './collection-file-error.js';
import { parseMapping } from './column-mapping.js';
import {
  finishImport,
  type ImportCounts,
  type ImportKind,
  registerImport,
  tagImportTransaction,
} from './import-register.js';
import { type ImportRefusal, type ImportReport, ReportBuilder } from './import-report.js';
import { detectKind, type ImportSource, sectionFromFileName } from './import-source.js';
import { type BulkRow, bulkRow, bulkSection, writeCreateRun } from './import-write-bulk.js';
import { writeCopyRecord } from './import-write-copy.js';
import { ChangeRefused, type ChangeRow, writeChangeRow } from './import-write-row.js';
import { checkedSection, readDedaloCsv } from './read-dedalo-csv.js';
import { readMappedCsv } from './read-mapped-csv.js';
import { type MatrixCopyRecord, readMatrixCopy } from './read-matrix-copy.js';

export interface ImportRecordsInput {
  source: ImportSource;
  /** The name recorded with the run and shown in History ("imported from FILE"). */
  fileName: string;
  /** Detected from the content when absent. */
  kind?: ImportKind;
  /** Dédalo CSV: the section read (default: a file named `<tipo>.csv`). */
  sectionTipo?: string;
  /** A spreadsheet's mapping (JSON text or the parsed object). */
  mapping?: unknown;
  /** Dédalo CSV: the language of plain text in translatable columns (default lg-eng). */
  lang?: string;
  dryRun?: boolean;
  allOrNothing?: boolean;
  via: 'cli' | 'api';
  /** Rows per transaction (default 500); dry runs and all-or-nothing use one. */
  batchSize?: number;
  /**
   * Runs of rows that create records are written in bulk (import-write-bulk.ts; default true).
   * False: every row through the per-row path (the bulk path's tests compare the two).
   */
  bulk?: boolean;
  /** Called after each row. */
  onProgress?: (progress: { rows: number; line: number; counts: ImportCounts }) => void;
}

export interface ImportDeps {
  db: SqlClient;
  ontology: Ontology;
  /** The importer's rights: every check is theirs. */
  access: UserAccess;
  now: () => Date;
}

/** The file cannot be imported at all (nothing was written): the API's 400 import.invalid_file. */
export class ImportFileRefused extends Error {
  constructor(
    message: string,
    readonly details: { kind: string; line?: number; column?: number } = { kind: 'file' },
  ) {
    super(message);
    this.name = 'ImportFileRefused';
  }
}

const DEFAULT_BATCH = 500;

/** A unified row: a CSV row's changes, or a Dédalo record. */
type ImportRow =
  | { type: 'changes'; line: number; cells: string[]; row: ChangeRow; refusals: CellRefusal[] }
  | { type: 'record'; line: number; record?: MatrixCopyRecord; refusals: CellRefusal[] };

interface Plan {
  kind: ImportKind;
  sectionTipo: string | null;
  ontology: Ontology;
  rows: AsyncGenerator<ImportRow>;
  /** Component tipo → its column of the file (refusals found while writing). */
  columnOf: (tipo: string) => { column: number; header: string };
  /** The column naming the record (a refused create or scope). */
  idColumn: { column: number; header: string };
}

const fileRefused = (error: CollectionFileError) =>
  new ImportFileRefused(error.message, {
    kind: error.kind,
    ...(error.line !== undefined ? { line: error.line } : {}),
    ...(error.column !== undefined ? { column: error.column } : {}),
  });

/** Section checks made once for the whole file: known, writable, not the ontology's own. */
function checkTargetSection(ontology: Ontology, access: UserAccess, sectionTipo: string) {
  try {
    checkedSection(ontology, sectionTipo);
  } catch (error) {
    if (error instanceof CollectionFileError) throw fileRefused(error);
    throw error;
  }
  if (ontologySectionKind(ontology, sectionTipo)) {
    throw new ImportFileRefused(
      `${sectionTipo} holds the ontology: import ontology files with "npm run work -- ontology import"`,
      { kind: 'section' },
    );
  }
  writableSectionTable(ontology, sectionTipo);
  // Importing needs save rights on the section (the create and per-component checks follow).
  assertCan(access, 'save', sectionTipo);
}

async function planCsv(deps: ImportDeps, input: ImportRecordsInput, kind: ImportKind, report: ReportBuilder) {
  const { ontology, access } = deps;
  if (kind === 'mapped_csv') {
    const mapping = parseMapping(input.mapping);
    if (input.sectionTipo !== undefined && input.sectionTipo !== mapping.section_tipo) {
      throw new ImportFileRefused(
        `the mapping is for ${mapping.section_tipo}, the import into ${input.sectionTipo}`,
        { kind: 'mapping' },
      );
    }
    checkTargetSection(ontology, access, mapping.section_tipo);
    const reader = await readMappedCsv(input.source.open(), { ontology, mapping });
    report.setHeader(reader.headerCells, reader.separator);
    report.report.ignored_columns = reader.mapping.ignored;
    const column = (tipo: string) => {
      const c = reader.mapping.columns.find((m) => m.tipo === tipo);
      return { column: c?.index ?? 0, header: c?.name ?? tipo };
    };
    const id = reader.mapping.idColumn;
    async function* rows(): AsyncGenerator<ImportRow> {
      for await (const r of reader.rows) {
        yield { type: 'changes', line: r.line, cells: r.cells, row: r, refusals: r.refusals };
      }
    }
    return {
      kind,
      sectionTipo: mapping.section_tipo,
      ontology,
      rows: rows(),
      columnOf: column,
      idColumn: { column: id ?? 0, header: id ? (mapping.id_column ?? '') : '' },
    } satisfies Plan;
  }
  const sectionTipo = input.sectionTipo ?? sectionFromFileName(input.fileName);
  if (sectionTipo === undefined) {
    throw new ImportFileRefused(
      'name the section the Dédalo CSV file is of (--section, options.section_tipo), or name the file <section>.csv',
      { kind: 'section' },
    );
  }
  checkTargetSection(ontology, access, sectionTipo);
  const reader = await readDedaloCsv(input.source.open(), {
    ontology,
    sectionTipo,
    lang: input.lang ?? 'lg-eng',
  });
  report.setHeader(reader.header.cells, reader.header.separator);
  report.report.ignored_columns = reader.header.columns
    .filter((c) => c.role === 'ignored')
    .map((c) => c.header);
  const column = (tipo: string) => {
    const c = reader.header.columns.find((h) => h.tipo === tipo);
    return { column: c?.index ?? 0, header: c?.header ?? tipo };
  };
  const id = reader.header.columns.find((c) => c.role === 'section_id');
  async function* rows(): AsyncGenerator<ImportRow> {
    for await (const r of reader.rows) {
      yield { type: 'changes', line: r.line, cells: r.cells, row: r, refusals: r.refusals };
    }
  }
  return {
    kind,
    sectionTipo,
    ontology,
    rows: rows(),
    columnOf: column,
    idColumn: { column: id?.index ?? 0, header: id?.header ?? '' },
  } satisfies Plan;
}

/**
 * A COPY file is read twice: first the records it holds (a link may point at a record further
 * down) and the sections the ontology lacks, whose thesaurus TLDs are installed before the
 * second, writing, read.
 */
async function planCopy(deps: ImportDeps, input: ImportRecordsInput, report: ReportBuilder) {
  let { ontology } = deps;
  const inFile = new Set<string>();
  const missing = new Set<string>();
  const sections = new Set<string>();
  for await (const row of readMatrixCopy(input.source.open(), { ontology })) {
    if (!row.record) continue;
    inFile.add(`${row.record.section_tipo} ${row.record.section_id}`);
    sections.add(row.record.section_tipo);
    if (!row.record.sectionKnown) missing.add(row.record.section_tipo);
  }
  const tlds = [...new Set([...missing].map((tipo) => tipo.replace(/\d+$/, '')))].sort();
  if (tlds.length > 0 && !input.dryRun) {
    if (!isGlobalAdmin(deps.access)) {
      throw new PermissionDenied(deps.access.userId, 'global_admin', [...missing][0]);
    }
    for (const tld of tlds) {
      await ensureHierarchyTld(deps.db, tld, { userId: deps.access.userId, now: deps.now(), via: input.via });
      report.report.installed_tlds.push(tld);
    }
    ({ ontology } = await loadStoredOntology(deps.db));
  }
  const reader = readMatrixCopy(input.source.open(), { ontology });
  async function* rows(): AsyncGenerator<ImportRow> {
    for await (const r of reader) {
      yield { type: 'record', line: r.line, ...(r.record ? { record: r.record } : {}), refusals: r.refusals };
    }
  }
  return {
    plan: {
      kind: 'matrix_copy',
      sectionTipo: sections.size === 1 ? [...sections][0]! : null,
      ontology,
      rows: rows(),
      columnOf: (tipo: string) => ({ column: 4, header: tipo }),
      idColumn: { column: 2, header: 'section_id' },
    } satisfies Plan,
    inFile,
  };
}

/** Why a write refused a row, in the report's terms; undefined: not a refusal (a fault). */
function reasonOf(error: unknown): Pick<ImportRefusal, 'reason' | 'message'> | undefined {
  if (error instanceof CellRefused) return { reason: error.reason, message: error.message };
  if (error instanceof PermissionDenied) {
    const what =
      error.reason === 'project_scope'
        ? 'the record is not in your projects'
        : error.reason === 'global_admin'
          ? 'only a global administrator may write this'
          : `you may not write ${error.tipo ?? error.sectionTipo ?? 'this'}${error.tipo && error.sectionTipo ? ` of ${error.sectionTipo}` : ''}`;
    return { reason: 'permission', message: what };
  }
  if (error instanceof WorkError) {
    const category = ERROR_REGISTRY[error.code].category;
    if (category === 'unavailable' || category === 'internal') return undefined;
    const reason = error.code.startsWith('perm.')
      ? 'permission'
      : error.code === 'validation.locator_target'
        ? 'locator_target'
        : category === 'conflict'
          ? 'conflict'
          : 'invalid_value';
    return { reason, message: error.message };
  }
  return undefined;
}

/** Marks a dry run's (or a refused all-or-nothing's) transaction for rollback. */
class RollBack extends Error {}

/** Runs the import; throws ImportFileRefused or PermissionDenied when the file cannot be imported. */
export async function importRecords(deps: ImportDeps, input: ImportRecordsInput): Promise<ImportReport> {
  const dryRun = input.dryRun ?? false;
  const allOrNothing = input.allOrNothing ?? false;
  const kind = input.kind ?? (await detectKind(input.source, input.mapping !== undefined));
  const report = new ReportBuilder({
    file_name: input.fileName,
    kind,
    section_tipo: null,
    dry_run: dryRun,
    all_or_nothing: allOrNothing,
  });
  let plan: Plan;
  let inFile = new Set<string>();
  try {
    if (kind === 'matrix_copy') ({ plan, inFile } = await planCopy(deps, input, report));
    else plan = await planCsv(deps, input, kind, report);
  } catch (error) {
    if (error instanceof CollectionFileError) throw fileRefused(error);
    throw error;
  }
  report.report.section_tipo = plan.sectionTipo;
  const { ontology } = plan;
  const access = deps.access;
  const importId = dryRun
    ? null
    : await registerImport(deps.db, {
        fileName: input.fileName,
        kind,
        sectionTipo: plan.sectionTipo,
        userId: access.userId,
        via: input.via,
        now: deps.now(),
      });
  report.report.import_id = importId;
  const counts = report.report.counts;
  const batchSize = dryRun || allOrNothing ? Number.POSITIVE_INFINITY : (input.batchSize ?? DEFAULT_BATCH);
  const iterator = plan.rows[Symbol.asyncIterator]();
  let batchFirstLine = 0;

  const progress = (line: number, batch: ImportCounts) =>
    input.onProgress?.({
      rows: report.report.rows,
      line,
      counts: {
        created: counts.created + batch.created,
        updated: counts.updated + batch.updated,
        unchanged: counts.unchanged + batch.unchanged,
        refused: counts.refused,
      },
    });

  /** The report's line for a row a write refused, or undefined when the error is a fault. */
  const refusalOf = (row: ImportRow, error: unknown): ImportRefusal | undefined => {
    const cause = error instanceof ChangeRefused ? error.cause : error;
    const why = reasonOf(cause);
    if (!why) return undefined;
    const where =
      error instanceof ChangeRefused
        ? plan.columnOf(error.tipo)
        : error instanceof CellRefused
          ? { column: 0, header: '' }
          : plan.idColumn;
    return { line: row.line, ...where, ...why };
  };

  /**
   * One row inside its savepoint; records the outcome or the refusal. Answers the record it
   * wrote (a later row naming it in the same batch updates it).
   */
  const runRow = async (
    tx: SqlQueryable,
    row: ImportRow,
    batch: ImportCounts,
  ): Promise<{ section_tipo: string; section_id: number } | undefined> => {
    report.report.rows++;
    if (batchFirstLine === 0) batchFirstLine = row.line;
    let written: { section_tipo: string; section_id: number } | undefined;
    if (row.refusals.length > 0 || (row.type === 'record' && !row.record)) {
      report.refuse(row.refusals, row.type === 'changes' ? row.cells : undefined);
      progress(row.line, batch);
      return undefined;
    }
    await tx.query('SAVEPOINT import_row');
    const now = deps.now();
    const guard = accountGuard(ontology, access);
    try {
      let outcome: 'created' | 'updated' | 'unchanged';
      let key: { section_tipo: string; section_id: number };
      if (row.type === 'changes') {
        const table = writableSectionTable(ontology, plan.sectionTipo!).table;
        ({ outcome, key } = await writeChangeRow(
          tx,
          { ontology, access, sectionTipo: plan.sectionTipo!, table, now, importId },
          row.row,
          guard,
        ));
      } else {
        const record = row.record!;
        if (!record.sectionKnown || ontologySectionKind(ontology, record.section_tipo)) {
          throw new CellRefused(
            'section_tipo',
            record.sectionKnown
              ? `${record.section_tipo} holds the ontology: import it with "npm run work -- ontology import"`
              : `${record.section_tipo} is not a section of the ontology${dryRun ? ' (the import installs its thesaurus first)' : ''}`,
          );
        }
        ({ outcome, key } = await writeCopyRecord(
          tx,
          { ontology, access, now, inFile, importId },
          record,
          guard,
        ));
        report.note({
          line: row.line,
          section_tipo: record.section_tipo,
          section_id: record.section_id,
          notes: record.notes,
        });
      }
      await tx.query('RELEASE SAVEPOINT import_row');
      batch[outcome]++;
      report.outcome({ line: row.line, outcome, section_tipo: key.section_tipo, section_id: key.section_id });
      written = key;
    } catch (error) {
      const refusal = refusalOf(row, error);
      if (!refusal) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT import_row');
      await tx.query('RELEASE SAVEPOINT import_row');
      report.refuse([refusal], row.type === 'changes' ? row.cells : undefined);
    }
    progress(row.line, batch);
    return written;
  };

  // The bulk path (import-write-bulk.ts): real CSV runs into a section without observers.
  const bulkTable =
    input.bulk !== false &&
    !dryRun &&
    !allOrNothing &&
    kind !== 'matrix_copy' &&
    plan.sectionTipo !== null &&
    bulkSection(ontology, plan.sectionTipo)
      ? writableSectionTable(ontology, plan.sectionTipo).table
      : undefined;

  /**
   * A run of rows creating records, written in bulk inside a savepoint; if the bulk write cannot
   * take it (a lock, a record created meanwhile, a database error), the savepoint rolls back and
   * the run goes row by row, so one bad row never costs the others.
   */
  const runBulk = async (
    tx: SqlQueryable,
    rows: (ImportRow & { type: 'changes' })[],
    batch: ImportCounts,
  ) => {
    const sectionTipo = plan.sectionTipo!;
    const inputs: BulkRow[] = rows.map((r) => ({ line: r.line, row: r.row, now: deps.now() }));
    await tx.query('SAVEPOINT import_bulk');
    let outcomes: Awaited<ReturnType<typeof writeCreateRun>>;
    try {
      outcomes = await writeCreateRun(
        tx,
        { ontology, access, sectionTipo, table: bulkTable!, importId },
        inputs,
      );
      // A refusal that is not a rule's (a fault) is the per-row path's to raise.
      if (outcomes.some((o, i) => 'refused' in o && !refusalOf(rows[i]!, o.refused))) throw new RollBack();
      await tx.query('RELEASE SAVEPOINT import_bulk');
    } catch {
      await tx.query('ROLLBACK TO SAVEPOINT import_bulk');
      await tx.query('RELEASE SAVEPOINT import_bulk');
      const keys = [];
      for (const row of rows) keys.push(await runRow(tx, row, batch));
      return keys;
    }
    return outcomes.map((o, i) => {
      const row = rows[i]!;
      report.report.rows++;
      if (batchFirstLine === 0) batchFirstLine = row.line;
      if ('refused' in o) {
        report.refuse([refusalOf(row, o.refused)!], row.cells);
        progress(row.line, batch);
        return undefined;
      }
      batch.created++;
      report.outcome({ line: row.line, outcome: 'created', ...o.created });
      progress(row.line, batch);
      return o.created;
    });
  };

  /** A batch's rows: consecutive rows creating records in bulk, the others one by one, in order. */
  const runBatch = async (tx: SqlQueryable, rows: ImportRow[], batch: ImportCounts) => {
    const sectionTipo = plan.sectionTipo!;
    const named = rows.flatMap((r) =>
      r.type === 'changes' && r.row.action !== 'create' && r.row.sectionId !== undefined
        ? [r.row.sectionId]
        : [],
    );
    const { rows: found } = await tx.query<{ section_id: number }>(
      `SELECT m.section_id FROM ${bulkTable!} m JOIN unnest($2::integer[]) AS w(id)
         ON m.section_tipo = $1 AND m.section_id = w.id`,
      [sectionTipo, named],
    );
    // Records that exist, or that a row of this batch wrote: a row naming one updates it.
    const taken = new Set(found.map((r) => Number(r.section_id)));
    const creates = (r: ImportRow): r is ImportRow & { type: 'changes' } =>
      r.type === 'changes' &&
      r.refusals.length === 0 &&
      bulkRow(r.row) &&
      (r.row.action === 'create' || r.row.sectionId === undefined || !taken.has(r.row.sectionId));
    for (let i = 0; i < rows.length; ) {
      const run: (ImportRow & { type: 'changes' })[] = [];
      for (let r = rows[i]!; i < rows.length && creates(r); r = rows[++i]!) {
        run.push(r);
        if (r.row.action !== 'create' && r.row.sectionId !== undefined) taken.add(r.row.sectionId);
      }
      const keys = run.length > 0 ? await runBulk(tx, run, batch) : [await runRow(tx, rows[i++]!, batch)];
      for (const k of keys) if (k) taken.add(k.section_id);
    }
  };

  let status: 'done' | 'failed' = 'done';
  try {
    for (let more = true; more; ) {
      const batch: ImportCounts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
      batchFirstLine = 0;
      try {
        more = await deps.db.transaction(async (tx) => {
          if (importId !== null) await tagImportTransaction(tx, importId);
          if (bulkTable) {
            const rows: ImportRow[] = [];
            let done = false;
            while (rows.length < batchSize) {
              const next = await iterator.next();
              if (next.done) {
                done = true;
                break;
              }
              if (batchFirstLine === 0) batchFirstLine = next.value.line;
              rows.push(next.value);
            }
            await runBatch(tx, rows, batch);
            return !done;
          }
          for (let n = 0; n < batchSize; n++) {
            const next = await iterator.next();
            if (next.done) {
              if (dryRun || (allOrNothing && counts.refused > 0)) throw new RollBack();
              return false;
            }
            await runRow(tx, next.value, batch);
          }
          return true;
        });
        counts.created += batch.created;
        counts.updated += batch.updated;
        counts.unchanged += batch.unchanged;
      } catch (error) {
        if (!(error instanceof RollBack)) throw error;
        // What the run would have done, for the report; nothing of it is in the database.
        counts.created += batch.created;
        counts.updated += batch.updated;
        counts.unchanged += batch.unchanged;
        more = false;
      }
    }
    report.report.written = !dryRun && !(allOrNothing && counts.refused > 0);
  } catch (error) {
    // A fault (the database, a file unreadable past some line): this batch rolled back, earlier
    // ones stay (an all-or-nothing run keeps nothing) and can be undone.
    status = 'failed';
    const message =
      error instanceof CollectionFileError
        ? `the file cannot be read further: ${error.message}`
        : `the import stopped: ${error instanceof Error ? error.message : String(error)}`;
    report.report.failure = { line: batchFirstLine, message };
    report.dropOutcomesFrom(batchFirstLine);
    report.report.written = !allOrNothing && counts.created + counts.updated > 0;
    if (importId === null) throw error;
  } finally {
    await iterator.return?.(undefined);
  }
  const result = report.finish();
  if (importId !== null) {
    await finishImport(deps.db, importId, {
      status,
      counts: result.counts,
      report: { ...result, refused_csv: result.refused_csv },
      now: deps.now(),
    });
  }
  return result;
}
