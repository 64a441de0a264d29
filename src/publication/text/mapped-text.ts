/**
 * A string built one UTF-16 unit at a time together with, for each unit, the [start, end) span
 * of the source it came from. Plain text and folded text are built this way; typed arrays keep
 * that cheap on transcriptions of a few hundred thousand characters.
 */
export interface MappedText {
  text: string;
  starts: Int32Array;
  ends: Int32Array;
}

const CHUNK = 8192;

export class MappedTextBuilder {
  private codes: Uint16Array;
  private starts: Int32Array;
  private ends: Int32Array;
  length = 0;

  constructor(capacity: number) {
    const size = Math.max(16, capacity);
    this.codes = new Uint16Array(size);
    this.starts = new Int32Array(size);
    this.ends = new Int32Array(size);
  }

  push(code: number, start: number, end: number): void {
    if (this.length === this.codes.length) this.grow();
    this.codes[this.length] = code;
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.length++;
  }

  /** The source span of the last unit reaches `end` (a combining mark joins its base letter). */
  extendLast(end: number): void {
    if (this.length > 0) this.ends[this.length - 1] = end;
  }

  lastCode(): number {
    return this.length > 0 ? this.codes[this.length - 1]! : -1;
  }

  build(): MappedText {
    let text = '';
    // fromCharCode keeps lone surrogates as they are (a TextDecoder would replace them).
    for (let i = 0; i < this.length; i += CHUNK) {
      const chunk = this.codes.subarray(i, Math.min(this.length, i + CHUNK));
      // apply takes the typed array as it is; spreading it would run an iterator per unit.
      text += String.fromCharCode.apply(null, chunk as unknown as number[]);
    }
    // Views, not copies: the builder is dropped after build(), so nothing else writes to them.
    return { text, starts: this.starts.subarray(0, this.length), ends: this.ends.subarray(0, this.length) };
  }

  private grow(): void {
    const size = this.codes.length * 2;
    const codes = new Uint16Array(size);
    const starts = new Int32Array(size);
    const ends = new Int32Array(size);
    codes.set(this.codes);
    starts.set(this.starts);
    ends.set(this.ends);
    this.codes = codes;
    this.starts = starts;
    this.ends = ends;
  }
}
