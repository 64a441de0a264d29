/**
 * The inline tag grammar of published transcriptions and long texts (docs/publishing.md):
 * finds every tag with its kind, its [start, end) offsets in the stored text and the values the
 * API needs (timecodes, index ids, page numbers, speakers). Everything else the text module does
 * (plain text, pages, timecodes, speakers, passages) starts from this one scan.
 *
 * Shared by both sides: the publication API (src/publication/text/) and the cataloguing client
 * (client/src/text/transcription-segments.ts, bundled by Vite), so it imports nothing and uses
 * nothing of Node.
 *
 * The grammar is a single regular expression with bounded repetitions, so hostile input costs
 * linear-ish time and never backtracks catastrophically; parseTags tries it only where a tag can
 * start (a `[` or `<`), after reading the commonest tags there by hand. Something that only looks
 * like a tag (`[foo-1]`, a lone `<` in `a<b`) is not a tag and stays text.
 */

export interface TcRangeTag {
  kind: 'tc-range';
  start: number;
  end: number;
  /** Seconds. */
  tcIn: number;
  tcOut: number;
}

export interface TcPointTag {
  kind: 'tc-point';
  start: number;
  end: number;
  /** Seconds. */
  seconds: number;
}

export interface IndexTag {
  kind: 'index-open' | 'index-close';
  start: number;
  end: number;
  state: string;
  tagId: number;
}

export interface PageTag {
  kind: 'page';
  start: number;
  end: number;
  state: string;
  page: number;
  /** The printed label of `[page-n-5-label-data:v:data]` (`v`), when given. */
  label?: string;
}

export interface PersonTag {
  kind: 'person';
  start: number;
  end: number;
  state: string;
  id: number;
  /** As written in the tag (underscores often stand for spaces). */
  label: string;
  /** The parsed `data:{...}:data` payload, when it is JSON. */
  data?: unknown;
}

/** Annotations the API does not interpret: note, reference, lang, svg, draw, geo, and malformed known tags. */
export interface OtherTag {
  kind: 'other';
  start: number;
  end: number;
  name: string;
  closing: boolean;
}

export interface HtmlTag {
  kind: 'html';
  start: number;
  end: number;
  /** Lower-cased element name (`p`, `br`, `strong`), or `!--` for a comment. */
  name: string;
  closing: boolean;
  /** Block elements separate words (`<p>`, `<br>`); inline ones (`<em>`) do not. */
  block: boolean;
}

export type Tag = TcRangeTag | TcPointTag | IndexTag | PageTag | PersonTag | OtherTag | HtmlTag;

const NUM = String.raw`(\d{1,9}(?:\.\d{1,6})?)`;
const BRACKET_NAMES = 'index|page|person|note|reference|lang|svg|draw|geo';
const ATTRIBUTE = String.raw`\s+[A-Za-z_:][-A-Za-z0-9_:]{0,40}(?:\s*=\s*(?:"[^"<>]{0,1000}"|'[^'<>]{0,1000}'|[^\s"'=<>\x60]{1,1000}))?`;

/*
 * Groups: 1-2 tc range; 3-6 tc point; 7-10 named bracket tag (closing slash, name, head, data);
 * 11 html comment; 12-14 html element (closing slash, name, attributes).
 * Attribute names exclude `.`, so prose such as `a<b and b>a.` never reads as an element.
 */
const TAG = new RegExp(
  [
    String.raw`\[tc-${NUM}-${NUM}\]`,
    String.raw`\[TC_(\d{1,3}):([0-5]\d):([0-5]\d)(?:[.,](\d{1,3}))?_TC\]`,
    String.raw`\[(\/?)(${BRACKET_NAMES})-([^\[\]<>]{0,300}?)(?:-data:([\s\S]{0,4000}?):data)?\]`,
    String.raw`(<!--[\s\S]{0,10000}?-->)`,
    String.raw`<(\/?)([A-Za-z][A-Za-z0-9]{0,20})((?:${ATTRIBUTE}){0,30})\s*\/?>`,
  ].join('|'),
  'g',
);

const BLOCK_ELEMENTS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

const STATE_AND_ID = /^([A-Za-z])-(\d{1,6})(?:-([\s\S]*))?$/;

function parseData(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function namedTag(
  start: number,
  end: number,
  closing: boolean,
  name: string,
  head: string,
  data: string | undefined,
): Tag {
  const m = STATE_AND_ID.exec(head);
  if (m) {
    const state = m[1]!;
    const n = Number(m[2]);
    const rest = m[3];
    if (name === 'index')
      return { kind: closing ? 'index-close' : 'index-open', start, end, state, tagId: n };
    if (name === 'page' && !closing) {
      const tag: PageTag = { kind: 'page', start, end, state, page: n };
      // `[page-n-5-label-data:v:data]`: the data is the printed label of the page.
      if (rest === 'label' && data !== undefined && data !== '') tag.label = data;
      return tag;
    }
    if (name === 'person' && !closing && rest !== undefined) {
      const tag: PersonTag = { kind: 'person', start, end, state, id: n, label: rest };
      const parsed = parseData(data);
      if (parsed !== undefined) tag.data = parsed;
      return tag;
    }
  }
  return { kind: 'other', start, end, name, closing };
}

/** The same grammar anchored at one position (every alternative starts with `[` or `<`). */
const TAG_AT = new RegExp(TAG.source, 'y');

/** The tag the grammar reads in the match `m` at `start`. */
function tagOfMatch(m: RegExpExecArray, start: number): Tag {
  const end = start + m[0].length;
  if (m[1] !== undefined) return { kind: 'tc-range', start, end, tcIn: Number(m[1]), tcOut: Number(m[2]) };
  if (m[3] !== undefined) {
    const ms = m[6] === undefined ? 0 : Number(m[6].padEnd(3, '0'));
    const seconds = Number(m[3]) * 3600 + Number(m[4]) * 60 + Number(m[5]) + ms / 1000;
    return { kind: 'tc-point', start, end, seconds };
  }
  if (m[8] !== undefined) return namedTag(start, end, m[7] === '/', m[8], m[9]!, m[10]);
  if (m[11] !== undefined) return { kind: 'html', start, end, name: '!--', closing: false, block: false };
  const name = m[13]!.toLowerCase();
  return { kind: 'html', start, end, name, closing: m[12] === '/', block: BLOCK_ELEMENTS.has(name) };
}

const digitAt = (s: string, i: number): number => {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
};

/**
 * The grammar read by the one regular expression over the whole text: what parseTags answers,
 * at more cost (a match object and captured strings per tag). The definition the tests hold
 * parseTags to.
 */
export function readTagsWithGrammar(stored: string, limit = Number.POSITIVE_INFINITY): Tag[] {
  const tags: Tag[] = [];
  for (const m of stored.matchAll(TAG)) {
    if (m.index >= limit) break;
    tags.push(tagOfMatch(m as RegExpExecArray, m.index));
  }
  return tags;
}

/**
 * `[TC_h:mm:ss(.mmm)_TC]` at `start` read without the regular expression (the commonest tag of a
 * transcription): exactly what the grammar's second alternative matches there, or undefined.
 */
function tcPointAt(s: string, start: number): Tag | undefined {
  let i = start + 4; // after `[TC_`
  let hours = 0;
  let n = 0;
  for (let d = digitAt(s, i); d >= 0 && n < 3; d = digitAt(s, i)) {
    hours = hours * 10 + d;
    i++;
    n++;
  }
  if (n === 0 || s.charCodeAt(i) !== 58 /* : */) return undefined;
  const m1 = digitAt(s, i + 1);
  const m2 = digitAt(s, i + 2);
  if (m1 < 0 || m1 > 5 || m2 < 0 || s.charCodeAt(i + 3) !== 58) return undefined;
  const s1 = digitAt(s, i + 4);
  const s2 = digitAt(s, i + 5);
  if (s1 < 0 || s1 > 5 || s2 < 0) return undefined;
  i += 6;
  let ms = 0;
  const sep = s.charCodeAt(i);
  if (sep === 46 /* . */ || sep === 44 /* , */) {
    let k = 0;
    let scale = 100;
    for (let d = digitAt(s, i + 1); d >= 0 && k < 3; d = digitAt(s, i + 1 + k)) {
      ms += d * scale;
      scale /= 10;
      k++;
    }
    // `.` with no digit, or a fourth digit: not this alternative (the regex backtracks the
    // optional part and then needs `_TC]` right after the seconds, which a `.` is not).
    if (k === 0) return undefined;
    i += 1 + k;
  }
  if (!s.startsWith('_TC]', i)) return undefined;
  const seconds = hours * 3600 + (m1 * 10 + m2) * 60 + s1 * 10 + s2 + ms / 1000;
  return { kind: 'tc-point', start, end: i + 4, seconds };
}

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAlnum = (c: number) => isLetter(c) || (c >= 48 && c <= 57);

/**
 * An element with no attributes, `<em>` or `</em>`, at `start` (the commonest markup), or
 * undefined: the grammar's last alternative with a name of 1-21 letters and digits and nothing
 * between it and `>`.
 */
function bareElementAt(s: string, start: number): Tag | undefined {
  const closing = s.charCodeAt(start + 1) === 47; /* / */
  const from = start + (closing ? 2 : 1);
  if (!isLetter(s.charCodeAt(from))) return undefined;
  let i = from + 1;
  while (i - from < 21 && isAlnum(s.charCodeAt(i))) i++;
  if (s.charCodeAt(i) !== 62 /* > */) return undefined;
  const name = s.slice(from, i).toLowerCase();
  return { kind: 'html', start, end: i + 1, name, closing, block: BLOCK_ELEMENTS.has(name) };
}

/** The end of 1 to `max` digits at `i`, or -1. */
function digitsEnd(s: string, i: number, max: number): number {
  let j = i;
  while (j - i < max && digitAt(s, j) >= 0) j++;
  return j > i ? j : -1;
}

/** The end of the grammar's `\d{1,9}(?:\.\d{1,6})?` at `i` when `next` follows it, or -1. */
function timeEnd(s: string, i: number, next: number): number {
  const whole = digitsEnd(s, i, 9);
  if (whole < 0) return -1;
  if (s.charCodeAt(whole) === next) return whole;
  if (s.charCodeAt(whole) !== 46 /* . */) return -1;
  const fraction = digitsEnd(s, whole + 1, 6);
  return fraction >= 0 && s.charCodeAt(fraction) === next ? fraction : -1;
}

/** `[tc-1.5-42]` at `start` (the grammar's first alternative), or undefined. */
function tcRangeAt(s: string, start: number): Tag | undefined {
  const a = start + 4; // after `[tc-`
  const aEnd = timeEnd(s, a, 45 /* - */);
  if (aEnd < 0) return undefined;
  const bEnd = timeEnd(s, aEnd + 1, 93 /* ] */);
  if (bEnd < 0) return undefined;
  // Number() of the digits as written: the same double as the grammar's Number(m[1]).
  const tcIn = Number(s.slice(a, aEnd));
  const tcOut = Number(s.slice(aEnd + 1, bEnd));
  return { kind: 'tc-range', start, end: bEnd + 1, tcIn, tcOut };
}

/** `[index-n-12]` or `[/index-n-12]` at `start`, nothing more in the tag, or undefined. */
function indexAt(s: string, start: number, closing: boolean): Tag | undefined {
  const at = start + (closing ? 8 : 7); // after `[index-` or `[/index-`
  const state = s.charCodeAt(at);
  if (!isLetter(state) || s.charCodeAt(at + 1) !== 45 /* - */) return undefined;
  const end = digitsEnd(s, at + 2, 6);
  if (end < 0 || s.charCodeAt(end) !== 93 /* ] */) return undefined;
  const tagId = Number(s.slice(at + 2, end));
  return { kind: closing ? 'index-close' : 'index-open', start, end: end + 1, state: s[at]!, tagId };
}

/** The commonest bracket tags at `start` read by hand, or undefined (the grammar decides). */
function bracketTagAt(s: string, start: number): Tag | undefined {
  if (s.startsWith('[TC_', start)) return tcPointAt(s, start);
  if (s.startsWith('[tc-', start)) return tcRangeAt(s, start);
  if (s.startsWith('[index-', start)) return indexAt(s, start, false);
  if (s.startsWith('[/index-', start)) return indexAt(s, start, true);
  return undefined;
}

/**
 * The tags of `stored` that start before `limit` (all of them by default), in text order, with
 * their offsets. Never throws. Each `[` or `<` is a place a tag may start: the commonest tags
 * are read there by hand (no match object, no captured strings: a tenth of the allocations of a
 * search's fragments), anything else by the grammar anchored there.
 */
export function parseTags(stored: string, limit = Number.POSITIVE_INFINITY): Tag[] {
  const tags: Tag[] = [];
  const stop = Math.min(limit, stored.length);
  let bracket = stored.indexOf('[');
  let angle = stored.indexOf('<');
  let from = 0;
  for (;;) {
    if (bracket >= 0 && bracket < from) bracket = stored.indexOf('[', from);
    if (angle >= 0 && angle < from) angle = stored.indexOf('<', from);
    const at = bracket < 0 ? angle : angle < 0 ? bracket : Math.min(bracket, angle);
    // The scan runs on the whole text, so the tags before `limit` are the whole text's.
    if (at < 0 || at >= stop) break;
    let tag = at === bracket ? bracketTagAt(stored, at) : bareElementAt(stored, at);
    if (tag === undefined) {
      TAG_AT.lastIndex = at;
      const m = TAG_AT.exec(stored);
      if (m) tag = tagOfMatch(m, at);
    }
    if (tag) {
      tags.push(tag);
      from = tag.end;
    } else from = at + 1;
  }
  return tags;
}
