/**
 * Passes a byte stream through only if it is UTF-8, chunk by chunk (a character split across two
 * chunks is carried over), so an invalid byte is refused with its exact offset and line instead
 * of becoming U+FFFD silently in the middle of someone's data.
 */
import { isUtf8 } from 'node:buffer';
import { CollectionFileError } from './collection-file-error.js';

/** Length of the sequence a lead byte starts (0: not a lead byte). */
function sequenceLength(byte: number): number {
  if (byte < 0x80) return 1;
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 0;
}

/** Index of the first byte that does not start or continue a valid sequence (-1: all valid). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    const n = sequenceLength(lead);
    if (n === 0) return i;
    if (i + n > bytes.length) return i;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const second = bytes[i + 1] ?? 0;
    let low = 0x80;
    let high = 0xbf;
    if (lead === 0xe0) low = 0xa0;
    else if (lead === 0xed) high = 0x9f;
    else if (lead === 0xf0) low = 0x90;
    else if (lead === 0xf4) high = 0x8f;
    if (n > 1 && (second < low || second > high)) return i;
    for (let k = 2; k < n; k++) {
      const b = bytes[i + k]!;
      if (b < 0x80 || b > 0xbf) return i;
    }
    i += n;
  }
  return -1;
}

/** Where a trailing incomplete sequence starts (`bytes.length` when the chunk ends cleanly). */
function completeLength(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const b = bytes[bytes.length - back]!;
    if (b >= 0x80 && b <= 0xbf) continue;
    const n = sequenceLength(b);
    return n > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

function countNewlines(bytes: Uint8Array, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (bytes[i] === 0x0a) n++;
  return n;
}

/** The chunks of `source` as Buffers, each ending on a character boundary; throws on invalid UTF-8. */
export async function* utf8Chunks(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Buffer> {
  let carry: Buffer = Buffer.alloc(0);
  let offset = 0;
  let lines = 0;
  const fail = (bytes: Uint8Array, at: number, what: string): never => {
    throw new CollectionFileError(
      'encoding',
      `${what} (byte 0x${(bytes[at] ?? 0).toString(16)}); save the file as UTF-8`,
      {
        line: lines + countNewlines(bytes, at) + 1,
        byteOffset: offset + at,
      },
    );
  };
  for await (const chunk of source) {
    const bytes = carry.length > 0 ? Buffer.concat([carry, Buffer.from(chunk)]) : Buffer.from(chunk);
    const end = completeLength(bytes);
    const body = bytes.subarray(0, end);
    if (!isUtf8(body)) fail(body, firstInvalidUtf8(body), 'the file is not valid UTF-8');
    carry = Buffer.from(bytes.subarray(end));
    lines += countNewlines(body, body.length);
    offset += body.length;
    if (body.length > 0) yield body;
  }
  if (carry.length > 0) fail(carry, 0, 'the file ends inside a UTF-8 character');
}
