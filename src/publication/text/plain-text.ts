/**
 * Turns stored text into the plain text a reader sees, keeping a map back to the stored offsets:
 * tags are removed, the basic HTML entities decoded and whitespace collapsed. Matching and
 * excerpts work on the plain text; `position`, pages, timecodes and speakers are answered in
 * stored offsets through the map, so a client can find a match again in the stored text.
 *
 * Bracket tags and block HTML (`<p>`, `<br>`) become one space where a space is needed, so that
 * `word[tag]word` or `</p><p>` never glue two words together; inline HTML (`<em>`) vanishes.
 */
import { parseTags, type Tag } from './tag-grammar.js';

export interface PlainText {
  text: string;
  /** For each character of `text`, where its source starts in the stored text. */
  starts: Int32Array;
  /** For each character of `text`, where its source ends in the stored text (exclusive). */
  ends: Int32Array;
  /** The length of the stored text. */
  storedLength: number;
}

/** Only the entities the publishing process writes; anything else stays as typed. */
const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#039;': "'",
  '&apos;': "'",
  '&nbsp;': ' ',
};
const ENTITY = /&(?:amp|lt|gt|quot|apos|nbsp|#0?39);/y;
const SPACE = /\s/;

function separates(tag: Tag): boolean {
  return tag.kind !== 'html' || tag.block;
}

/** The plain text of `stored`, from tags already parsed (or parsed here). Never throws. */
export function toPlainText(stored: string, tags: readonly Tag[] = parseTags(stored)): PlainText {
  const chars: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  // A space owed by a tag or by stored whitespace; written only if a visible character follows.
  let pending = -1;
  const push = (ch: string, start: number, end: number) => {
    if (pending >= 0 && chars.length > 0) {
      chars.push(' ');
      starts.push(pending);
      ends.push(pending + 1);
    }
    pending = -1;
    chars.push(ch);
    starts.push(start);
    ends.push(end);
  };
  let i = 0;
  let t = 0;
  while (i < stored.length) {
    const tag = tags[t];
    if (tag && tag.start === i) {
      if (separates(tag) && pending < 0) pending = i;
      i = tag.end;
      t++;
      continue;
    }
    const ch = stored[i]!;
    if (ch === '&') {
      ENTITY.lastIndex = i;
      const m = ENTITY.exec(stored);
      if (m) {
        const decoded = ENTITIES[m[0]]!;
        if (decoded === ' ') {
          if (pending < 0) pending = i;
        } else push(decoded, i, i + m[0].length);
        i += m[0].length;
        continue;
      }
    }
    if (SPACE.test(ch)) {
      if (pending < 0) pending = i;
      i++;
      continue;
    }
    // A surrogate pair travels as one unit so the map never splits a code point.
    const code = stored.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < stored.length) {
      push(ch, i, i + 2);
      chars.push(stored[i + 1]!);
      starts.push(i);
      ends.push(i + 2);
      i += 2;
      continue;
    }
    push(ch, i, i + 1);
    i++;
  }
  return {
    text: chars.join(''),
    starts: Int32Array.from(starts),
    ends: Int32Array.from(ends),
    storedLength: stored.length,
  };
}

/** The first plain index whose source starts at or after `position` (plain length if none). */
export function plainIndexAt(plain: PlainText, position: number): number {
  let lo = 0;
  let hi = plain.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (plain.starts[mid]! < position) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Stored offset where plain index `i` starts (the stored length past the end). */
export function storedStart(plain: PlainText, i: number): number {
  return i < plain.starts.length ? plain.starts[i]! : plain.storedLength;
}

/** Stored offset just after the plain range that ends (exclusively) at `end`. */
export function storedEnd(plain: PlainText, end: number): number {
  return end > 0 ? plain.ends[end - 1]! : 0;
}

/** The plain text of the stored span [start, end), trimmed. */
export function plainSlice(plain: PlainText, start: number, end: number): string {
  return plain.text.slice(plainIndexAt(plain, start), plainIndexAt(plain, end)).trim();
}
