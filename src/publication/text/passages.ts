/**
 * Passages of a transcription for av-indexation-fragment, as stored spans [start, end):
 * the text an indexation tag encloses, or the timed segments that overlap a media window.
 * The caller falls back to the whole text when neither applies (docs/publishing.md).
 */
import type { Tag } from '../../common/text/tag-grammar.js';
import type { Timeline, TimeMark } from './timecodes.js';

export interface Passage {
  start: number;
  end: number;
}

/**
 * The text between `[index-*-<tagId>]` and the next `[/index-*-<tagId>]` (any state letter).
 * An opening tag that is never closed runs to the end of the text.
 */
export function indexPassage(tags: readonly Tag[], tagId: number, textLength: number): Passage | undefined {
  const open = tags.findIndex((t) => t.kind === 'index-open' && t.tagId === tagId);
  if (open < 0) return undefined;
  const start = tags[open]!.end;
  for (let i = open + 1; i < tags.length; i++) {
    const t = tags[i]!;
    if (t.kind === 'index-close' && t.tagId === tagId) return { start, end: t.start };
  }
  return { start, end: textLength };
}

interface Segment extends Passage {
  tcIn: number;
  tcOut: number;
}

function startTime(mark: TimeMark): number {
  return mark.kind === 'tc-point' ? mark.seconds : mark.tcIn;
}

/**
 * Each timecode tag opens a segment (the text after it) that runs to the next one. A range's segment spans IN..OUT;
 * a point's segment spans from its time to the next timecode (or the media duration), so texts
 * that only carry points can be cut by time too.
 */
export function timedSegments(timeline: Timeline): Segment[] {
  const { marks, plain, duration } = timeline;
  return marks.map((m, i) => {
    const next = marks[i + 1];
    const end = next ? next.start : plain.storedLength;
    if (m.kind === 'tc-range') {
      return { start: m.end, end, tcIn: Math.min(m.tcIn, m.tcOut), tcOut: Math.max(m.tcIn, m.tcOut) };
    }
    const tcOut = next ? startTime(next) : (duration ?? m.seconds);
    return { start: m.end, end, tcIn: m.seconds, tcOut: Math.max(m.seconds, tcOut) };
  });
}

function overlaps(s: Segment, tcIn: number, tcOut: number): boolean {
  // A zero-length window asks "what is said at this instant": the segment containing it.
  if (tcIn === tcOut) return s.tcIn <= tcIn && tcIn < s.tcOut;
  return s.tcIn < tcOut && s.tcOut > tcIn;
}

/** From the first to the last timed segment overlapping tcIn..tcOut (seconds), if any. */
export function timecodePassage(timeline: Timeline, tcIn: number, tcOut: number): Passage | undefined {
  const hits = timedSegments(timeline).filter((s) => overlaps(s, tcIn, tcOut));
  if (hits.length === 0) return undefined;
  return { start: hits[0]!.start, end: hits[hits.length - 1]!.end };
}
