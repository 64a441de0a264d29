/**
 * Serialises an answer envelope to UTF-8 bytes, exactly as `Buffer.from(JSON.stringify(body))`
 * would, at less cost for the large lists this API answers with.
 *
 * Measured on a page of 100 interview rows (172 KB, node 20; BENCHMARKS.md "Request path"):
 * one JSON.stringify of the whole envelope builds one large string, and a single character
 * outside Latin-1 in any row (a typographic apostrophe is enough) makes all of it a two-byte
 * string: 500 us to build, then 345 us for Buffer.from to encode it. Stringified an item at a
 * time, rows without such characters stay one-byte strings (434 us in all), small enough to die
 * in the young generation instead of piling up in the large-object space between full
 * collections (the peaks of RSS under load), and TextEncoder.encodeInto writes each into one
 * scratch buffer (63 us for the whole body, SIMD-accelerated, where Buffer.from is not).
 * Small bodies take the same path: one stringify and one encodeInto.
 */

const encoder = new TextEncoder();
/** Reused between answers (the copy out is synchronous); dropped after an unusually large one. */
let scratch = new Uint8Array(64 * 1024);
const KEEP_SCRATCH_BYTES = 4 * 1024 * 1024;

/** Appends `text` at `offset`, growing the scratch buffer as needed; returns the new offset. */
function put(text: string, offset: number): number {
  let read = 0;
  for (;;) {
    const { read: r, written } = encoder.encodeInto(
      read === 0 ? text : text.slice(read),
      scratch.subarray(offset),
    );
    read += r;
    offset += written;
    if (read === text.length) return offset;
    // At most 3 bytes per UTF-16 unit: room for all of the rest at once.
    const grown = new Uint8Array(Math.max(scratch.length * 2, offset + (text.length - read) * 3));
    grown.set(scratch.subarray(0, offset));
    scratch = grown;
  }
}

/** JSON.stringify of one array item: `undefined`, functions and symbols become null. */
const itemJson = (value: unknown) => JSON.stringify(value) ?? 'null';

function putArray(items: readonly unknown[], offset: number): number {
  offset = put('[', offset);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) offset = put(',', offset);
    offset = put(itemJson(items[i]), offset);
  }
  return put(']', offset);
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
  let offset = 0;
  if (Array.isArray(value)) {
    offset = putArray(value, offset);
  } else if (isPlainObject(value)) {
    offset = put('{', offset);
    let first = true;
    for (const key of Object.keys(value)) {
      const member = value[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      offset = put(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`, offset);
      first = false;
      offset = Array.isArray(member) ? putArray(member, offset) : put(JSON.stringify(member), offset);
    }
    offset = put('}', offset);
  } else {
    offset = put(JSON.stringify(value) ?? 'null', offset);
  }
  const bytes = Buffer.allocUnsafe(offset);
  bytes.set(scratch.subarray(0, offset));
  if (scratch.length > KEEP_SCRATCH_BYTES) scratch = new Uint8Array(64 * 1024);
  return bytes;
}
