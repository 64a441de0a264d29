/**
 * Turns stored text into the plain text a reader sees, keeping a map back to the stored offsets:
 * tags are removed, the basic HTML entities decoded and whitespace collapsed. Matching and
 * excerpts work on the plain text; `position`, pages, timecodes and speakers are answered in
 * stored offsets through the map, so a client can find a match again in the stored text.
 *
 * Bracket tags and block HTML (`<p>`, `<br>`) become one space where a space is needed, so that
 * `word[tag]word` or `</p><p>` never glue two words together; inline HTML (`<em>`) vanishes.
 */

import { parseTags, type Tag } from '../../common/text/tag-grammar.js';
import { MappedTextBuilder } from './mapped-text.js';

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
export const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#039;': "'",
  '&apos;': "'",
  '&nbsp;': '\u00a0',
};
const ENTITY = /&(?:amp|lt|gt|quot|apos|nbsp|#0?39);/y;
/** JavaScript's `\s`, by code (a regular expression per character is too slow on long texts). */
function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * A character that stands for itself in plain text: not a space of any kind, not `&` (an
 * entity may start there) and not a surrogate (pairs are mapped whole): printable ASCII, and
 * U+00A1 to U+167F (Latin, Greek, Cyrillic and their marks, up to the first space after U+00A0).
 * Anything else takes the general path below, which gives the same result.
 */
function isOrdinary(code: number): boolean {
  return code < 128 ? code > 32 && code !== 38 && code !== 127 : code > 0xa0 && code < 0x1680;
}

function separates(tag: Tag): boolean {
  return tag.kind !== 'html' || tag.block;
}

/**
 * The plain text of `stored`, from tags already parsed (or parsed here). Never throws. With
 * `limit`, only the stored text before it (and a tag that starts before it) is read: the result
 * is then the first characters of the whole text's plain text.
 */
export function toPlainText(
  stored: string,
  tags: readonly Tag[] = parseTags(stored),
  limit = stored.length,
): PlainText {
  // Plain text is never longer than the stored text: spaces only stand in for removed tags.
  const out = new MappedTextBuilder(Math.min(limit, stored.length));
  // A space owed by a tag or by stored whitespace; written only if a visible character follows.
  let pending = -1;
  let nextTag = tags.length > 0 ? tags[0]!.start : -1;
  let t = 0;
  let i = 0;
  const stop = Math.min(limit, stored.length);
  while (i < stop) {
    if (i === nextTag) {
      const tag = tags[t++]!;
      if (separates(tag) && pending < 0) pending = i;
      i = tag.end;
      nextTag = t < tags.length ? tags[t]!.start : -1;
      continue;
    }
    let code = stored.charCodeAt(i);
    if (isOrdinary(code)) {
      // A run of ordinary characters and single spaces between them (the bulk of any text), up
      // to the next tag or special character: each unit stands for itself, as below.
      if (pending >= 0 && out.length > 0) out.push(32, pending, pending + 1);
      pending = -1;
      const runEnd = nextTag >= 0 && nextTag < stop ? nextTag : stop;
      let j = i + 1;
      for (;;) {
        if (j < runEnd && isOrdinary(stored.charCodeAt(j))) j++;
        else if (j + 1 < runEnd && stored.charCodeAt(j) === 32 && isOrdinary(stored.charCodeAt(j + 1)))
          j += 2;
        else break;
      }
      out.pushRun(stored, i, j);
      i = j;
      continue;
    }
    let end = i + 1;
    if (code === 38 /* & */) {
      ENTITY.lastIndex = i;
      const m = ENTITY.exec(stored);
      if (m) {
        code = ENTITIES[m[0]]!.charCodeAt(0);
        end = i + m[0].length;
      }
    }
    if (isSpace(code)) {
      if (pending < 0) pending = i;
      i = end;
      continue;
    }
    if (pending >= 0 && out.length > 0) out.push(32, pending, pending + 1);
    pending = -1;
    // Both halves of a surrogate pair map to the whole code point, so the map never splits it.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < stored.length) {
      out.push(code, i, i + 2);
      out.push(stored.charCodeAt(i + 1), i, i + 2);
      i += 2;
      continue;
    }
    out.push(code, i, end);
    i = end;
  }
  const { text, starts, ends } = out.build();
  return { text, starts, ends, storedLength: stored.length };
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
