/**
 * Splits a transcription (or any text area value) into plain text and Dédalo tags, with a short
 * human label for each tag, so the editor can show tags as chips and write them back verbatim.
 * The grammar is the one the publication API reads (src/common/text/tag-grammar.ts): one
 * implementation for both. HTML markup of texts written in a rich-text editor (`<p>`, `<br>`,
 * `<strong>`) becomes chips too, so it is kept verbatim and never half-deleted.
 */
import { parseTags, type Tag } from '../../../src/common/text/tag-grammar.js';
import { t } from '../api/i18n.js';

export type Segment = { kind: 'text'; text: string } | { kind: 'tag'; raw: string; tag: Tag; label: string };

function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  const whole = Math.floor(s);
  const ms = Math.round((s - whole) * 1000);
  return `${pad(h)}:${pad(m)}:${pad(whole)}${ms ? `.${String(ms).padStart(3, '0')}` : ''}`;
}

/**
 * What the chip says (screen readers get it too), in the interface language: "TC 00:01:02",
 * "index 3 in", "page 5" in English.
 */
export function chipLabel(tag: Tag, raw: string): string {
  switch (tag.kind) {
    case 'tc-point':
      return t('ci_chipTc', { time: clock(tag.seconds) });
    case 'tc-range':
      return t('ci_chipTcRange', { from: clock(tag.tcIn), to: clock(tag.tcOut) });
    case 'index-open':
      return t('ci_chipIndexIn', { id: tag.tagId });
    case 'index-close':
      return t('ci_chipIndexOut', { id: tag.tagId });
    case 'page':
      return t('ci_chipPage', { page: tag.label ?? tag.page });
    case 'person':
      return t('ci_chipPerson', { name: tag.label.replaceAll('_', ' ') });
    case 'other':
      return `${tag.closing ? '/' : ''}${tag.name}`;
    case 'html':
      return tag.name === '!--' ? t('ci_chipComment') : `${tag.closing ? '/' : ''}${tag.name}`;
    default:
      return raw;
  }
}

export function segmentsOf(text: string): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const tag of parseTags(text)) {
    if (tag.start > at) segments.push({ kind: 'text', text: text.slice(at, tag.start) });
    const raw = text.slice(tag.start, tag.end);
    segments.push({ kind: 'tag', raw, tag, label: chipLabel(tag, raw) });
    at = tag.end;
  }
  if (at < text.length) segments.push({ kind: 'text', text: text.slice(at) });
  return segments;
}

/** `[TC_HH:MM:SS.mmm_TC]` for a time typed as H:MM:SS(.mmm) or seconds; undefined if unreadable. */
export function timecodeTag(input: string): string | undefined {
  const t = input.trim();
  let seconds: number;
  const m = /^(?:(\d{1,3}):)?([0-5]?\d):([0-5]?\d(?:\.\d{1,3})?)$/.exec(t);
  if (m) seconds = Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  else if (/^\d+(\.\d{1,3})?$/.test(t)) seconds = Number(t);
  else return undefined;
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  const ms = Math.round((seconds - Math.floor(seconds)) * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `[TC_${pad(h)}:${pad(min)}:${pad(s)}.${pad(ms, 3)}_TC]`;
}

/** `[page-n-<n>]`, the page-break mark of printed documents. */
export function pageTag(page: number): string {
  return `[page-n-${page}]`;
}
