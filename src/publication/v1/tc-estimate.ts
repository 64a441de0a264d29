/**
 * The media window of an index fragment as v1 computes it (docs/publication-v1.md, "Index
 * fragment times"), which differs from v2's rule (text/timecodes.ts): a 55-character margin,
 * then linear interpolation by character position between the time codes around the tag.
 *
 * - Start, from the opening tag: the nearest time code before it when it lies less than 55
 *   characters before; else the nearest after it when it lies less than 55 characters after;
 *   else the time interpolated between the two by character position.
 * - End, from the closing tag: the same, preferring the time code after it.
 * - Before the first time code the text starts at 0 s; after the last one it ends at the media
 *   duration (or at that last time when the duration is unknown). Without any time code: 0.
 * Characters are those of the plain text (tags take room in the stored text but no time in the
 * recording). A `[tc-IN-OUT]` range (an extension of our own data) keeps its meaning: a tag
 * that follows one starts at its IN and ends at its OUT.
 */
import { plainIndexAt } from '../text/plain-text.js';
import type { Timeline, TimeMark, TimeWindow } from '../text/timecodes.js';

export const V1_TC_MARGIN = 55;

interface Neighbour {
  seconds: number;
  /** Plain-text index of the point the time belongs to. */
  at: number;
}

function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** The marks before and after stored offset `position`, as times at plain-text indexes. */
function neighbours(
  timeline: Timeline,
  position: number,
): { before?: Neighbour; after?: Neighbour; range?: TimeMark } {
  const { marks, plain, duration } = timeline;
  let b = -1;
  for (let i = 0; i < marks.length && marks[i]!.end <= position; i++) b = i;
  const prev = marks[b];
  const next = marks.slice(b + 1).find((m) => m.start >= position);
  const before: Neighbour | undefined = prev
    ? { seconds: prev.kind === 'tc-point' ? prev.seconds : prev.tcIn, at: plainIndexAt(plain, prev.end) }
    : undefined;
  const after: Neighbour | undefined = next
    ? { seconds: next.kind === 'tc-point' ? next.seconds : next.tcIn, at: plainIndexAt(plain, next.start) }
    : duration !== undefined && marks.length > 0
      ? { seconds: duration, at: plain.text.length }
      : undefined;
  return { before, after, range: prev?.kind === 'tc-range' ? prev : undefined };
}

function estimate(timeline: Timeline, position: number, preferAfter: boolean): number {
  if (timeline.marks.length === 0) return 0;
  const { before, after, range } = neighbours(timeline, position);
  if (range?.kind === 'tc-range') return preferAfter ? Math.max(range.tcIn, range.tcOut) : range.tcIn;
  const at = plainIndexAt(timeline.plain, position);
  const near = (n: Neighbour | undefined) => n !== undefined && Math.abs(at - n.at) < V1_TC_MARGIN;
  const order = preferAfter ? [after, before] : [before, after];
  for (const n of order) if (near(n)) return n!.seconds;
  const from = before ?? { seconds: 0, at: 0 };
  if (!after) return from.seconds;
  if (after.at <= from.at || after.seconds <= from.seconds) return Math.max(from.seconds, after.seconds);
  return from.seconds + ((at - from.at) / (after.at - from.at)) * (after.seconds - from.seconds);
}

/** The window of the index passage whose opening tag ends at `start` and closing tag starts at `end`. */
export function v1FragmentWindow(timeline: Timeline, start: number, end: number): TimeWindow {
  const tcIn = roundMs(estimate(timeline, start, false));
  const tcOut = roundMs(estimate(timeline, Math.max(start, end), true));
  return { tcIn, tcOut: Math.max(tcIn, tcOut) };
}
