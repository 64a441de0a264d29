/**
 * Media times of places in a transcription, from its timecode tags.
 *
 * The rule, for a stored offset `p` (a match, or the edge of a passage):
 * 1. Find the last timecode tag before `p`. If it is a range `[tc-IN-OUT]`, the passage after it
 *    runs from IN to OUT: the answer is IN..OUT.
 * 2. Otherwise the time lies between the point before `p` (`[TC_..._TC]`; the start of the media,
 *    0, when there is none) and the next timecode after `p` (a point's time or a range's IN; the
 *    media duration when none follows; the point before itself when the duration is unknown).
 * 3. When those two points are far apart (more than 600 characters of plain text), answering the
 *    whole gap would send a player minutes away from the words. The time at `p` is then
 *    estimated by linear interpolation on plain-text characters (speech runs at a roughly
 *    constant rate), and the answer is a window of ±10% of the gap's duration around that
 *    estimate, clamped to the two points so it never leaves what the tags guarantee.
 * Plain-text characters are used rather than stored offsets because tags (speaker data, notes)
 * take room in the stored text but no time in the recording. Times are rounded to milliseconds.
 */

import type { Tag, TcPointTag, TcRangeTag } from '../../common/text/tag-grammar.js';
import { type PlainText, plainIndexAt } from './plain-text.js';

export const INTERPOLATION_MIN_GAP = 600;
export const INTERPOLATION_WINDOW = 0.1;

export type TimeMark = TcRangeTag | TcPointTag;

export interface Timeline {
  marks: TimeMark[];
  plain: PlainText;
  /** Media duration in seconds, when known: the time at the end of the text. */
  duration?: number;
}

export interface TimeWindow {
  tcIn: number;
  tcOut: number;
}

export function buildTimeline(tags: readonly Tag[], plain: PlainText, duration?: number): Timeline {
  const marks = tags.filter((t): t is TimeMark => t.kind === 'tc-range' || t.kind === 'tc-point');
  return { marks, plain, duration: duration !== undefined && duration >= 0 ? duration : undefined };
}

function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** A mark's time where its passage starts (a point's time, a range's IN). */
function startTime(mark: TimeMark): number {
  return mark.kind === 'tc-point' ? mark.seconds : mark.tcIn;
}

/** Index of the last mark that ends at or before `position` (-1 if none). */
function lastMarkBefore(marks: readonly TimeMark[], position: number): number {
  let lo = 0;
  let hi = marks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (marks[mid]!.end <= position) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The media window for stored offset `position` (see the rule above). */
export function timecodesAt(timeline: Timeline, position: number): TimeWindow {
  const { marks, plain, duration } = timeline;
  const b = lastMarkBefore(marks, position);
  const before = marks[b];
  if (before?.kind === 'tc-range') {
    return {
      tcIn: roundMs(Math.min(before.tcIn, before.tcOut)),
      tcOut: roundMs(Math.max(before.tcIn, before.tcOut)),
    };
  }
  const after = marks[b + 1];
  const tBefore = before ? before.seconds : 0;
  const posBefore = before ? before.end : 0;
  let tAfter = after ? startTime(after) : (duration ?? tBefore);
  const posAfter = after ? after.start : plain.storedLength;
  if (tAfter < tBefore) tAfter = tBefore;
  const from = plainIndexAt(plain, posBefore);
  const gap = plainIndexAt(plain, posAfter) - from;
  if (gap > INTERPOLATION_MIN_GAP && tAfter > tBefore) {
    const fraction = Math.min(1, Math.max(0, (plainIndexAt(plain, position) - from) / gap));
    const estimate = tBefore + fraction * (tAfter - tBefore);
    const half = INTERPOLATION_WINDOW * (tAfter - tBefore);
    return {
      tcIn: roundMs(Math.max(tBefore, estimate - half)),
      tcOut: roundMs(Math.min(tAfter, estimate + half)),
    };
  }
  return { tcIn: roundMs(tBefore), tcOut: roundMs(tAfter) };
}

/** The media window of the stored span [start, end): from the window at its start to the one at its end. */
export function timecodesOfSpan(timeline: Timeline, start: number, end: number): TimeWindow {
  const first = timecodesAt(timeline, start);
  const last = timecodesAt(timeline, Math.max(start, end));
  return { tcIn: first.tcIn, tcOut: Math.max(first.tcIn, last.tcOut) };
}
