/**
 * Reads a Dédalo CSV file for one section (docs/import-export.md, "Collection files"): the header
 * row names `section_id` and component tipos (a row of labels may follow and is skipped), each
 * row becomes the changes a save would apply to each component, or is refused with the line and
 * column of every problem. Rows with a `section_id` update that record (created if missing);
 * rows without one create a record. Nothing is written: that is the import's job.
 */
import { MAX_SECTION_ID } from '../components/component-values.js';
import type { Ontology } from '../ontology/load-ontology.js';
import type { OntologyNode } from '../ontology/ontology-schema.js';
import {
  asRefusal,
  type CellRefusal,
  CellRefused,
  type ComponentChange,
  cellChanges,
  importableProblem,
  type RefusalReason,
} from './cell-changes.js';
import { CollectionFileError } from './collection-file-error.js';
import { type CsvOptions, type CsvRow, openCsv } from './csv-rows.js';
import { type CsvSeparator, type HeaderColumn, isLabelRow, parseHeaderCell } from './dedalo-csv-format.js';

export interface DedaloCsvColumn {
  /** 1-based column of the file. */
  index: number;
  header: string;
  role: 'section_id' | 'section_tipo' | 'component' | 'ignored';
  tipo?: string;
  model?: string;
  /** Why the column cannot be imported: its filled cells refuse their row. */
  problem?: { reason: RefusalReason; message: string };
}

export interface DedaloCsvHeader {
  separator: CsvSeparator;
  sectionTipo: string;
  columns: DedaloCsvColumn[];
  /** The header row's cells as read. */
  cells: string[];
  /** Whether a row of labels followed the header (it was skipped). */
  labelRow: boolean;
}

export interface DedaloCsvRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  /**
   * `update_or_create`: the row names its record (`sectionId`), updated or created with that id;
   * `create`: a new record.
   */
  action: 'update_or_create' | 'create';
  sectionId?: number;
  /** The changes, in column order; empty when the row is refused. */
  changes: ComponentChange[];
  /** Every problem of the row; any refusal refuses the whole row. */
  refusals: CellRefusal[];
  /** The row's cells as read (a refused row is written back with them, to fix and re-import). */
  cells: string[];
}

export interface DedaloCsvOptions {
  ontology: Ontology;
  sectionTipo: string;
  /** The language of plain text in translatable columns. */
  lang: string;
  csv?: CsvOptions;
}

export interface DedaloCsvReader {
  header: DedaloCsvHeader;
  rows: AsyncGenerator<DedaloCsvRow>;
}

export function checkedSection(ontology: Ontology, sectionTipo: string): OntologyNode {
  const section = ontology.node(sectionTipo);
  if (section?.model !== 'section') {
    throw new CollectionFileError('section', `${sectionTipo.slice(0, 64)} is not a section of the ontology`);
  }
  return section;
}

function describeColumns(
  ontology: Ontology,
  sectionTipo: string,
  cells: readonly string[],
): { columns: DedaloCsvColumn[]; parsed: HeaderColumn[] } {
  const parsed = cells.map(parseHeaderCell);
  const seen = new Map<string, number>();
  const columns = parsed.map((h, i): DedaloCsvColumn => {
    const index = i + 1;
    const header = cells[i]!.trim();
    const key = h.kind === 'component' ? h.tipo : h.kind;
    if (h.kind !== 'other') {
      const first = seen.get(key);
      if (first !== undefined) {
        throw new CollectionFileError('header', `${key} is the header of columns ${first} and ${index}`, {
          line: 1,
          column: index,
        });
      }
      seen.set(key, index);
    }
    if (h.kind === 'section_id' || h.kind === 'section_tipo') return { index, header, role: h.kind };
    // Not a tipo (Dédalo's metadata columns such as created_date): listed, its cells ignored.
    if (h.kind === 'other') return { index, header, role: 'ignored' };
    const node = ontology.node(h.tipo);
    if (!node) {
      return {
        index,
        header,
        role: 'component',
        tipo: h.tipo,
        problem: { reason: 'unknown_tipo', message: `${h.tipo} is not in the ontology` },
      };
    }
    const column: DedaloCsvColumn = { index, header, role: 'component', tipo: h.tipo, model: node.model };
    if (!ontology.sectionEditComponents(sectionTipo).some((c) => c.tipo === h.tipo)) {
      column.problem = {
        reason: 'not_in_section',
        message: `${h.tipo} is not a component of ${sectionTipo}`,
      };
    } else if (node.properties?.computed) {
      // Computed from other components (a full name): the save recomputes it, so the column an
      // export writes is skipped on the way back in, and the round trip holds.
      return { index, header, role: 'ignored', tipo: h.tipo, model: node.model };
    } else {
      const problem = importableProblem(node);
      if (problem) column.problem = { reason: 'not_importable', message: problem };
    }
    return column;
  });
  if (columns.length === 0 || columns.every((c) => c.header === '')) {
    throw new CollectionFileError('header', 'the header row is empty', { line: 1 });
  }
  return { columns, parsed };
}

/** A `section_id` cell: undefined when empty; throws (with the message) when not a record id. */
export function recordIdOf(text: string): number | undefined {
  const id = text.trim();
  if (id === '') return undefined;
  const n = /^\d{1,10}$/.test(id) ? Number(id) : Number.NaN;
  if (!(n >= 1 && n <= MAX_SECTION_ID)) {
    throw new Error(`"${id.slice(0, 32)}" is not a record id (1 to ${MAX_SECTION_ID})`);
  }
  return n;
}

/** One data row's record action, changes and refusals. */
function readRow(row: CsvRow, columns: readonly DedaloCsvColumn[], options: DedaloCsvOptions): DedaloCsvRow {
  const refusals: CellRefusal[] = [];
  const changes: ComponentChange[] = [];
  const refuse = (column: DedaloCsvColumn | undefined, reason: RefusalReason, message: string) =>
    refusals.push({
      line: row.line,
      column: column?.index ?? 0,
      header: column?.header ?? '',
      reason,
      message,
    });
  let sectionId: number | undefined;
  if (row.cells.length > columns.length) {
    refuse(undefined, 'format', `the row has ${row.cells.length} cells, the header ${columns.length}`);
  }
  for (const column of columns) {
    const text = row.cells[column.index - 1] ?? '';
    if (column.role === 'section_id') {
      try {
        sectionId = recordIdOf(text);
      } catch (error) {
        refuse(column, 'section_id', (error as Error).message);
      }
      continue;
    }
    if (column.role === 'section_tipo') {
      const tipo = text.trim();
      if (tipo !== '' && tipo !== options.sectionTipo) {
        refuse(
          column,
          'section_tipo',
          `the row is of ${tipo.slice(0, 64)}, the import is into ${options.sectionTipo}`,
        );
      }
      continue;
    }
    if (column.problem) {
      // An unusable column refuses only the rows that put something in it.
      if (text.trim() !== '') refuse(column, column.problem.reason, column.problem.message);
      continue;
    }
    if (column.role !== 'component') continue;
    try {
      changes.push(...cellChanges(options, options.ontology.node(column.tipo!)!, text));
    } catch (error) {
      const refusal = asRefusal(error);
      if (!(refusal instanceof CellRefused)) throw refusal;
      refuse(column, refusal.reason, refusal.message);
    }
  }
  return {
    line: row.line,
    action: sectionId === undefined ? 'create' : 'update_or_create',
    ...(sectionId === undefined ? {} : { sectionId }),
    changes: refusals.length > 0 ? [] : changes,
    refusals,
    cells: row.cells,
  };
}

/**
 * Opens a Dédalo CSV byte stream for `options.sectionTipo`. Throws CollectionFileError for a file
 * that cannot be read at all (encoding, quoting, limits, an empty or duplicated header, an unknown
 * section); problems of single rows are their refusals.
 */
export async function readDedaloCsv(
  source: AsyncIterable<Uint8Array | string>,
  options: DedaloCsvOptions,
): Promise<DedaloCsvReader> {
  const { ontology, sectionTipo } = options;
  checkedSection(ontology, sectionTipo);
  const csv = await openCsv(source, options.csv);
  const first = await csv.rows.next();
  if (first.done) throw new CollectionFileError('header', 'the file is empty: no header row', { line: 1 });
  const { columns, parsed } = describeColumns(ontology, sectionTipo, first.value.cells);
  const second = await csv.rows.next();
  const labelsOf = (tipo: string) => Object.values(ontology.node(tipo)?.label ?? {});
  const labelRow = !second.done && isLabelRow(second.value.cells, parsed, labelsOf);

  async function* rows(): AsyncGenerator<DedaloCsvRow> {
    if (!second.done && !labelRow) yield readRow(second.value, columns, options);
    for await (const row of csv.rows) yield readRow(row, columns, options);
  }

  return {
    header: { separator: csv.separator, sectionTipo, columns, cells: first.value.cells, labelRow },
    rows: rows(),
  };
}
