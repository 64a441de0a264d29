/**
 * A string built one UTF-16 unit at a time together with, for each unit, the [start, end) span
 * of the source it came from. Plain text and folded text are built this way; typed arrays keep
 * that cheap on transcriptions of a few hundred thousand characters.
 */
import { endianness } from 'node:os';

export interface MappedText {
  text: string;
  starts: Int32Array;
  ends: Int32Array;
}

const CHUNK = 8192;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * The string of UTF-16 units `codes`, lone surrogates kept as they are. Node's UTF-16LE decoder
 * over the same memory is 5-10 times faster than String.fromCharCode on texts of a thousand
 * units (and V8 still makes a one-byte string when every unit fits); fromCharCode, a chunk at a
 * time, remains for a big-endian machine.
 */
export function stringOfUnits(codes: Uint16Array): string {
  if (LITTLE_ENDIAN) return Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength).toString('utf16le');
  let text = '';
  for (let i = 0; i < codes.length; i += CHUNK) {
    // apply takes the typed array as it is; spreading it would run an iterator per unit.
    text += String.fromCharCode.apply(
      null,
      codes.subarray(i, Math.min(codes.length, i + CHUNK)) as unknown as number[],
    );
  }
  return text;
}

/**
 * The units are only needed until build() turns them into a string, so builders borrow one
 * shared buffer for them (when no other builder holds it), and a source span is one Int32Array
 * holding starts then ends: one allocation per text instead of three. Allocating typed arrays was
 * a fifth of the fragment work of a search (about 3.5 us each for a 750-character text).
 */
let sharedCodes: Uint16Array | undefined = new Uint16Array(CHUNK);

export class MappedTextBuilder {
  private codes: Uint16Array;
  private ownsShared: boolean;
  /** Starts in [0, capacity), ends in [capacity, 2 * capacity). */
  private spans: Int32Array;
  private capacity: number;
  length = 0;

  constructor(capacity: number) {
    const size = Math.max(16, capacity);
    this.capacity = size;
    this.ownsShared = sharedCodes !== undefined && sharedCodes.length >= size;
    this.codes = this.ownsShared ? sharedCodes! : new Uint16Array(size);
    if (this.ownsShared) sharedCodes = undefined;
    this.spans = new Int32Array(2 * size);
  }

  push(code: number, start: number, end: number): void {
    if (this.length === this.capacity) this.grow();
    this.codes[this.length] = code;
    this.spans[this.length] = start;
    this.spans[this.capacity + this.length] = end;
    this.length++;
  }

  /**
   * Units [from, to) of `source` as they are, each its own source span: a run of ordinary
   * characters, copied in one loop instead of a push per unit.
   */
  pushRun(source: string, from: number, to: number): void {
    while (this.length + (to - from) > this.capacity) this.grow();
    const codes = this.codes;
    const spans = this.spans;
    const ends = this.capacity;
    let n = this.length;
    for (let i = from; i < to; i++, n++) {
      codes[n] = source.charCodeAt(i);
      spans[n] = i;
      spans[ends + n] = i + 1;
    }
    this.length = n;
  }

  /** The source span of the last unit reaches `end` (a combining mark joins its base letter). */
  extendLast(end: number): void {
    if (this.length > 0) this.spans[this.capacity + this.length - 1] = end;
  }

  lastCode(): number {
    return this.length > 0 ? this.codes[this.length - 1]! : -1;
  }

  build(): MappedText {
    // Lone surrogates stay as they are (a TextDecoder would replace them).
    const text = stringOfUnits(this.codes.subarray(0, this.length));
    // The shared buffer goes back only now: the string no longer needs it.
    if (this.ownsShared) {
      sharedCodes = this.codes;
      this.ownsShared = false;
    }
    // Views, not copies: the builder is dropped after build(), so nothing else writes to them.
    const n = this.length;
    return {
      text,
      starts: this.spans.subarray(0, n),
      ends: this.spans.subarray(this.capacity, this.capacity + n),
    };
  }

  private grow(): void {
    const size = this.capacity * 2;
    const codes = new Uint16Array(size);
    codes.set(this.codes.subarray(0, this.length));
    const spans = new Int32Array(2 * size);
    spans.set(this.spans.subarray(0, this.length));
    spans.set(this.spans.subarray(this.capacity, this.capacity + this.length), size);
    // A borrowed shared buffer is given back as it was (its owner grew out of it).
    if (this.ownsShared) {
      sharedCodes = this.codes;
      this.ownsShared = false;
    }
    this.codes = codes;
    this.spans = spans;
    this.capacity = size;
  }
}
