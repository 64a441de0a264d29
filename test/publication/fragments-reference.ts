/**
 * Reference readings of stored texts for the fragment route tests, written independently of
 * src/publication/text with plain regular expressions that fit the demo archive's texts: the
 * tests compare the API's answers with these, computed from what the database holds.
 */

const BRACKET_TAG =
  /\[(?:tc-|TC_|\/?index-|page-|person-|note-|\/?reference-|lang-|svg-|draw-|geo-)[^\]]*\]/g;
const BLOCK_HTML = /<\/?(?:p|br)>/g;
const INLINE_HTML = /<\/?(?:strong|em)>/g;

/** Accent- and case-folded; length-preserving on the demo's precomposed Latin text. */
export const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export const escapeHtml = (s: string) =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

export const unescapeHtml = (s: string) =>
  s
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

/** The text a reader sees: tags gone, words kept apart, whitespace collapsed. */
export function referencePlain(stored: string): string {
  return stored
    .replace(BRACKET_TAG, ' ')
    .replace(BLOCK_HTML, ' ')
    .replace(INLINE_HTML, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The stored text with every tag blanked out, offsets unchanged. */
export function maskTags(stored: string): string {
  const blank = (m: string) => '\u0000'.repeat(m.length);
  return stored.replace(BRACKET_TAG, blank).replace(BLOCK_HTML, blank).replace(INLINE_HTML, blank);
}

/** Stored offsets of the whole-word occurrences of `word` (case- and accent-insensitive), outside tags. */
export function wordOccurrences(stored: string, word: string): number[] {
  const masked = fold(maskTags(stored));
  if (masked.length !== stored.length) throw new Error('folding changed the length: pick another text');
  const escaped = fold(word).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'gu');
  return [...masked.matchAll(re)].map((m) => m.index);
}

/**
 * Stored offsets of a literal term (punctuation included; case- and accent-insensitive) outside
 * tags, never inside a longer word where the term begins or ends with a letter or digit.
 */
export function literalOccurrences(stored: string, term: string): number[] {
  const masked = fold(maskTags(stored));
  if (masked.length !== stored.length) throw new Error('folding changed the length: pick another text');
  const escaped = fold(term).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const before = /^[\p{L}\p{N}_]/u.test(term) ? '(?<![\\p{L}\\p{N}_])' : '';
  const after = /[\p{L}\p{N}_]$/u.test(term) ? '(?![\\p{L}\\p{N}_])' : '';
  return [...masked.matchAll(new RegExp(`${before}${escaped}${after}`, 'gu'))].map((m) => m.index);
}

/** Words of a plain text (letters only), in order. */
export function wordsOf(plain: string): string[] {
  return plain.match(/\p{L}+/gu) ?? [];
}

export interface ReferenceTimecode {
  start: number;
  end: number;
  kind: 'range' | 'point';
  tcIn: number;
  tcOut?: number;
}

/** Every timecode tag of a stored text, read with its own regex. */
export function timecodeTags(stored: string): ReferenceTimecode[] {
  const re = /\[tc-([\d.]+)-([\d.]+)\]|\[TC_(\d+):(\d+):(\d+)(?:\.(\d+))?_TC\]/g;
  return [...stored.matchAll(re)].map((m) => {
    const start = m.index;
    const end = start + m[0].length;
    if (m[1] !== undefined) return { start, end, kind: 'range', tcIn: Number(m[1]), tcOut: Number(m[2]) };
    const seconds = Number(m[3]) * 3600 + Number(m[4]) * 60 + Number(m[5]) + Number(`0.${m[6] ?? '0'}`);
    return { start, end, kind: 'point', tcIn: seconds };
  });
}

/** Page number of the last page marker before `position`, if any. */
export function pageBefore(stored: string, position: number): number | undefined {
  let page: number | undefined;
  for (const m of stored.matchAll(/\[page-[a-z]-(\d+)(?:-label-data:[^\]]*:data)?\]/g)) {
    if (m.index + m[0].length > position) break;
    page = Number(m[1]);
  }
  return page;
}

/** Plain text of an excerpt as served: marks removed, unescaped, ellipses dropped. */
export function excerptPlain(html: string): string {
  return unescapeHtml(html.replace(/<\/?mark>/g, ''))
    .replace(/^…/, '')
    .replace(/…$/, '');
}
