/**
 * WebVTT subtitles of a transcription (docs/publication-v1.md): the text between time-code marks spread over
 * the time between them, cut into lines of at most 144 characters at a space, one cue per line.
 * Bold (`<strong>`, `<b>`: the interviewer's questions) and italics survive as `<b>` / `<i>`,
 * closed and reopened across cue breaks; every other tag and mark is dropped. Characters are
 * counted, not bytes (docs/publication-v1.md: multibyte text got shorter cues upstream).
 */
import { parseTags } from '../../common/text/tag-grammar.js';

const LINE_MAX = 144;
const CUE_SPLIT = 72;
const LAST_CUE_SECONDS = 5;

interface Segment {
  /** Seconds at the segment's start mark; undefined before the first mark. */
  tc?: number;
  text: string;
}

interface Line {
  start: number;
  text: string;
}

const INLINE: Record<string, string> = { strong: 'b', b: 'b', em: 'i', i: 'i' };

/** Splits the stored text at time-code marks, keeping only text, `<b>` and `<i>`. */
function segmentsOf(stored: string): Segment[] {
  const segments: Segment[] = [{ text: '' }];
  let at = 0;
  const push = (s: string) => {
    segments[segments.length - 1]!.text += s;
  };
  for (const tag of parseTags(stored)) {
    push(
      stored
        .slice(at, tag.start)
        .replace(/&nbsp;/g, ' ')
        .replace(/\s+/g, ' '),
    );
    at = tag.end;
    if (tag.kind === 'tc-point' || tag.kind === 'tc-range') {
      segments.push({ tc: tag.kind === 'tc-point' ? tag.seconds : tag.tcIn, text: '' });
    } else if (tag.kind === 'html') {
      const inline = Object.hasOwn(INLINE, tag.name) ? INLINE[tag.name] : undefined;
      if (inline) push(`<${tag.closing ? '/' : ''}${inline}>`);
      else if (tag.block) push(' ');
    }
  }
  push(
    stored
      .slice(at)
      .replace(/&nbsp;/g, ' ')
      .replace(/\s+/g, ' '),
  );
  return segments
    .map((s) => ({ ...s, text: s.text.replace(/\s+/g, ' ').trim() }))
    .filter((s) => s.text !== '' || s.tc !== undefined);
}

const visibleLength = (text: string) => text.replace(/<\/?[bi]>/g, '').length;

/** Cuts text into lines of at most LINE_MAX visible characters, at the last space. */
function cut(text: string): string[] {
  const words = text.split(' ');
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    const next = current === '' ? word : `${current} ${word}`;
    if (current !== '' && visibleLength(next) > LINE_MAX) {
      lines.push(current);
      current = word;
    } else current = next;
  }
  if (current !== '') lines.push(current);
  return lines;
}

/** Closes the tags a line leaves open and reopens them on the next one. */
function balance(lines: string[]): string[] {
  let open: string[] = [];
  return lines.map((line) => {
    const text = open.map((t) => `<${t}>`).join('') + line;
    const stack: string[] = [];
    for (const m of text.matchAll(/<(\/?)([bi])>/g)) {
      if (m[1] === '') stack.push(m[2]!);
      else {
        const i = stack.lastIndexOf(m[2]!);
        if (i >= 0) stack.splice(i, 1);
      }
    }
    open = stack;
    return (
      text +
      [...stack]
        .reverse()
        .map((t) => `</${t}>`)
        .join('')
    );
  });
}

function timestamp(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** Cue text: a newline after `</b>`, and text over 72 characters in two lines at a space. */
function cueText(text: string): string {
  const withBreaks = text.replace(/<\/b>\s*/g, '</b>\n').trim();
  return withBreaks
    .split('\n')
    .map((part) => {
      if (visibleLength(part) <= CUE_SPLIT) return part;
      const space = part.indexOf(' ', Math.floor(part.length / 2));
      return space < 0 ? part : `${part.slice(0, space)}\n${part.slice(space + 1)}`;
    })
    .join('\n');
}

export interface SubtitleOptions {
  /** Seconds of the whole recording, for text without a following time code. */
  duration?: number;
  tcIn?: number;
  tcOut?: number;
}

export function buildWebVtt(stored: string, options: SubtitleOptions): string {
  const segments = segmentsOf(stored);
  const totalChars = segments.reduce((n, s) => n + visibleLength(s.text), 0);
  const globalRate = options.duration && totalChars > 0 ? options.duration / totalChars : 0;
  let lines: Line[] = [];
  segments.forEach((seg, i) => {
    const start = seg.tc ?? 0;
    const next = segments.slice(i + 1).find((s) => s.tc !== undefined)?.tc;
    const chars = visibleLength(seg.text);
    const rate = next !== undefined && next > start && chars > 0 ? (next - start) / chars : globalRate;
    let before = 0;
    for (const text of balance(cut(seg.text))) {
      lines.push({ start: start + before * rate, text });
      before += visibleLength(text) + 1;
    }
  });
  if (options.tcIn !== undefined || options.tcOut !== undefined) {
    const from = options.tcIn ?? 0;
    const windowed: Line[] = [];
    for (const line of lines) {
      if (line.start < from) continue;
      windowed.push({ start: line.start - from, text: line.text });
      if (options.tcOut !== undefined && line.start > options.tcOut) break;
    }
    lines = windowed;
  }
  let out = 'WEBVTT\n\n';
  lines.forEach((line, i) => {
    const end = lines[i + 1]?.start ?? line.start + LAST_CUE_SECONDS;
    out += `${i + 1}\n${timestamp(line.start)} --> ${timestamp(Math.max(end, line.start))}\n${cueText(line.text)}\n\n`;
  });
  return out;
}
