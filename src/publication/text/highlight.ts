/**
 * Highlighting: HTML-escapes a plain excerpt and wraps matches in `<mark>...</mark>`. Matching
 * runs on the unescaped text and the output is built piece by piece (escape, mark, escape...),
 * so the only markup in the result is the marks we add: nothing from stored text can inject any.
 */
import { findMatches, type MatchTerm, type TextRange } from './term-matching.js';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/** Escapes `text` and marks the given ranges (sorted, not overlapping, within the text). */
export function renderMarked(text: string, ranges: readonly TextRange[]): string {
  let out = '';
  let at = 0;
  for (const r of ranges) {
    if (r.start < at || r.end <= r.start || r.end > text.length) continue;
    out += `${escapeHtml(text.slice(at, r.start))}<mark>${escapeHtml(text.slice(r.start, r.end))}</mark>`;
    at = r.end;
  }
  return out + escapeHtml(text.slice(at));
}

/** The excerpt escaped, with every match of every term marked. */
export function highlight(excerpt: string, terms: readonly MatchTerm[]): string {
  return renderMarked(excerpt, findMatches(excerpt, terms));
}
