/**
 * Rows to the JSON the API answers with, shared by the main thread and the SQLite workers (plain
 * CommonJS, like sqlite-worker.cjs, so a worker can load it from src/ under the test runner and
 * from dist/ in production).
 *
 * - Published text cells often hold JSON (relation arrays, locators, link objects). Clients of
 *   the older API expect those parsed, so a text cell that is a JSON array or object is returned
 *   as JSON; any other text is returned as it is stored. Transcriptions start with tags such as
 *   `[TC_00:00:00.000_TC]`, which look like arrays at first sight, and a failed JSON.parse costs
 *   an exception, so the first and last characters rule those out before parsing is attempted.
 * - A UTF-8 writer that stringifies an item at a time into one reused scratch buffer (why: see
 *   http/json-bytes.ts).
 * - `rowsJson`: a statement's rows as the bytes of the JSON array the API sends, written where
 *   the rows were read, so they never cross to the main thread as objects (sqlite-worker.cjs).
 */
'use strict';

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const QUOTE = 34;

const isSpace = (c) => c === SPACE || c === LF || c === CR || c === TAB;

/** What may follow `[` in a JSON array: a value's first character or `]`. */
function opensArrayItem(c) {
  return (
    c === QUOTE ||
    c === OPEN_BRACKET ||
    c === OPEN_BRACE ||
    c === CLOSE_BRACKET ||
    c === 45 || // -
    (c >= 48 && c <= 57) || // 0-9
    c === 116 || // t(rue)
    c === 102 || // f(alse)
    c === 110 // n(ull)
  );
}

/** Could `value` be a JSON array or object? (Necessary, not sufficient.) */
function looksLikeJsonContainer(value) {
  let start = 0;
  let end = value.length - 1;
  while (start <= end && isSpace(value.charCodeAt(start))) start++;
  while (end > start && isSpace(value.charCodeAt(end))) end--;
  if (start >= end) return false;
  const open = value.charCodeAt(start);
  const close = value.charCodeAt(end);
  let next = start + 1;
  while (next < end && isSpace(value.charCodeAt(next))) next++;
  const after = value.charCodeAt(next);
  if (open === OPEN_BRACE) return close === CLOSE_BRACE && (after === QUOTE || after === CLOSE_BRACE);
  if (open === OPEN_BRACKET) return close === CLOSE_BRACKET && opensArrayItem(after);
  return false;
}

/**
 * A text cell as the API answers it: parsed when it holds a JSON array or object.
 * @param {unknown} value
 * @returns {unknown}
 */
function parseJsonText(value) {
  if (typeof value !== 'string' || !looksLikeJsonContainer(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

const encoder = new TextEncoder();
/** Scratch buffers above this size are dropped after use rather than kept for the next answer. */
const KEEP_SCRATCH_BYTES = 4 * 1024 * 1024;

/**
 * Writes strings as UTF-8 into one growing scratch buffer; `take` copies the bytes out and
 * starts again. One per thread: the writing is synchronous, so answers never interleave.
 */
function createUtf8Writer() {
  let scratch = new Uint8Array(64 * 1024);
  let offset = 0;
  return {
    /** @param {string} text */
    put(text) {
      let read = 0;
      for (;;) {
        const r = encoder.encodeInto(read === 0 ? text : text.slice(read), scratch.subarray(offset));
        read += r.read;
        offset += r.written;
        if (read === text.length) return;
        // At most 3 bytes per UTF-16 unit: room for all of the rest at once.
        const grown = new Uint8Array(Math.max(scratch.length * 2, offset + (text.length - read) * 3));
        grown.set(scratch.subarray(0, offset));
        scratch = grown;
      }
    },
    /** @param {Uint8Array} bytes UTF-8 written as it is */
    putBytes(bytes) {
      if (offset + bytes.length > scratch.length) {
        const grown = new Uint8Array(Math.max(scratch.length * 2, offset + bytes.length));
        grown.set(scratch.subarray(0, offset));
        scratch = grown;
      }
      scratch.set(bytes, offset);
      offset += bytes.length;
    },
    /**
     * What was written, in a buffer of its own, and the writer starts again. (A slice: copying
     * into a Buffer.allocUnsafe with `set` measured 3-4x slower, 73 against 18 us for 172 KB.)
     * @returns {Uint8Array}
     */
    take() {
      const bytes = scratch.slice(0, offset);
      offset = 0;
      if (scratch.length > KEEP_SCRATCH_BYTES) scratch = new Uint8Array(64 * 1024);
      return bytes;
    },
  };
}

const rowWriter = createUtf8Writer();

/**
 * @typedef {object} RowsJsonShape
 * @property {readonly string[]} decode text columns whose JSON arrays and objects are parsed (parseJsonText)
 * @property {number} [limit] write at most this many rows (the rest are only counted)
 * @property {[string, unknown]} [only] write only the rows whose column holds this value
 * @property {string} [omit] a column read for `collect` or `only` but not written
 * @property {string} [collect] a column whose value in every row is returned as text, in order
 */

/**
 * @typedef {object} RowsJsonWritten
 * @property {Uint8Array} bytes the JSON array of the rows written
 * @property {number} count rows the statement returned, written or not
 * @property {number} written rows in `bytes`
 * @property {string[]} [collected] the `collect` column of every row, in order
 */

/**
 * The bytes of `JSON.stringify(rows)` after the shape's filtering and decoding, exactly as the
 * main thread would write the same rows (blobs as the plain byte arrays a structured clone
 * would have made of them).
 * @param {Record<string, unknown>[]} rows
 * @param {RowsJsonShape} shape
 * @returns {RowsJsonWritten}
 */
function rowsJson(rows, shape) {
  const { decode, limit = Number.POSITIVE_INFINITY, only, omit, collect } = shape;
  const collected = collect === undefined ? undefined : [];
  const keys = rows.length > 0 ? Object.keys(rows[0]) : [];
  let written = 0;
  rowWriter.put('[');
  for (const row of rows) {
    if (collected) collected.push(String(row[collect]));
    if (written >= limit || (only && row[only[0]] !== only[1])) continue;
    // Not `delete`: that turns the row into a slow dictionary object; stringify skips undefined.
    if (omit !== undefined) row[omit] = undefined;
    for (const name of decode) {
      const cell = row[name];
      if (typeof cell === 'string') row[name] = parseJsonText(cell);
    }
    for (const name of keys) {
      const cell = row[name];
      if (typeof cell === 'object' && cell !== null && Buffer.isBuffer(cell))
        row[name] = new Uint8Array(cell);
    }
    rowWriter.put(written === 0 ? JSON.stringify(row) : `,${JSON.stringify(row)}`);
    written++;
  }
  rowWriter.put(']');
  const bytes = rowWriter.take();
  return { bytes, count: rows.length, written, collected };
}

module.exports = { parseJsonText, createUtf8Writer, rowsJson };
