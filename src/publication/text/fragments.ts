/**
 * Text fragments: for each search term, its first occurrences in a stored text, each as an
 * excerpt of about `maxCharacters` characters of plain text centred on the match, cut at word
 * boundaries (`…` where cut), escaped and highlighted with every term. `position` is the offset
 * of the match in the stored text and `page` the last page marker before it.
 */
import { renderMarked } from './highlight.js';
import { pageAt, pageTags } from './pages.js';
import type { Passage } from './passages.js';
import { type PlainText, storedEnd, storedStart, toPlainText } from './plain-text.js';
import { type PageTag, parseTags, type Tag } from './tag-grammar.js';
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

/** Fragments of `stored` for `terms`, in text order. Never throws. */
export function findFragments(
  stored: string | AnalysedText,
  terms: readonly MatchTerm[],
  options: FragmentOptions,
): FoundFragment[] {
  const text = typeof stored === 'string' ? analyseText(stored) : stored;
  const { plain } = text;
  const search = searchable(plain.text);
  const perTerm = terms.map((t) => search.rangesOf(t));
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
