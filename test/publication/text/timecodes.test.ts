import { describe, expect, it } from 'vitest';
import { analyseText } from '../../../src/publication/text/fragments.js';
import { buildTimeline, timecodesAt, timecodesOfSpan } from '../../../src/publication/text/timecodes.js';

function timeline(stored: string, duration?: number) {
  const a = analyseText(stored);
  return buildTimeline(a.tags, a.plain, duration);
}

const words = (n: number, w = 'palabra') => Array.from({ length: n }, () => w).join(' ');

describe('timecodes', () => {
  it('takes tc_in/tc_out from the [tc-IN-OUT] range that contains the position', () => {
    const stored = '[tc-10-20.5] uno dos [tc-20.5-31] tres';
    const tl = timeline(stored);
    expect(timecodesAt(tl, stored.indexOf('dos'))).toEqual({ tcIn: 10, tcOut: 20.5 });
    expect(timecodesAt(tl, stored.indexOf('tres'))).toEqual({ tcIn: 20.5, tcOut: 31 });
  });

  it('brackets a position between the nearest points before and after it', () => {
    const stored = '[TC_00:00:05.000_TC] uno [TC_00:00:09.250_TC] dos [TC_00:01:00_TC] tres';
    const tl = timeline(stored);
    expect(timecodesAt(tl, stored.indexOf('uno'))).toEqual({ tcIn: 5, tcOut: 9.25 });
    expect(timecodesAt(tl, stored.indexOf('dos'))).toEqual({ tcIn: 9.25, tcOut: 60 });
  });

  it('runs to the media duration after the last point, and starts at 0 before the first', () => {
    const stored = 'antes [TC_00:00:05_TC] después';
    expect(timecodesAt(timeline(stored, 42), stored.indexOf('después'))).toEqual({ tcIn: 5, tcOut: 42 });
    expect(timecodesAt(timeline(stored, 42), 0)).toEqual({ tcIn: 0, tcOut: 5 });
    expect(timecodesAt(timeline(stored), stored.indexOf('después'))).toEqual({ tcIn: 5, tcOut: 5 });
  });

  it('interpolates by character position between far-apart points, within ±10% of the gap', () => {
    // 100 s over about 1600 plain characters; the match sits at three quarters of the way.
    const before = words(150);
    const after = words(50);
    const stored = `[TC_00:00:00_TC] ${before} objetivo ${after} [TC_00:01:40_TC]`;
    const tl = timeline(stored);
    const w = timecodesAt(tl, stored.indexOf('objetivo'));
    const plainAt = before.length + 1;
    const plainGap = before.length + after.length + 'objetivo'.length + 2;
    const estimate = (100 * plainAt) / plainGap;
    expect(w.tcIn).toBeCloseTo(Math.max(0, estimate - 10), 2);
    expect(w.tcOut).toBeCloseTo(Math.min(100, estimate + 10), 2);
    expect(w.tcOut - w.tcIn).toBeCloseTo(20, 2);
  });

  it('clamps the interpolated window to the two points', () => {
    const stored = `[TC_00:00:10_TC] inicio ${words(200)} [TC_00:01:10_TC]`;
    const w = timecodesAt(timeline(stored), stored.indexOf('inicio'));
    expect(w.tcIn).toBe(10);
    expect(w.tcOut).toBeLessThanOrEqual(10 + 6 + 0.5);
  });

  it('does not interpolate when the points are close', () => {
    const stored = `[TC_00:00:10_TC] ${words(20)} x [TC_00:01:10_TC]`;
    expect(timecodesAt(timeline(stored), stored.indexOf(' x ') + 1)).toEqual({ tcIn: 10, tcOut: 70 });
  });

  it('spans a passage from the window at its start to the one at its end', () => {
    const stored = '[tc-0-10] a [tc-10-20] b [tc-20-30] c';
    const tl = timeline(stored);
    expect(timecodesOfSpan(tl, stored.indexOf('a'), stored.indexOf('b') + 1)).toEqual({ tcIn: 0, tcOut: 20 });
    expect(timecodesOfSpan(tl, 0, stored.length)).toEqual({ tcIn: 0, tcOut: 30 });
  });

  it('answers 0..duration for a text without timecodes', () => {
    expect(timecodesOfSpan(timeline('solo texto', 12.5), 0, 10)).toEqual({ tcIn: 0, tcOut: 12.5 });
  });
});
