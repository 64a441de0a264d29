import { describe, expect, it } from 'vitest';
import { analyseText } from '../../../src/publication/text/fragments.js';
import { indexPassage, timecodePassage } from '../../../src/publication/text/passages.js';
import { plainSlice } from '../../../src/publication/text/plain-text.js';
import { speakersIn } from '../../../src/publication/text/speakers.js';
import { buildTimeline, timecodesOfSpan } from '../../../src/publication/text/timecodes.js';

const person = (id: number, label: string) =>
  `[person-n-${id}-${label}-data:{"section_tipo":"rsc197","section_id":"${id}"}:data]`;

describe('speakers', () => {
  const stored = `${person(1, 'Ana_Puig')} hola ${person(2, 'JR')} qué tal ${person(1, 'Ana_Puig')} bien ${person(3, 'X')} fin`;
  const { tags } = analyseText(stored);

  it('lists the speaker in effect at the start and every speaker inside, once each', () => {
    const start = stored.indexOf('qué');
    const end = stored.indexOf('bien') + 4;
    expect(speakersIn(tags, start, end)).toEqual([
      { id: 2, name: 'JR', data: { section_tipo: 'rsc197', section_id: '2' } },
      { id: 1, name: 'Ana Puig', data: { section_tipo: 'rsc197', section_id: '1' } },
    ]);
  });

  it('has only the current speaker for a passage without person tags, and none before the first', () => {
    expect(speakersIn(tags, stored.indexOf('hola'), stored.indexOf('hola') + 4).map((s) => s.id)).toEqual([
      1,
    ]);
    expect(speakersIn(analyseText('sin personas').tags, 0, 5)).toEqual([]);
  });
});

describe('passages', () => {
  const stored =
    '[TC_00:00:00_TC]<p>[tc-0-10] Uno [index-n-1]dos <em>tres</em>[/index-n-1] cuatro.</p>' +
    '<p>[tc-10-20] cinco [index-n-2]seis[/index-n-2]</p><p>[TC_00:00:20_TC] siete [index-n-3]ocho</p>';
  const a = analyseText(stored);
  const tl = buildTimeline(a.tags, a.plain, 30);

  it('finds the text an index tag encloses', () => {
    const p = indexPassage(a.tags, 1, stored.length)!;
    expect(plainSlice(a.plain, p.start, p.end)).toBe('dos tres');
    expect(indexPassage(a.tags, 9, stored.length)).toBeUndefined();
  });

  it('runs an unclosed index tag to the end of the text', () => {
    const p = indexPassage(a.tags, 3, stored.length)!;
    expect(plainSlice(a.plain, p.start, p.end)).toBe('ocho');
  });

  it('selects the timed segments that overlap a window', () => {
    const p = timecodePassage(tl, 12, 15)!;
    expect(plainSlice(a.plain, p.start, p.end)).toBe('cinco seis');
    const q = timecodePassage(tl, 5, 25)!;
    expect(plainSlice(a.plain, q.start, q.end)).toBe('Uno dos tres cuatro. cinco seis siete ocho');
    const r = timecodePassage(tl, 22, 22)!;
    expect(plainSlice(a.plain, r.start, r.end)).toBe('siete ocho');
    expect(timecodePassage(tl, 40, 50)).toBeUndefined();
  });

  it('times a passage cut at a range by that range', () => {
    const p = timecodePassage(tl, 12, 15)!;
    expect(timecodesOfSpan(tl, p.start, p.end)).toEqual({ tcIn: 10, tcOut: 20 });
    const q = timecodePassage(tl, 22, 22)!;
    expect(timecodesOfSpan(tl, q.start, q.end)).toEqual({ tcIn: 20, tcOut: 30 });
  });
});
