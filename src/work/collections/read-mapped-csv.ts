/**
 * Reads a spreadsheet CSV (any header names) with a mapping file (column-mapping.ts): each row
 * becomes the changes a save would apply, like a Dédalo CSV row, with values written the way a
 * person types them (plain text, `1931-04-14`, `12.5`, record ids). A relation column matched by
 * key yields a request to find the target records whose key component has that text; resolving it
 * is the import's job, which has the database.
 */
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import {
  asRefusal,
  type CellRefusal,
  CellRefused,
  type ComponentChange,
  decodedChanges,
  type RefusalReason,
} from './cell-changes.js';
import { CollectionFileError } from './collection-file-error.js';
import {
  type ColumnMappingFile,
  type MappedColumn,
  type ResolvedMapping,
  resolveMapping,
} from './column-mapping.js';
import { type CsvOptions, type CsvRow, openCsv } from './csv-rows.js';
import { type DecodedCell, decodeCell } from './dedalo-csv-format.js';
import { recordIdOf } from './read-dedalo-csv.js';

/** Find the records of `section_tipo` whose `key_tipo` text is each of `texts`, and link them. */
export interface MatchByKeyChange {
  kind: 'match_by_key';
  tipo: string;
  column: 'relation';
  section_tipo: string;
  key_tipo: string;
  texts: string[];
}

export type MappedChange = ComponentChange | MatchByKeyChange;

export interface MappedCsvRow {
  line: number;
  action: 'update_or_create' | 'create';
  sectionId?: number;
  changes: MappedChange[];
  refusals: CellRefusal[];
  /** The row's cells as read. */
  cells: string[];
}

export interface MappedCsvReader {
  mapping: ResolvedMapping;
  separator: ';' | ',';
  /** The header row's cells as read. */
  headerCells: string[];
  rows: AsyncGenerator<MappedCsvRow>;
}

export interface MappedCsvOptions {
  ontology: Ontology;
  mapping: ColumnMappingFile;
  csv?: CsvOptions;
}

const decoded = (lang: string | undefined, values: unknown[]): DecodedCell => ({
  empty: false,
  byLang: new Map([[lang ?? null, values]]),
});

/** One mapped cell's changes; throws CellRefused. */
function mappedChanges(options: MappedCsvOptions, column: MappedColumn, text: string): MappedChange[] {
  const node = options.ontology.node(column.tipo)!;
  const ctx = { ontology: options.ontology, lang: column.lang ?? NO_LANG };
  const values = (column.separator === undefined ? [text] : text.split(column.separator))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  switch (column.kind) {
    case 'text':
      // Text keeps its spaces; only a split value is trimmed.
      return decodedChanges(
        ctx,
        node,
        decoded(column.lang, column.separator === undefined ? [text] : values),
      );
    case 'number':
    case 'date': {
      const parsed = values.flatMap((v) => {
        const cell = decodeCell(column.kind, v);
        return cell.empty ? [] : [...cell.byLang.values()].flat();
      });
      return decodedChanges(ctx, node, decoded(column.lang, parsed));
    }
    case 'relation': {
      const match = column.match!;
      if (match.by === 'key') {
        return [
          {
            kind: 'match_by_key',
            tipo: column.tipo,
            column: 'relation',
            section_tipo: match.section,
            key_tipo: match.component,
            texts: values,
          },
        ];
      }
      const locators = values.map((id) => ({ section_tipo: match.section, section_id: id }));
      return decodedChanges(ctx, node, decoded(undefined, locators));
    }
    default:
      // JSON-valued components (json, access grid, media, models not implemented): a JSON cell.
      return decodedChanges(ctx, node, decodeCell(column.kind, text));
  }
}

/** An empty cell empties the component: its column's language, or all of it (stored items). */
function emptied(options: MappedCsvOptions, column: MappedColumn): ComponentChange {
  const stored = options.ontology.dataColumnOf(column.tipo) ?? 'misc';
  if (column.kind === 'stored' || column.kind === 'media')
    return { kind: 'clear', tipo: column.tipo, column: stored };
  return { kind: 'set_data', tipo: column.tipo, column: stored, lang: column.lang ?? NO_LANG, value: [] };
}

function readRow(row: CsvRow, mapping: ResolvedMapping, options: MappedCsvOptions): MappedCsvRow {
  const refusals: CellRefusal[] = [];
  const changes: MappedChange[] = [];
  const refuse = (index: number, header: string, reason: RefusalReason, message: string) =>
    refusals.push({ line: row.line, column: index, header, reason, message });
  let sectionId: number | undefined;
  if (mapping.idColumn !== undefined) {
    try {
      sectionId = recordIdOf(row.cells[mapping.idColumn - 1] ?? '');
    } catch (error) {
      refuse(mapping.idColumn, options.mapping.id_column ?? '', 'section_id', (error as Error).message);
    }
  }
  for (const column of mapping.columns) {
    const text = row.cells[column.index - 1] ?? '';
    try {
      if (text.trim() === '') {
        changes.push(emptied(options, column));
        continue;
      }
      changes.push(...mappedChanges(options, column, text));
    } catch (error) {
      const refusal = asRefusal(error);
      if (!(refusal instanceof CellRefused)) throw refusal;
      refuse(column.index, column.name, refusal.reason, refusal.message);
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
 * Opens a spreadsheet CSV with its mapping. Throws CollectionFileError when the file cannot be
 * read or the mapping does not fit the ontology or the file's header.
 */
export async function readMappedCsv(
  source: AsyncIterable<Uint8Array | string>,
  options: MappedCsvOptions,
): Promise<MappedCsvReader> {
  const csv = await openCsv(source, options.csv);
  const first = await csv.rows.next();
  if (first.done) throw new CollectionFileError('header', 'the file is empty: no header row', { line: 1 });
  const mapping = resolveMapping(options.ontology, options.mapping, first.value.cells);
  async function* rows(): AsyncGenerator<MappedCsvRow> {
    for await (const row of csv.rows) yield readRow(row, mapping, options);
  }
  return { mapping, separator: csv.separator, headerCells: first.value.cells, rows: rows() };
}
