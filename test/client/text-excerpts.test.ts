/** The excerpts a list shows under a row found by the words of a long text (client/src/app/text-excerpts.ts). */
import { describe, expect, it } from 'vitest';
import { decodeListSearch, encodeListSearch } from '../../client/src/app/list-search.js';
import { excerptsOf, readableText, searchWords } from '../../client/src/app/text-excerpts.js';

const shown = (x: ReturnType<typeof excerptsOf>[number]) =>
  `${x.cutBefore ? '…' : ''}${x.parts.map((p) => (p.hit ? `[${p.text}]` : p.text)).join('')}${x.cutAfter ? '…' : ''}`;

describe('text excerpts', () => {
  it('reads the text a person reads: no markup, no transcription tags, entities decoded', () => {
    expect(
      readableText('<p>[TC_00:00:01.000_TC] Hola&nbsp;<b>món</b> &amp; més</p><p>[index-n-1-]Adéu</p>'),
    ).toBe('Hola món & més Adéu');
  });

  it('takes the words of a search as the server does, and nothing from a negation', () => {
    expect(searchWords('joan  buxeda')).toEqual(['joan', 'buxeda']);
    expect(searchWords("'Joan Buxeda'")).toEqual(['Joan Buxeda']);
    expect(searchWords('==Buxeda')).toEqual(['Buxeda']);
    expect(searchWords('bux*')).toEqual(['bux']);
    expect(searchWords('-buxeda')).toEqual([]);
    expect(searchWords('!=buxeda')).toEqual([]);
    expect(searchWords('*')).toEqual([]);
  });

  it('marks every hit ignoring case and accents, cut at words, windows merged', () => {
    const text = `${'lorem '.repeat(30)}Joan BUXÈDA teixidor ${'ipsum '.repeat(30)}els Buxeda ${'dolor '.repeat(3)}`;
    const found = excerptsOf(text, ['buxeda'], 3, 20);
    expect(found.map(shown)).toEqual([
      '…lorem lorem Joan [BUXÈDA] teixidor ipsum…',
      '…ipsum ipsum els [Buxeda] dolor dolor dolor',
    ]);
    expect(excerptsOf(text, ['absent'])).toEqual([]);
    // Two close hits are one excerpt with two marks.
    expect(excerptsOf('a Buxeda i Vives', ['buxeda', 'vives']).map(shown)).toEqual(['a [Buxeda] i [Vives]']);
  });

  it('keeps a search in the address and refuses a mangled one', () => {
    const search = {
      op: '$or' as const,
      conditions: [{ field: 'oh25>rsc36', q: 'Buxeda', from: '', to: '' }],
      filter: { $or: [{ q: 'Buxeda', path: [{ section_tipo: 'oh1', component_tipo: 'oh25' }] }] },
      excerpts: [
        {
          path: [
            { section_tipo: 'oh1', component_tipo: 'oh25' },
            { section_tipo: 'rsc167', component_tipo: 'rsc36' },
          ],
          q: 'Buxeda',
        },
      ],
    };
    expect(decodeListSearch(encodeListSearch(search))).toEqual(search);
    expect(decodeListSearch('{not json')).toBeUndefined();
    expect(decodeListSearch('{"op":"$and","c":[]}')).toBeUndefined();
    expect(decodeListSearch('{"op":"$and","c":[],"f":{},"x":[{"q":"a","path":"oh1"}]}')?.excerpts).toEqual(
      [],
    );
  });
});
