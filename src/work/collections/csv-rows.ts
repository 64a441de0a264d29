/**
 * Reads a CSV file as a stream of rows (csv-parse, RFC 4180): UTF-8 with or without a BOM, `;` or
 * `,` detected from the header row, CRLF or LF line ends, quoted fields that span lines. Memory
 * stays flat whatever the number of rows; the limits below bound what one row can cost, so a
 * hostile file (a million columns, one endless cell) is refused early with a clear error. Cells
 * are text: nothing is evaluated (a cell starting with `=` is the text `=...`).
 */
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { CollectionFileError } from './collection-file-error.js';
import { type CsvSeparator, detectSeparator } from './dedalo-csv-format.js';
import { utf8Chunks } from './utf8-check.js';

export const CSV_LIMITS = {
  /** Columns of a row. */
  maxColumns: 2_000,
  /** Characters of one cell: the longest text a component holds (a transcription) is 5,000,000. */
  maxCellChars: 5_000_000,
  /** Characters of one row, all cells together. */
  maxRowChars: 8_000_000,
  /** How much of the file is looked at to find the separator (the header row, normally). */
  headerPeekBytes: 1 << 20,
} as const;

export type CsvLimits = { [K in keyof typeof CSV_LIMITS]: number };

export interface CsvRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  cells: string[];
}

export interface CsvReader {
  separator: CsvSeparator;
  rows: AsyncGenerator<CsvRow>;
}

export interface CsvOptions {
  /** Forces the separator instead of detecting it. */
  separator?: CsvSeparator;
  limits?: Partial<CsvLimits>;
}

/** Counts the separators outside quotes before the first line end (or the end of `text`). */
function headerColumns(text: string, separator: string): number {
  let columns = 1;
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c === separator) columns++;
  }
  return columns;
}

function csvFailure(error: unknown, limits: CsvLimits): unknown {
  if (!(error instanceof CsvError)) return error;
  const lines: unknown = (error as unknown as { lines?: unknown }).lines;
  const line = typeof lines === 'number' ? lines : undefined;
  if (error.code === 'CSV_MAX_RECORD_SIZE') {
    return new CollectionFileError('limit', `a row is longer than ${limits.maxRowChars} characters`, {
      line,
    });
  }
  // csv-parse's own wording names the problem (an unclosed quote, a quote inside a field).
  return new CollectionFileError('syntax', `the CSV is malformed: ${error.message}`, { line });
}

/**
 * Opens a CSV byte stream: detects the separator from the first row (which stays in `rows`),
 * then yields every non-empty row. Throws CollectionFileError for invalid UTF-8, broken quoting
 * and exceeded limits; nothing else.
 */
export async function openCsv(
  source: AsyncIterable<Uint8Array | string>,
  options: CsvOptions = {},
): Promise<CsvReader> {
  const limits: CsvLimits = { ...CSV_LIMITS, ...options.limits };
  const chunks = utf8Chunks(source);
  // Peek at the start of the file until the header row is complete (or enough of it is seen).
  const peeked: Buffer[] = [];
  let peekedBytes = 0;
  while (peekedBytes < limits.headerPeekBytes) {
    const next = await chunks.next();
    if (next.done) break;
    peeked.push(next.value);
    peekedBytes += next.value.length;
    if (next.value.includes(0x0a)) break;
  }
  const head = Buffer.concat(peeked)
    .subarray(0, limits.headerPeekBytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const separator = options.separator ?? detectSeparator(head);
  if (headerColumns(head, separator) > limits.maxColumns) {
    throw new CollectionFileError('limit', `the header row has more than ${limits.maxColumns} columns`, {
      line: 1,
    });
  }

  async function* all(): AsyncGenerator<Buffer> {
    yield* peeked;
    yield* chunks;
  }

  async function* rows(): AsyncGenerator<CsvRow> {
    const parser = parse({
      delimiter: separator,
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: limits.maxRowChars,
    });
    const input = Readable.from(all());
    input.on('error', (error) => parser.destroy(error));
    input.pipe(parser);
    // Lines are counted here: a row starts after the previous one's line breaks (a quoted
    // field may span lines) and the empty lines skipped since.
    let nextLine = 1;
    let emptyLines = 0;
    try {
      for await (const { record, info } of parser as AsyncIterable<{
        record: string[];
        info: { empty_lines: number };
      }>) {
        const line = nextLine + info.empty_lines - emptyLines;
        emptyLines = info.empty_lines;
        nextLine = line + countBreaks(record) + 1;
        if (record.length > limits.maxColumns) {
          throw new CollectionFileError('limit', `the row has more than ${limits.maxColumns} columns`, {
            line,
          });
        }
        for (const [i, cell] of record.entries()) {
          if (cell.length > limits.maxCellChars) {
            throw new CollectionFileError(
              'limit',
              `the cell is longer than ${limits.maxCellChars} characters`,
              {
                line,
                column: i + 1,
              },
            );
          }
        }
        yield { line, cells: record };
      }
    } catch (error) {
      throw csvFailure(error, limits);
    } finally {
      input.destroy();
      parser.destroy();
    }
  }

  return { separator, rows: rows() };
}

/** Line breaks inside a record's cells (a quoted field spanning lines). */
function countBreaks(record: readonly string[]): number {
  let n = 0;
  for (const cell of record) {
    if (!cell.includes('\n') && !cell.includes('\r')) continue;
    n += (cell.match(/\r\n|\r|\n/g) ?? []).length;
  }
  return n;
}
