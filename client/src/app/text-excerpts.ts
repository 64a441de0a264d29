/**
 * Excerpts of a long text (a transcription) around the words a search looked for, so a list can
 * show why a record matched. The server compares case- and accent-insensitively
 * (docs/work-sqo.md): so does this, on the text a person reads (markup and the transcription's
 * tags such as `[TC_00:01:02.000_TC]` removed).
 */

export interface ExcerptPart {
  text: string;
  /** A searched word: the list highlights it. */
  hit: boolean;
}

/** One excerpt: text with its hits, and whether text was cut before or after it. */
export interface Excerpt {
  parts: ExcerptPart[];
  cutBefore: boolean;
  cutAfter: boolean;
}

/** The text a person reads: no HTML, no transcription tags, whitespace collapsed. */
export function readableText(stored: string): string {
  return stored
    .replace(/<\/(p|div|li|h\d)>|<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/\[[^\]\n]{1,200}\]/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The words a text search looks for: `abc def` (each word), `'abc def'` (the phrase); the
 * operators of docs/work-sqo.md (`==`, `=`, `*`) removed; `-abc` and `!=abc` look for nothing.
 */
export function searchWords(q: string): string[] {
  const text = q.trim();
  if (text === '' || text === '*' || text === '!*' || text.startsWith('-') || text.startsWith('!='))
    return [];
  const bare = text.replace(/^==?/, '').replace(/^\*|\*$/g, '');
  const phrase = /^'(.*)'$/.exec(bare);
  if (phrase) return phrase[1]!.trim() ? [phrase[1]!.trim()] : [];
  return bare.split(/\s+/).filter((w) => w.length > 0);
}

/** Lower-cased, accents removed, one output character per input character (indexes line up). */
function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    const base = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    // A character that folds to other than one UTF-16 unit keeps its place with a filler.
    out += base.length === ch.length ? base : ch.length === 1 ? '\u0000' : '\u0000\u0000';
  }
  return out;
}

/**
 * Up to `max` excerpts of `stored` around the `words` (each about `radius` characters either
 * side of a hit; overlapping windows merged). No hit: no excerpt.
 */
export function excerptsOf(stored: string, words: readonly string[], max = 3, radius = 60): Excerpt[] {
  const text = readableText(stored);
  const folded = fold(text);
  const needles = [...new Set(words.map((w) => fold(w)).filter((w) => w.length > 0))];
  const hits: [number, number][] = [];
  for (const needle of needles) {
    let at = folded.indexOf(needle);
    while (at !== -1) {
      hits.push([at, at + needle.length]);
      at = folded.indexOf(needle, at + needle.length);
    }
  }
  if (hits.length === 0) return [];
  hits.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  // Hits merged where they overlap, so one mark covers them.
  const merged: [number, number][] = [];
  for (const h of hits) {
    const last = merged[merged.length - 1];
    if (last && h[0] <= last[1]) last[1] = Math.max(last[1], h[1]);
    else merged.push([...h]);
  }
  // Windows around the hits, merged when they touch.
  const windows: { from: number; to: number; hits: [number, number][] }[] = [];
  for (const h of merged) {
    const from = Math.max(0, h[0] - radius);
    const to = Math.min(text.length, h[1] + radius);
    const last = windows[windows.length - 1];
    if (last && from <= last.to) {
      last.to = Math.max(last.to, to);
      last.hits.push(h);
    } else windows.push({ from, to, hits: [h] });
  }
  return windows.slice(0, max).map((w) => {
    // Cut at word boundaries, so an excerpt does not start or end in the middle of a word.
    let from = w.from;
    let to = w.to;
    if (from > 0) {
      const space = text.indexOf(' ', from);
      if (space !== -1 && space < w.hits[0]![0]) from = space + 1;
    }
    if (to < text.length) {
      const space = text.lastIndexOf(' ', to);
      if (space > w.hits[w.hits.length - 1]![1]) to = space;
    }
    const parts: ExcerptPart[] = [];
    let at = from;
    for (const [s, e] of w.hits) {
      if (s > at) parts.push({ text: text.slice(at, s), hit: false });
      parts.push({ text: text.slice(s, e), hit: true });
      at = e;
    }
    if (to > at) parts.push({ text: text.slice(at, to), hit: false });
    return { parts, cutBefore: from > 0, cutAfter: to < text.length };
  });
}
