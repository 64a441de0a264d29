import { describe, expect, it } from 'vitest';
import { findMatches, literalTermsOf } from '../../../src/publication/text/term-matching.js';

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
