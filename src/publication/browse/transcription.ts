/**
 * A stored transcription or long text as a reader sees it on the record page: paragraphs of plain
 * text with the timecodes, page markers and speaker changes of the tag grammar shown where they
 * stand, and the search terms highlighted. Built on the same tag scan, plain-text conversion and
 * highlighter as the API's fragments (text/), so every piece of stored text is escaped and the
 * only markup is ours.
 */
import { parseTags, type Tag } from '../../common/text/tag-grammar.js';
import { escapeHtml, highlight } from '../text/highlight.js';
import { toPlainText } from '../text/plain-text.js';
import type { MatchTerm } from '../text/term-matching.js';

export type TranscriptPiece =
  | { kind: 'tc'; label: string; seconds: number }
  | { kind: 'page'; label: string }
  | { kind: 'speaker'; label: string; person?: number; href?: string }
  | { kind: 'text'; html: string };

/** Seconds as H:MM:SS (or M:SS), as a player shows a position. */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

function marker(tag: Tag): TranscriptPiece | 'break' | undefined {
  switch (tag.kind) {
    case 'tc-range':
      return {
        kind: 'tc',
        label: `${formatSeconds(tag.tcIn)}–${formatSeconds(tag.tcOut)}`,
        seconds: tag.tcIn,
      };
    case 'tc-point':
      return { kind: 'tc', label: formatSeconds(tag.seconds), seconds: tag.seconds };
    case 'page':
      return { kind: 'page', label: tag.label ?? String(tag.page) };
    case 'person': {
      // Dédalo's person tag names the speaker's record: `data:{"section_id":"122",...}:data`.
      const id = Number((tag.data as { section_id?: unknown } | undefined)?.section_id);
      const label = tag.label.replaceAll('_', ' ');
      return Number.isSafeInteger(id) && id > 0
        ? { kind: 'speaker', label, person: id }
        : { kind: 'speaker', label };
    }
    case 'html':
      return tag.block && (tag.name === 'p' ? !tag.closing : tag.name === 'br') ? 'break' : undefined;
    default:
      return undefined;
  }
}

/** Paragraphs of pieces; `terms` (possibly none) are marked in the text. */
export function renderTranscript(stored: string, terms: readonly MatchTerm[]): TranscriptPiece[][] {
  const paragraphs: TranscriptPiece[][] = [[]];
  const current = () => paragraphs[paragraphs.length - 1]!;
  let at = 0;
  const text = (from: number, to: number) => {
    if (to <= from) return;
    const plain = toPlainText(stored.slice(from, to)).text;
    if (plain.trim() === '') return;
    current().push({ kind: 'text', html: terms.length > 0 ? highlight(plain, terms) : escapeHtml(plain) });
  };
  for (const tag of parseTags(stored)) {
    const piece = marker(tag);
    if (piece === undefined) continue;
    text(at, tag.start);
    at = tag.end;
    if (piece === 'break') {
      // A paragraph of nothing but timecodes runs on into the next one.
      if (current().some((p) => p.kind !== 'tc')) paragraphs.push([]);
    } else {
      const last = current().at(-1);
      // Stored texts often repeat a timecode with nothing between (one before the paragraph,
      // one inside): a reader needs it once.
      if (!(piece.kind === 'tc' && last?.kind === 'tc' && last.label === piece.label)) current().push(piece);
    }
  }
  text(at, stored.length);
  return paragraphs.filter((p) => p.length > 0);
}
