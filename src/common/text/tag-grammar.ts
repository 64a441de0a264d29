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
 * The scan is a single regular expression with bounded repetitions, so hostile input costs
 * linear-ish time and never backtracks catastrophically. Something that only looks like a tag
 * (`[foo-1]`, a lone `<` in `a<b`) is not a tag and stays text.
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

/** Every tag of `stored`, in text order, with its offsets. Never throws. */
/** The tags of `stored` that start before `limit` (all of them by default), in text order. */
export function parseTags(stored: string, limit = Number.POSITIVE_INFINITY): Tag[] {
  const tags: Tag[] = [];
  for (const m of stored.matchAll(TAG)) {
    const start = m.index;
    // The scan runs on the whole text, so the tags before `limit` are the whole text's.
    if (start >= limit) break;
    const end = start + m[0].length;
    if (m[1] !== undefined) {
      tags.push({ kind: 'tc-range', start, end, tcIn: Number(m[1]), tcOut: Number(m[2]) });
    } else if (m[3] !== undefined) {
      const ms = m[6] === undefined ? 0 : Number(m[6].padEnd(3, '0'));
      const seconds = Number(m[3]) * 3600 + Number(m[4]) * 60 + Number(m[5]) + ms / 1000;
      tags.push({ kind: 'tc-point', start, end, seconds });
    } else if (m[8] !== undefined) {
      tags.push(namedTag(start, end, m[7] === '/', m[8], m[9]!, m[10]));
    } else if (m[11] !== undefined) {
      tags.push({ kind: 'html', start, end, name: '!--', closing: false, block: false });
    } else {
      const name = m[13]!.toLowerCase();
      tags.push({ kind: 'html', start, end, name, closing: m[12] === '/', block: BLOCK_ELEMENTS.has(name) });
    }
  }
  return tags;
}
