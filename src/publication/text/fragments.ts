/**
 * Text fragments: for each search term, its first occurrences in a stored text, each as an
 * excerpt of about `maxCharacters` characters of plain text centred on the match, cut at word
 * boundaries (`…` where cut), escaped and highlighted with every term. `position` is the offset
 * of the match in the stored text and `page` the last page marker before it.
 */

import { type PageTag, parseTags, type Tag } from '../../common/text/tag-grammar.js';
import { renderMarked } from './highlight.js';
import { pageAt, pageTags } from './pages.js';
import type { Passage } from './passages.js';
import { type PlainText, storedEnd, storedStart, toPlainText } from './plain-text.js';
import { type MatchTerm, mergeRanges, searchable, type TextRange } from './term-matching.js';

/** A stored text parsed once: its tags and its plain text with the offset map. */
export interface AnalysedText {
  stored: string;
  tags: Tag[];
  plain: PlainText;
}

export function analyseText(stored: string): AnalysedText {
  const tags = parseTags(stored);
  return { stored, tags, plain: toPlainText(stored, tags) };
}

export interface FragmentOptions {
  /** Context size: characters of plain text per excerpt (the match itself may be longer). */
  maxCharacters: number;
  /** Fragments per term at most. */
  maxOccurrences: number;
}

export interface Fragment {
  /** The excerpt, HTML-escaped, matches in `<mark>`. */
  text: string;
  /** Offset of the match in the stored text. */
  position: number;
  /** Page of the last page marker before the match, when there is one. */
  page?: number;
}

export interface FoundFragment extends Fragment {
  /** The excerpt as a stored span (for timecodes and speakers of the passage). */
  passage: Passage;
  /** The match as a stored span. */
  match: Passage;
  /** Index in `terms` of the term this fragment was found for. */
  term: number;
}

const ELLIPSIS = '…';

function isSpace(text: string, i: number): boolean {
  return text[i] === ' ';
}

/**
 * The plain window [start, end) of about `size` characters around the match [s, e), moved to
 * word boundaries without ever cutting into the match. Plain text has single spaces only, so a
 * word boundary is a space or an end of the text.
 */
export function excerptWindow(text: string, s: number, e: number, size: number): TextRange {
  const extra = Math.max(0, size - (e - s));
  let start = s - Math.floor(extra / 2);
  let end = e + Math.ceil(extra / 2);
  if (start < 0) {
    end = Math.min(text.length, end - start);
    start = 0;
  }
  if (end > text.length) {
    start = Math.max(0, start - (end - text.length));
    end = text.length;
  }
  if (start > 0 && !isSpace(text, start - 1)) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < s ? space + 1 : s;
  }
  if (end < text.length && !isSpace(text, end)) {
    const space = text.lastIndexOf(' ', end);
    end = Math.max(space, e);
  }
  while (start < s && isSpace(text, start)) start++;
  while (end > e && isSpace(text, end - 1)) end--;
  return { start, end };
}

function renderExcerpt(plain: string, window: TextRange, marks: readonly TextRange[]): string {
  // Marks are clipped rather than dropped: a phrase that starts before the window still marks
  // the words of it that are shown, and the fragment's own match is always marked.
  const inside = marks
    .filter((m) => m.end > window.start && m.start < window.end)
    .map((m) => ({
      start: Math.max(m.start, window.start) - window.start,
      end: Math.min(m.end, window.end) - window.start,
    }));
  const body = renderMarked(plain.slice(window.start, window.end), inside);
  return `${window.start > 0 ? ELLIPSIS : ''}${body}${window.end < plain.length ? ELLIPSIS : ''}`;
}

/** Texts at most this long are analysed whole at once. */
const WHOLE_UP_TO = 8_192;

/** Fragments of `stored` for `terms`, in text order. Never throws. */
export function findFragments(
  stored: string | AnalysedText,
  terms: readonly MatchTerm[],
  options: FragmentOptions,
): FoundFragment[] {
  if (typeof stored === 'string' && stored.length > WHOLE_UP_TO) {
    for (const prefixChars of prefixesToTry(stored, terms, options)) {
      const early = fragmentsFromPrefix(stored, terms, options, prefixChars);
      if (early) return early;
    }
  }
  const text = typeof stored === 'string' ? analyseText(stored) : stored;
  return fragmentsOf(text, terms, options, Number.POSITIVE_INFINITY) ?? [];
}

/**
 * How much of a long text to read first (an hour's transcription is a hundred thousand
 * characters, 4-6 ms to analyse whole): enough to pass the first place where the stored text
 * holds every term as a word as typed (any case), twice over for the excerpts and the tags in
 * between, then four times that while it is a quarter of the text. None when a term is not there
 * as typed (it may be there with other accents: the whole text is searched then), when more
 * than three occurrences are wanted, or when the prefix would be over half the text.
 */
function prefixesToTry(stored: string, terms: readonly MatchTerm[], options: FragmentOptions): number[] {
  // Many occurrences per term are rarely all in the first pages.
  if (terms.length === 0 || options.maxOccurrences > 3 || !terms.every(isOneWord)) return [];
  let reach = 0;
  for (const term of terms) {
    const word = 'literal' in term ? term.literal : term.words[0]!;
    const wordEnd = 'literal' in term || !term.prefix ? '(?![\\p{L}\\p{N}\\p{M}_])' : '';
    // One word: letters, digits, marks and `_` only, nothing a regular expression reads as syntax.
    // 50 us over 100 KB when the word is not there.
    const at = stored.search(new RegExp(`(?<![\\p{L}\\p{N}_])${word}${wordEnd}`, 'iu'));
    if (at < 0) return [];
    reach = Math.max(reach, at + word.length);
  }
  // A prefix that cannot decide is work on top of the whole text's: half of it at most.
  const first = Math.max(4_096, 2 * (reach + options.maxCharacters + 64));
  return 2 * first > stored.length ? [] : 16 * first > stored.length ? [first] : [first, 4 * first];
}

const ONE_WORD = /^[\p{L}\p{N}\p{M}_]+$/u;

/** A term that matches single words only (never across a space or punctuation). */
function isOneWord(term: MatchTerm): boolean {
  if ('literal' in term) return ONE_WORD.test(term.literal);
  return term.words.length === 1 && ONE_WORD.test(term.words[0]!);
}

/**
 * The fragments of the whole `stored` text found from its first `prefixChars` characters alone,
 * or undefined when that part cannot decide them. The prefix's plain text is the first part of
 * the whole text's (tags are scanned on the whole text). It decides when every term is one word
 * and has its `maxOccurrences` first matches, each with room for its excerpt, before the
 * prefix's end. A word match never contains a space, so a match of the whole text that begins
 * before one of those is also whole within the prefix, at the same place; and an excerpt ends
 * at a space or at its match, so the marks inside it are the prefix's too.
 */
export function fragmentsFromPrefix(
  stored: string,
  terms: readonly MatchTerm[],
  options: FragmentOptions,
  prefixChars: number,
): FoundFragment[] | undefined {
  if (terms.length === 0 || !terms.every(isOneWord)) return undefined;
  const tags = parseTags(stored, prefixChars);
  const text: AnalysedText = { stored, tags, plain: toPlainText(stored, tags, prefixChars) };
  return fragmentsOf(text, terms, options, text.plain.text.length);
}

/**
 * The fragments of an analysed text whose plain characters are known up to `certain` (infinity:
 * the whole text), or undefined when a fragment would reach past it.
 */
function fragmentsOf(
  text: AnalysedText,
  terms: readonly MatchTerm[],
  options: FragmentOptions,
  certain: number,
): FoundFragment[] | undefined {
  const { plain } = text;
  const whole = certain === Number.POSITIVE_INFINITY;
  const search = searchable(plain.text);
  const perTerm = terms.map((t) => search.rangesOf(t));
  // The excerpt reads at most its size past the match (excerptWindow), and one character more
  // for the word boundary; the prefix's last character may be cut from its word.
  const reach = options.maxCharacters + 2;
  if (!whole) {
    for (const ranges of perTerm) {
      const first = ranges.slice(0, options.maxOccurrences);
      if (first.length < options.maxOccurrences) return undefined;
      if (first.some((r) => r.end + reach >= certain)) return undefined;
    }
  }
  const marks = mergeRanges(perTerm.flat());
  const pages: PageTag[] = pageTags(text.tags);
  // A place two terms both match is one fragment, credited to the first of them.
  const chosen = new Map<number, TextRange & { term: number }>();
  perTerm.forEach((ranges, term) => {
    for (const r of ranges.slice(0, options.maxOccurrences))
      if (!chosen.has(r.start)) chosen.set(r.start, { ...r, term });
  });
  return [...chosen.values()]
    .sort((a, b) => a.start - b.start)
    .map((m) => {
      const window = excerptWindow(plain.text, m.start, m.end, options.maxCharacters);
      const position = storedStart(plain, m.start);
      const fragment: FoundFragment = {
        text: renderExcerpt(plain.text, window, marks),
        position,
        passage: { start: storedStart(plain, window.start), end: storedEnd(plain, window.end) },
        match: { start: position, end: storedEnd(plain, m.end) },
        term: m.term,
      };
      const page = pageAt(pages, position);
      if (page) fragment.page = page.page;
      return fragment;
    });
}
