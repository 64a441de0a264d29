/**
 * The one error the collection file readers throw: the file as a whole cannot be read (bytes that
 * are not UTF-8, broken CSV quoting, a header with too many columns, a cell over the size limit,
 * a mapping file that does not fit the ontology). A problem inside one readable row is not an
 * error: it is that row's refusal, and the other rows are read.
 */

export type CollectionFileErrorKind =
  /** Bytes that are not UTF-8. */
  | 'encoding'
  /** CSV or COPY syntax: unterminated or stray quotes, a lone backslash, a wrong field count. */
  | 'syntax'
  /** A limit that protects memory: columns, cell or row size. */
  | 'limit'
  /** The header row: no columns, a duplicated column. */
  | 'header'
  /** A mapping file: not JSON, not the schema, or names that the file or the ontology lack. */
  | 'mapping'
  /** The section asked for is not a section of the ontology. */
  | 'section';

export interface CollectionFilePosition {
  /** 1-based line of the file. */
  line?: number;
  /** 1-based column (CSV field) of the row. */
  column?: number;
  /** 0-based byte offset in the file. */
  byteOffset?: number;
}

export class CollectionFileError extends Error {
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly byteOffset: number | undefined;

  constructor(
    readonly kind: CollectionFileErrorKind,
    message: string,
    position: CollectionFilePosition = {},
  ) {
    const where = [
      position.line !== undefined ? `line ${position.line}` : '',
      position.column !== undefined ? `column ${position.column}` : '',
      position.byteOffset !== undefined ? `byte ${position.byteOffset}` : '',
    ].filter((w) => w !== '');
    super(where.length > 0 ? `${where.join(', ')}: ${message}` : message);
    this.name = 'CollectionFileError';
    this.line = position.line;
    this.column = position.column;
    this.byteOffset = position.byteOffset;
  }
}
