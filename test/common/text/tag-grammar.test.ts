import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTags, readTagsWithGrammar } from '../../../src/common/text/tag-grammar.js';

describe('tag grammar', () => {
  it('reads timecode ranges with decimal seconds and their offsets', () => {
    const text = 'a [tc-15.5-42] b';
    const [tag] = parseTags(text);
    expect(tag).toEqual({ kind: 'tc-range', start: 2, end: 14, tcIn: 15.5, tcOut: 42 });
    expect(text.slice(tag!.start, tag!.end)).toBe('[tc-15.5-42]');
  });

  it('reads timecode points with and without milliseconds', () => {
    const tags = parseTags('[TC_00:00:00.000_TC]x[TC_01:02:03_TC]y[TC_00:00:01.5_TC]');
    expect(tags.map((t) => (t.kind === 'tc-point' ? t.seconds : null))).toEqual([0, 3723, 1.5]);
    expect(tags[1]).toMatchObject({ start: 21, end: 37 });
  });

  it('reads index open and close tags with any state letter', () => {
    const tags = parseTags('[index-n-12]text[/index-r-12]');
    expect(tags).toEqual([
      { kind: 'index-open', start: 0, end: 12, state: 'n', tagId: 12 },
      { kind: 'index-close', start: 16, end: 29, state: 'r', tagId: 12 },
    ]);
  });

  it('reads pages, with the printed label of labelled pages', () => {
    const tags = parseTags('[page-n-3]one[page-n-4-label-data:xii:data]two');
    expect(tags).toEqual([
      { kind: 'page', start: 0, end: 10, state: 'n', page: 3 },
      { kind: 'page', start: 13, end: 43, state: 'n', page: 4, label: 'xii' },
    ]);
  });

  it('reads person tags with their label and JSON data', () => {
    const stored = '[person-n-27-Maria_Puig-data:{"section_tipo":"rsc197","section_id":"27"}:data] Hola';
    const [tag] = parseTags(stored);
    expect(tag).toMatchObject({
      kind: 'person',
      start: 0,
      end: stored.indexOf(' Hola'),
      id: 27,
      label: 'Maria_Puig',
      data: { section_tipo: 'rsc197', section_id: '27' },
    });
  });

  it('reads annotations as other tags, including ones whose data holds brackets', () => {
    const stored =
      'a [note-n-3-data:{"section_id":"3"}:data] b [reference-n-1]c[/reference-n-1] [lang-n-1-data:x:data] [svg-n-2] [draw-n-1-data:[1,2]:data] [geo-n-4-data:{"coordinates":[[1,2]]}:data] d';
    const tags = parseTags(stored);
    expect(tags.map((t) => (t.kind === 'other' ? `${t.closing ? '/' : ''}${t.name}` : t.kind))).toEqual([
      'note',
      'reference',
      '/reference',
      'lang',
      'svg',
      'draw',
      'geo',
    ]);
    const geo = tags[6]!;
    expect(stored.slice(geo.end)).toBe(' d');
  });

  it('reads light HTML, telling block elements from inline ones', () => {
    const tags = parseTags('<p>a<br>b<br/><strong>c</strong><em class="x">d</em></p><!-- n -->');
    expect(
      tags.map((t) => (t.kind === 'html' ? `${t.closing ? '/' : ''}${t.name}:${t.block}` : t.kind)),
    ).toEqual([
      'p:true',
      'br:true',
      'br:true',
      'strong:false',
      '/strong:false',
      'em:false',
      '/em:false',
      '/p:true',
      '!--:false',
    ]);
  });

  it('leaves prose that only looks like tags alone', () => {
    expect(parseTags('a<b y luego. Otra b>a. R&D [foo-1] [tc-x-1] [index] 3 < 4 > 2')).toEqual([]);
  });

  it('reads a malformed known tag as an annotation, so its markup never reaches readers', () => {
    expect(parseTags('x [index-n-] y')).toEqual([
      { kind: 'other', start: 2, end: 12, name: 'index', closing: false },
    ]);
  });

  it('property: the same tags as the grammar read by its regular expression, near misses included', () => {
    const piece = fc.constantFrom(
      'texto ',
      ' ',
      '[TC_00:01:02.500_TC]',
      '[TC_00:01:02_TC]',
      '[TC_1:02:03,5_TC]',
      '[TC_123:59:59.999_TC]',
      '[TC_1234:00:00_TC]',
      '[TC_00:60:00_TC]',
      '[TC_00:00:60_TC]',
      '[TC_00:00:00.1234_TC]',
      '[TC_00:00:00._TC]',
      '[TC_00:00:00.05_TC]',
      '[TC_:00:00_TC]',
      '[TC_00:00:00_TC',
      '[TC_',
      '[tc-1.5-2]',
      '[tc-123456789.123456-2]',
      '[tc-1234567890-2]',
      '[tc-1.1234567-2]',
      '[tc-1.-2]',
      '[tc-.5-2]',
      '[tc-1-2.5x]',
      '[tc-1-2',
      '[index-n-1234567]',
      '[index-nn-1]',
      '[index-n-1-x]',
      '[index-n-]',
      '[/index-N-123456]',
      '<EM>',
      '<em/>',
      '</em >',
      '<h1>',
      '<1>',
      '<abcdefghijabcdefghija>',
      '<abcdefghijabcdefghijab>',
      '[index-n-3]',
      '[/index-n-3]',
      '[page-n-2-label-data:iv:data]',
      '[person-n-7-Ana_Pérez-data:{"section_tipo":"rsc197","section_id":"7"}:data]',
      '[note-n-1-data:[x]:data]',
      '[foo-1]',
      '<p>',
      '</p>',
      '<br>',
      '<br/>',
      '<br />',
      '<P>',
      '<p class="x">',
      '</p x>',
      '<pre>',
      '<strong>',
      '</strong>',
      '<!-- c -->',
      '<!--',
      'a<b',
      '<',
      '[',
      ']',
      '<p',
      '[[TC_00:00:01_TC]',
      '<<p>',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.nat(400), (pieces, limit) => {
        const stored = pieces.join('');
        expect(parseTags(stored)).toEqual(readTagsWithGrammar(stored));
        expect(parseTags(stored, limit)).toEqual(readTagsWithGrammar(stored, limit));
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on arbitrary input', () => {
    for (const s of ['[', '[tc-', '<', '<<p>>', '[person-n-1-', '[TC_99:99:99_TC]', '\u0000[index-n-1]']) {
      expect(() => parseTags(s)).not.toThrow();
    }
  });
});
