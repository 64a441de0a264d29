/**
 * JSON that is already bytes: a page of rows the SQLite workers wrote as the answer's JSON
 * (row-json.cjs), carried through the operation layer in place of row objects so the main thread
 * never rebuilds those rows only to stringify them again.
 *
 * Only the JSON doors (REST and batch, which send through http/json-bytes.ts) ask for rows in this
 * form (PublicationContext.rowsAsJson). json-bytes copies the bytes into the answer where the
 * value stands, at any depth. Anything else that serialises one, with JSON.stringify, gets the
 * rows parsed back (toJSON), so the value is correct wherever it ends up, only slower.
 */
import { randomBytes } from 'node:crypto';

const decoder = new TextDecoder();

/** Set while json-bytes stringifies a value: the RawJson met, in order. */
let captured: RawJson[] | undefined;
/**
 * What toJSON answers while capturing: a string no data can hold by chance or by design (a
 * random part per process), followed by the value's index in `captured`.
 */
const MARK = `rawjson-${randomBytes(12).toString('hex')}:`;
const QUOTED_MARK = `"${MARK}`;

export class RawJson {
  constructor(
    /** UTF-8 of one JSON value (here: an array of rows). */
    readonly bytes: Uint8Array,
    /** How many items the array holds. */
    readonly length: number,
  ) {}

  toJSON(): unknown {
    if (captured !== undefined) {
      captured.push(this);
      return `${MARK}${captured.length - 1}`;
    }
    return JSON.parse(decoder.decode(this.bytes));
  }
}

/**
 * Stringifies `value` as JSON.stringify does, and hands each piece to `text` or, for a RawJson
 * inside it, its bytes to `bytes`, in order: the caller's output is JSON.stringify's with the
 * RawJson written out.
 */
export function stringifyWithRaw(
  value: unknown,
  text: (piece: string) => void,
  bytes: (raw: Uint8Array) => void,
): void {
  const outer = captured;
  const mine: RawJson[] = [];
  captured = mine;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } finally {
    captured = outer;
  }
  if (json === undefined) {
    text('null');
    return;
  }
  if (mine.length === 0) {
    text(json);
    return;
  }
  let from = 0;
  for (;;) {
    const at = json.indexOf(QUOTED_MARK, from);
    if (at < 0) break;
    const close = json.indexOf('"', at + QUOTED_MARK.length);
    const index = Number(json.slice(at + QUOTED_MARK.length, close));
    if (at > from) text(json.slice(from, at));
    bytes(mine[index]!.bytes);
    from = close + 1;
  }
  if (from < json.length) text(json.slice(from));
}

/**
 * Rows a caller reads: only contexts without `rowsAsJson` read them, so RawJson here is a wiring
 * fault, not something to parse back quietly.
 */
export function rowObjects<T>(rows: T[] | RawJson): T[] {
  if (rows instanceof RawJson) throw new Error('rows arrived as JSON bytes where a door reads them');
  return rows;
}
