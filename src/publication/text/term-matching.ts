/**
 * Finds where search terms occur in a plain text, case- and accent-insensitively, on word
 * boundaries. Both sides are folded the same way (NFD, diacritics removed, lower-cased) and the
 * folded text keeps a map back to the original offsets, so `cancion` finds `Canción` and the
 * match reports the offsets of `Canción` itself.
 *
 * Words are runs of letters, digits and `_` (as in the search query parser and both engines'
 * tokenizers). A one-word term matches whole words (or word beginnings when `prefix` is set; the
 * match then covers the whole word); a phrase matches its words in order, separated only by
 * non-word characters.
 */

/** What a highlighter needs of a term; the search parser's SearchTerm fits. */
export interface MatchTerm {
  /** One word, or the words of a phrase in order. */
  words: readonly string[];
  /** The last word may be the beginning of a longer word. */
  prefix: boolean;
}

/** A half-open range [start, end) of the text that was searched. */
export interface TextRange {
  start: number;
  end: number;
}

interface FoldedText {
  text: string;
  /** Per folded character: where its code point starts / ends in the source. */
  starts: number[];
  ends: number[];
}

const MARKS = /\p{M}/gu;
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const WORD = /[\p{L}\p{N}_]+/gu;

function foldCodePoint(cp: string): string {
  // Lower-casing can produce new combining marks (`İ` -> `i̇`), so strip them again after it.
  return cp.normalize('NFD').replace(MARKS, '').toLowerCase().normalize('NFD').replace(MARKS, '');
}

/** Folds a whole string the way texts are folded (for terms). */
export function foldString(s: string): string {
  let out = '';
  for (const cp of s) out += foldCodePoint(cp);
  return out;
}

function isWordChar(code: number, ch: string): boolean {
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
  }
  return WORD_CHAR.test(ch);
}

function foldText(source: string): FoldedText {
  const parts: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const cache = new Map<string, string>();
  let i = 0;
  while (i < source.length) {
    const code = source.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    let folded: string;
    if (code < 128) {
      folded = code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : source[i]!;
    } else {
      const cp = source.slice(i, i + width);
      folded = cache.get(cp) ?? foldCodePoint(cp);
      cache.set(cp, folded);
    }
    if (folded.length === 0) {
      // A lone combining mark: it belongs to the character before it, so a match ending there
      // still covers the whole accented letter.
      if (ends.length > 0) ends[ends.length - 1] = i + width;
    } else {
      // One map entry per UTF-16 unit, so indices into the folded string stay aligned.
      for (let u = 0; u < folded.length; u++) {
        parts.push(folded[u]!);
        starts.push(i);
        ends.push(i + width);
      }
    }
    i += width;
  }
  return { text: parts.join(''), starts, ends };
}

interface Token {
  start: number;
  end: number;
}

function tokenize(folded: string): Token[] {
  const tokens: Token[] = [];
  let start = -1;
  let i = 0;
  for (const ch of folded) {
    const word = isWordChar(ch.charCodeAt(0), ch);
    if (word && start < 0) start = i;
    else if (!word && start >= 0) {
      tokens.push({ start, end: i });
      start = -1;
    }
    i += ch.length;
  }
  if (start >= 0) tokens.push({ start, end: i });
  return tokens;
}

/** A term's words folded and re-split the way text is, so both sides agree on word boundaries. */
function foldTermWords(term: MatchTerm): string[] {
  return term.words.flatMap((w) => foldString(w).match(WORD) ?? []);
}

/** A prepared text that can be searched for many terms. */
export interface SearchableText {
  rangesOf(term: MatchTerm): TextRange[];
}

export function searchable(source: string): SearchableText {
  const folded = foldText(source);
  const tokens = tokenize(folded.text);
  const tokenEquals = (t: Token, word: string, prefix: boolean) =>
    (prefix ? t.end - t.start >= word.length : t.end - t.start === word.length) &&
    folded.text.startsWith(word, t.start);
  return {
    rangesOf(term) {
      const words = foldTermWords(term);
      const n = words.length;
      const out: TextRange[] = [];
      if (n === 0) return out;
      for (let k = 0; k + n <= tokens.length; k++) {
        let ok = true;
        for (let j = 0; j < n && ok; j++) ok = tokenEquals(tokens[k + j]!, words[j]!, term.prefix && j === n - 1);
        if (!ok) continue;
        out.push({ start: folded.starts[tokens[k]!.start]!, end: folded.ends[tokens[k + n - 1]!.end - 1]! });
      }
      return out;
    },
  };
}

/** Every match of every term, in text order, overlapping matches merged. */
export function findMatches(source: string, terms: readonly MatchTerm[]): TextRange[] {
  const text = searchable(source);
  return mergeRanges(terms.flatMap((t) => text.rangesOf(t)));
}

/** Sorts ranges and merges the ones that overlap. */
export function mergeRanges(ranges: readonly TextRange[]): TextRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: TextRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start < last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
