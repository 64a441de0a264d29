/**
 * Finds where search terms occur in a plain text, case- and accent-insensitively. Both sides are
 * folded the same way (NFD, diacritics removed, lower-cased) and the folded text keeps a map back
 * to the original offsets, so `cancion` finds `Canción` and the match reports the offsets of
 * `Canción` itself.
 *
 * Two kinds of term:
 * - word terms (the search route's query language): words are runs of letters, digits and `_`
 *   (as in the search query parser and both engines' tokenizers). A one-word term matches whole
 *   words (or word beginnings when `prefix` is set; the match then covers the whole word); a
 *   phrase matches its words in order, separated only by non-word characters.
 * - literal terms (the fragment routes' `terms`): the term's characters, punctuation included,
 *   found as they are written (folded), never inside a longer word: where the term begins or ends
 *   with a letter or digit, the text must not continue with one there. So `(cliff` needs the
 *   parenthesis, `cliff.` matches `cliff.`, and `cliff` matches `cliff` in `(cliff).` but not in
 *   `cliffs`.
 */
import { type MappedText, MappedTextBuilder, stringOfUnits } from './mapped-text.js';

/** A term of the search query language; the search parser's SearchTerm fits. */
export interface WordTerm {
  /** One word, or the words of a phrase in order. */
  words: readonly string[];
  /** The last word may be the beginning of a longer word. */
  prefix: boolean;
}

/** A fragment route's term: these characters as written, up to case and accents. */
export interface LiteralTerm {
  literal: string;
}

/** What a highlighter needs of a term. */
export type MatchTerm = WordTerm | LiteralTerm;

/** A half-open range [start, end) of the text that was searched. */
export interface TextRange {
  start: number;
  end: number;
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

function isWordCode(code: number, next: number): boolean {
  if (code < 128) {
    return (
      (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95
    );
  }
  // A high surrogate speaks for its whole code point; a low one was judged with its pair.
  if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
    return WORD_CHAR.test(String.fromCharCode(code, next));
  }
  return WORD_CHAR.test(String.fromCharCode(code));
}

/** A folded text and, for each of its units, the span of the source it came from. */
interface FoldedText {
  text: string;
  startOf(i: number): number;
  endOf(i: number): number;
}

/**
 * For the units below U+2070 (the Latin, Greek and Cyrillic letters of most archives' languages,
 * and general punctuation such as ’ and —), the one unit each folds to, or 0 where folding
 * changes the length (combining marks fold to nothing).
 */
const FOLD_ONE_LIMIT = 0x2070;
let foldOne: Uint16Array | undefined;

/** Built on the first search rather than at start (a few milliseconds). */
function foldOneTable(): Uint16Array {
  if (foldOne) return foldOne;
  const table = new Uint16Array(FOLD_ONE_LIMIT);
  for (let c = 0; c < table.length; c++) {
    const folded = foldCodePoint(String.fromCharCode(c));
    if (folded.length === 1) table[c] = folded.charCodeAt(0);
  }
  table[0] = 0; // NUL folds to itself but 0 means "no"; such a text takes the general path
  foldOne = table;
  return table;
}
let foldScratch = new Uint16Array(4096);

/**
 * The folded text when every unit of `source` folds to exactly one unit (so offsets are the
 * same on both sides and no map needs building), else undefined. Measured on Spanish
 * transcriptions: about 4x faster than the general path below, which most texts never need.
 */
function foldOneToOne(source: string): string | undefined {
  const n = source.length;
  if (foldScratch.length < n) foldScratch = new Uint16Array(n);
  const codes = foldScratch;
  const table = foldOneTable();
  for (let i = 0; i < n; i++) {
    const code = source.charCodeAt(i);
    const folded = code < FOLD_ONE_LIMIT ? table[code]! : 0;
    if (folded === 0) return undefined;
    codes[i] = folded;
  }
  return stringOfUnits(codes.subarray(0, n));
}

export function foldText(source: string): FoldedText {
  const oneToOne = foldOneToOne(source);
  if (oneToOne !== undefined) return { text: oneToOne, startOf: (i) => i, endOf: (i) => i + 1 };
  const mapped = foldMapped(source);
  return { text: mapped.text, startOf: (i) => mapped.starts[i]!, endOf: (i) => mapped.ends[i]! };
}

/** The general fold: any text, with the source span of every folded unit. */
export function foldMapped(source: string): MappedText {
  const out = new MappedTextBuilder(source.length + 16);
  const cache = new Map<number, string>();
  let i = 0;
  while (i < source.length) {
    const code = source.charCodeAt(i);
    if (code < 128) {
      out.push(code >= 65 && code <= 90 ? code + 32 : code, i, i + 1);
      i++;
      continue;
    }
    const point = source.codePointAt(i)!;
    const width = point > 0xffff ? 2 : 1;
    let folded = cache.get(point);
    if (folded === undefined) {
      folded = foldCodePoint(source.slice(i, i + width));
      cache.set(point, folded);
    }
    // A lone combining mark folds to nothing: it belongs to the character before it, so a
    // match ending there still covers the whole accented letter.
    if (folded.length === 0) out.extendLast(i + width);
    for (let u = 0; u < folded.length; u++) out.push(folded.charCodeAt(u), i, i + width);
    i += width;
  }
  return out.build();
}

interface Token {
  start: number;
  end: number;
}

function tokenize(folded: string): Token[] {
  const tokens: Token[] = [];
  let start = -1;
  for (let i = 0; i < folded.length; i++) {
    const code = folded.charCodeAt(i);
    const low = code >= 0xdc00 && code <= 0xdfff && i > 0 && isHighSurrogate(folded.charCodeAt(i - 1));
    if (low) continue;
    const word = isWordCode(code, i + 1 < folded.length ? folded.charCodeAt(i + 1) : -1);
    if (word && start < 0) start = i;
    else if (!word && start >= 0) {
      tokens.push({ start, end: i });
      start = -1;
    }
  }
  if (start >= 0) tokens.push({ start, end: folded.length });
  return tokens;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * A term's words folded and re-split the way text is, so both sides agree on word boundaries.
 * Kept per term object: a search page matches the same terms against every row's text.
 */
const foldedWords = new WeakMap<WordTerm, string[]>();
function foldTermWords(term: WordTerm): string[] {
  let words = foldedWords.get(term);
  if (words === undefined) {
    words = term.words.flatMap((w) => foldString(w).match(WORD) ?? []);
    foldedWords.set(term, words);
  }
  return words;
}

/** Whether the folded code point that starts at `i` is a word character. */
function wordCharAt(folded: string, i: number): boolean {
  if (i < 0 || i >= folded.length) return false;
  return isWordCode(folded.charCodeAt(i), i + 1 < folded.length ? folded.charCodeAt(i + 1) : -1);
}

/** Whether the folded code point that ends just before `i` is a word character. */
function wordCharBefore(folded: string, i: number): boolean {
  if (i <= 0) return false;
  const low = folded.charCodeAt(i - 1);
  const pair = low >= 0xdc00 && low <= 0xdfff && i >= 2 && isHighSurrogate(folded.charCodeAt(i - 2));
  return wordCharAt(folded, pair ? i - 2 : i - 1);
}

/** Whether a folded literal is a single word (letters, digits, `_` only). */
function isOneWord(folded: string): boolean {
  const m = folded.match(WORD);
  return m !== null && m.length === 1 && m[0] === folded;
}

/**
 * A literal term turned into what matches it: a term that is one word (the usual case) takes the
 * word index; anything with punctuation is searched as a substring of the folded text.
 */
const literalMatchers = new WeakMap<LiteralTerm, { word: string } | { text: string } | undefined>();
function literalMatcher(term: LiteralTerm): { word: string } | { text: string } | undefined {
  if (literalMatchers.has(term)) return literalMatchers.get(term);
  const folded = foldString(term.literal);
  const matcher = folded.length === 0 ? undefined : isOneWord(folded) ? { word: folded } : { text: folded };
  literalMatchers.set(term, matcher);
  return matcher;
}

/** A prepared text that can be searched for many terms. */
export interface SearchableText {
  rangesOf(term: MatchTerm): TextRange[];
}

export function searchable(source: string): SearchableText {
  const folded = foldText(source);
  // Tokens and the word index serve phrases only, built on first use: a one-word term (the usual
  // case) is found with indexOf and a look at the characters around each occurrence, which is
  // the same test (a token equal to the word) without splitting the whole text into words.
  let tokenList: Token[] | undefined;
  const tokens = () => {
    tokenList ??= tokenize(folded.text);
    return tokenList;
  };
  const tokenEquals = (t: Token, word: string, prefix: boolean) =>
    (prefix ? t.end - t.start >= word.length : t.end - t.start === word.length) &&
    folded.text.startsWith(word, t.start);
  // Where each distinct word occurs, built on first use: with many terms (up to a few hundred)
  // a lookup per term beats a scan of every token per term.
  let index: Map<string, number[]> | undefined;
  const occurrences = (word: string): number[] => {
    if (!index) {
      index = new Map();
      tokens().forEach((t, k) => {
        const w = folded.text.slice(t.start, t.end);
        const list = index!.get(w);
        if (list) list.push(k);
        else index!.set(w, [k]);
      });
    }
    return index.get(word) ?? [];
  };
  return {
    rangesOf(term) {
      if ('literal' in term) {
        const matcher = literalMatcher(term);
        if (matcher === undefined) return [];
        if ('word' in matcher) return wordRanges([matcher.word], false);
        return substringRanges(matcher.text);
      }
      return wordRanges(foldTermWords(term), term.prefix);
    },
  };

  /** Whole-word occurrences of one word (or words it begins, with `prefix`), in text order. */
  function oneWordRanges(word: string, prefix: boolean): TextRange[] {
    const out: TextRange[] = [];
    const text = folded.text;
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
      if (wordCharBefore(text, at)) continue;
      let end = at + word.length;
      if (prefix) {
        while (wordCharAt(text, end)) end += isHighSurrogate(text.charCodeAt(end)) ? 2 : 1;
      } else if (wordCharAt(text, end)) {
        continue;
      }
      out.push({ start: folded.startOf(at), end: folded.endOf(end - 1) });
    }
    return out;
  }

  function wordRanges(words: readonly string[], prefix: boolean): TextRange[] {
    const n = words.length;
    const out: TextRange[] = [];
    if (n === 0) return out;
    if (n === 1) return oneWordRanges(words[0]!, prefix);
    const all = tokens();
    for (const k of occurrences(words[0]!)) {
      if (k + n > all.length) break;
      let ok = true;
      for (let j = 0; j < n && ok; j++) ok = tokenEquals(all[k + j]!, words[j]!, prefix && j === n - 1);
      if (!ok) continue;
      out.push({ start: folded.startOf(all[k]!.start), end: folded.endOf(all[k + n - 1]!.end - 1) });
    }
    return out;
  }

  /** Occurrences of `needle` (folded, with punctuation) that do not cut into a word at either end. */
  function substringRanges(needle: string): TextRange[] {
    const out: TextRange[] = [];
    const text = folded.text;
    const startsWord = wordCharAt(needle, 0);
    const endsWord = wordCharBefore(needle, needle.length);
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      if (startsWord && wordCharBefore(text, at)) continue;
      if (endsWord && wordCharAt(text, end)) continue;
      out.push({ start: folded.startOf(at), end: folded.endOf(end - 1) });
    }
    return out;
  }
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

const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * The literal terms of a fragment route's `terms`: whitespace separates them and nothing is an
 * operator. A token with no letter or digit (`-`, `++`) has nothing to anchor a match and is
 * skipped; tokens that fold to the same text (`Canción`, `cancion`) find the same places, so
 * only the first is kept.
 */
export function literalTermsOf(raw: string): LiteralTerm[] {
  const seen = new Set<string>();
  const terms: LiteralTerm[] = [];
  for (const token of raw.split(/\s+/)) {
    if (!HAS_WORD_CHAR.test(token)) continue;
    const key = foldString(token);
    if (seen.has(key)) continue;
    seen.add(key);
    terms.push({ literal: token });
  }
  return terms;
}
