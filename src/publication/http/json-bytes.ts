/**
 * Serialises an answer envelope to UTF-8 bytes, exactly as `Buffer.from(JSON.stringify(body))`
 * would, at less cost for the large lists this API answers with, and with the bytes of any
 * RawJson in it (rows the SQLite workers already wrote as JSON, db/raw-json.ts) copied in place.
 *
 * Measured on a page of 100 interview rows (172 KB, node 20; docs/benchmarks.md):
 * one JSON.stringify of the whole envelope builds one large string, and a single character
 * outside Latin-1 in any row (a typographic apostrophe is enough) makes all of it a two-byte
 * string: 500 us to build, then 345 us for Buffer.from to encode it. Stringified an item at a
 * time, rows without such characters stay one-byte strings (434 us in all), small enough to die
 * in the young generation instead of piling up in the large-object space between full
 * collections (the peaks of RSS under load), and TextEncoder.encodeInto writes each into one
 * scratch buffer (63 us for the whole body, SIMD-accelerated, where Buffer.from is not).
 * Small bodies take the same path: one stringify and one encodeInto.
 */
import { RawJson, stringifyWithRaw } from '../db/raw-json.js';
import { createUtf8Writer } from '../db/row-json.cjs';

/** Reused between answers (the copy out is synchronous). */
const writer = createUtf8Writer();
const text = (piece: string) => writer.put(piece);
const bytes = (raw: Uint8Array) => writer.putBytes(raw);

/** One value as JSON.stringify writes it (`undefined`, functions and symbols as `null`). */
function putValue(value: unknown): void {
  if (value instanceof RawJson) writer.putBytes(value.bytes);
  else stringifyWithRaw(value, text, bytes);
}

function putArray(items: readonly unknown[]): void {
  writer.put('[');
  for (let i = 0; i < items.length; i++) {
    if (i > 0) writer.put(',');
    putValue(items[i]);
  }
  writer.put(']');
}

/** A plain object that JSON.stringify writes member by member (no toJSON of its own). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (
    (proto === Object.prototype || proto === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/**
 * The bytes of `JSON.stringify(value)` (`null` for undefined). A top-level array, and the arrays
 * that are members of a top-level plain object (`data`, `results`, a v1 `result`), are written an
 * item at a time; everything else with one stringify per member.
 */
export function jsonBytes(value: unknown): Buffer {
  if (Array.isArray(value)) {
    putArray(value);
  } else if (isPlainObject(value)) {
    writer.put('{');
    let first = true;
    for (const key of Object.keys(value)) {
      const member = value[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      writer.put(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
      first = false;
      if (Array.isArray(member)) putArray(member);
      else putValue(member);
    }
    writer.put('}');
  } else {
    putValue(value);
  }
  const bytes = writer.take();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}
