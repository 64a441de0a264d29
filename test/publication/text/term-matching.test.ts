import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findMatches,
  foldMapped,
  foldString,
  foldText,
  literalTermsOf,
} from '../../../src/publication/text/term-matching.js';

/** The stretches of `text` a literal term matches, as written in the text. */
const matched = (text: string, term: string) =>
  findMatches(text, [{ literal: term }]).map((r) => text.slice(r.start, r.end));

describe('literal terms (fragment routes): punctuation is part of the term', () => {
  const table: [text: string, term: string, expected: string[]][] = [
    // The cases: a leading parenthesis must be there; a trailing stop matches a stop.
    ['the cliff edge', '(cliff', []],
    ['the (cliff) edge', '(cliff', ['(cliff']],
    ['a cliff. Then', 'cliff.', ['cliff.']],
    ['a cliff then', 'cliff.', []],
    ['a cliff, then', 'cliff.', []],
    // A term made of a word still matches that word next to punctuation, never inside a word.
    ['(cliff).', 'cliff', ['cliff']],
    ['cliffs and clifftop', 'cliff', []],
    ['cliff. cliff, cliff', 'cliff', ['cliff', 'cliff', 'cliff']],
    // Inner punctuation is literal too: no other separator stands in for it.
    ['R&D and R & D and R-D', 'R&D', ['R&D']],
    ['e-mail, email', 'e-mail', ['e-mail']],
    ['U.S.A. and USA', 'u.s.a.', ['U.S.A.']],
    ['a<b but a < b', 'a<b', ['a<b']],
    // Where the term starts or ends with a word character, the text may not go on with one.
    ['xcliff. and cliff.x', 'cliff.', ['cliff.']],
    ['x-mail', '-mail', ['-mail']],
    ['(cliffs', '(cliff', []],
    // Case and accents are folded on both sides; the stored spelling is what gets marked.
    ['Una Canción. Otra', 'CANCION.', ['Canción.']],
    ['¿Qué? dijo', '¿que?', ['¿Qué?']],
    ["L'Abuela dijo", "l'abuela", ["L'Abuela"]],
    ['la cafe\u0301. sola', 'café.', ['cafe\u0301.']],
    // Apostrophes are characters like any other: a typographic one is not an ASCII one.
    ['l’abuela', "l'abuela", []],
  ];
  it.each(table)('in %j, %j matches %j', (text, term, expected) => {
    expect(matched(text, term)).toEqual(expected);
  });
});

describe('literalTermsOf', () => {
  it('splits on whitespace and keeps punctuation', () => {
    expect(literalTermsOf(' (cliff  cliff.\tR&D\n')).toEqual([
      { literal: '(cliff' },
      { literal: 'cliff.' },
      { literal: 'R&D' },
    ]);
  });

  it('skips tokens with no letter or digit, and tokens equal to an earlier one up to case and accents', () => {
    expect(literalTermsOf('- ++ Canción cancion CANCIÓN. cancion.')).toEqual([
      { literal: 'Canción' },
      { literal: 'CANCIÓN.' },
    ]);
    expect(literalTermsOf('-- ... ¿?')).toEqual([]);
  });
});

describe('one-word terms against a tokenising reference', () => {
  // Texts whose characters fold one to one (ASCII and precomposed accents), so offsets in the
  // folded text are offsets in the source and a plain regular expression can be the reference.
  const alphabet = ['a', 'b', 'á', 'B', 'Á', 'ñ', '_', '1', ' ', '.', ',', '-', "'", '(', ')'];
  const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }).map((cs) => cs.join(''));
  const word = fc
    .array(fc.constantFrom('a', 'b', 'á', 'ñ', '1', '_'), { minLength: 1, maxLength: 3 })
    .map((cs) => cs.join(''));

  /** Every token of the folded text equal to `w` (or beginning with it, with `prefix`). */
  function reference(source: string, w: string, prefix: boolean): [number, number][] {
    const folded = foldString(source);
    const target = foldString(w);
    const out: [number, number][] = [];
    for (const m of folded.matchAll(/[\p{L}\p{N}_]+/gu)) {
      if (prefix ? m[0].startsWith(target) : m[0] === target) out.push([m.index, m.index + m[0].length]);
    }
    return out;
  }

  it('finds exactly the tokens equal to the word, and those it begins with as a prefix', () => {
    fc.assert(
      fc.property(text, word, fc.boolean(), (source, w, prefix) => {
        const found = findMatches(source, [{ words: [w], prefix }]).map((r) => [r.start, r.end]);
        expect(found).toEqual(reference(source, w, prefix));
        if (!prefix) {
          const literal = findMatches(source, [{ literal: w }]).map((r) => [r.start, r.end]);
          expect(literal).toEqual(reference(source, w, false));
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('folding text for matching', () => {
  it('takes the one-to-one shortcut only where it gives what the general fold gives', () => {
    const units = [
      'a',
      'Z',
      'á',
      'Ñ',
      'ß',
      'İ',
      '’',
      '—',
      'Ω',
      'ά',
      'Ж',
      '\u0301',
      '\u0000',
      'ﬁ',
      '😀',
      '\ud800',
      '記',
      ' ',
      '.',
    ];
    const text = fc.array(fc.constantFrom(...units), { maxLength: 40 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'binary', maxLength: 40 })), (source) => {
        const quick = foldText(source);
        const general = foldMapped(source);
        expect(quick.text).toBe(general.text);
        for (let i = 0; i < general.text.length; i++) {
          expect([quick.startOf(i), quick.endOf(i)]).toEqual([general.starts[i], general.ends[i]]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('folding a text that grows', () => {
  it('keeps the source span of every unit when the folded text is longer than the source', () => {
    // Each Hangul syllable decomposes into two or three jamo: 60 syllables fold to 180 units,
    // well past the room the folding reserves, so the mapped text grows while it is built.
    const source = `${'한'.repeat(60)} Café`;
    const folded = foldMapped(source);
    expect(folded.text).toBe(`${'한'.normalize('NFD').repeat(60)} cafe`);
    for (let i = 0; i < 180; i++) {
      const syllable = Math.floor(i / 3);
      expect([folded.starts[i], folded.ends[i]]).toEqual([syllable, syllable + 1]);
    }
    const cafe = folded.text.length - 4;
    expect([folded.starts[cafe], folded.ends[cafe + 3]]).toEqual([61, 65]);
    expect(matched(source, 'cafe')).toEqual(['Café']);
  });
});
