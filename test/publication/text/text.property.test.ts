import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseText, findFragments, fragmentsFromPrefix } from '../../../src/publication/text/fragments.js';
import { highlight } from '../../../src/publication/text/highlight.js';
import { indexPassage, timecodePassage } from '../../../src/publication/text/passages.js';
import { speakersIn } from '../../../src/publication/text/speakers.js';
import { buildTimeline, timecodesAt, timecodesOfSpan } from '../../../src/publication/text/timecodes.js';

/** Reference folding, written independently of the module: NFD, no marks, lower case. */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const unescapeHtml = (s: string) =>
  s
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

const VOCABULARY = [
  'canción',
  'Cancion',
  'CAFÉ',
  'cafe',
  'niño',
  'Ñandú',
  'àvia',
  'R',
  'D',
  'la',
  'de',
  'script',
  'b',
];
const PIECES = [
  ' ',
  ', ',
  '. ',
  '<p>',
  '</p>',
  '<br>',
  '<strong>',
  '</strong>',
  '[index-n-1]',
  '[/index-n-1]',
  '[tc-1.5-20]',
  '[TC_00:00:30.250_TC]',
  '[page-n-3]',
  '[page-n-4-label-data:iv:data]',
  '[person-n-7-Ana_B-data:{"section_id":"7"}:data]',
  '[note-n-1-data:{"a":"<b>"}:data]',
  '&amp;',
  '&lt;',
  ' & ',
  '<script>',
  '</script>',
  'a<b',
  '"',
  "'",
  '&nbsp;',
];

const storedArb = fc
  .array(fc.oneof(fc.constantFrom(...VOCABULARY), fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), {
    maxLength: 60,
  })
  .map((parts) => parts.join(''));
const anyTextArb = fc.oneof(
  storedArb,
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ maxLength: 200 }),
);
const termArb = fc.record({
  words: fc.array(fc.oneof(fc.constantFrom(...VOCABULARY), fc.string({ minLength: 1, maxLength: 4 })), {
    minLength: 1,
    maxLength: 3,
  }),
  prefix: fc.boolean(),
});
const termsArb = fc.array(termArb, { minLength: 1, maxLength: 3 });
const optionsArb = fc.record({
  maxCharacters: fc.integer({ min: 10, max: 400 }),
  maxOccurrences: fc.integer({ min: 1, max: 10 }),
});

describe('text properties', () => {
  it("fragments decided from a prefix of a long text are the whole text's", () => {
    let decided = 0;
    // Pieces that cut or end a word right where a prefix may stop: combining marks, a surrogate
    // pair, a word that goes on (`cancións`), a long tag.
    const edges = ['\u0301', 'e\u0301', '😀', 'cancións', 'caféteria', `<!--${'x '.repeat(40)}-->`];
    const longArb = fc
      .array(
        fc.oneof(
          { arbitrary: fc.constantFrom(...VOCABULARY, ...edges), weight: 3 },
          { arbitrary: fc.constantFrom(' ', ' ', ...PIECES), weight: 3 },
          { arbitrary: fc.string({ maxLength: 4 }), weight: 1 },
        ),
        { minLength: 40, maxLength: 200 },
      )
      // Mostly spaced, sometimes glued: whole words must occur for a prefix to decide anything.
      .chain((parts) =>
        fc
          .array(fc.constantFrom(' ', ' ', ''), { minLength: parts.length, maxLength: parts.length })
          .map((gaps) => parts.map((p, i) => p + gaps[i]).join('')),
      );
    const oneWordArb = fc.array(
      fc.oneof(
        fc.record({ words: fc.constantFrom(...VOCABULARY).map((w) => [w]), prefix: fc.boolean() }),
        fc.constantFrom(...VOCABULARY, 'R&D', '(cliff', 'de.').map((literal) => ({ literal })),
      ),
      { minLength: 1, maxLength: 2 },
    );
    fc.assert(
      fc.property(
        longArb,
        oneWordArb,
        fc.record({
          maxCharacters: fc.integer({ min: 1, max: 80 }),
          maxOccurrences: fc.integer({ min: 1, max: 3 }),
        }),
        fc.integer({ min: 1, max: 400 }),
        (stored, terms, options, prefixChars) => {
          const early = fragmentsFromPrefix(stored, terms, options, prefixChars);
          if (early === undefined) return;
          decided++;
          expect(early).toEqual(findFragments(analyseText(stored), terms, options));
        },
      ),
      { numRuns: 3000 },
    );
    // Not a test that passes by deciding nothing.
    expect(decided).toBeGreaterThan(100);
  });

  it('long texts answer through their first pages what the whole text answers', () => {
    // Texts past 8,192 characters are read a prefix first (findFragments): a text of pieces
    // repeated to 9-60 thousand characters, words placed early, late or nowhere.
    const pieceArb = fc.constantFrom(...VOCABULARY, ...PIECES, ' ', ' ', 'cancións', 'e\u0301');
    fc.assert(
      fc.property(
        fc.array(pieceArb, { minLength: 20, maxLength: 80 }),
        fc.integer({ min: 9_000, max: 60_000 }),
        fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 3 }),
        (pieces, length, words, maxOccurrences) => {
          let stored = '';
          while (stored.length < length) stored += `${pieces.join(' ')} `;
          const terms = words.map((w, i) => (i === 1 ? { literal: w } : { words: [fold(w)], prefix: false }));
          const options = { maxCharacters: 240, maxOccurrences };
          expect(findFragments(stored, terms, options)).toEqual(
            findFragments(analyseText(stored), terms, options),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('highlighted output holds no markup but the marks, and gives the excerpt back', () => {
    fc.assert(
      fc.property(anyTextArb, termsArb, (excerpt, terms) => {
        const out = highlight(excerpt, terms);
        const withoutMarks = out.replace(/<\/?mark>/g, '');
        expect(withoutMarks).not.toMatch(/[<>"']/);
        expect(unescapeHtml(withoutMarks)).toBe(excerpt);
        // Marks are balanced and never nested.
        expect(out.replace(/<mark>[^<]*<\/mark>/g, '')).not.toContain('mark>');
      }),
      { numRuns: 500 },
    );
  });

  it('fragment positions point at the matched word in the stored text', () => {
    fc.assert(
      fc.property(storedArb, fc.constantFrom(...VOCABULARY), optionsArb, (stored, word, options) => {
        const found = findFragments(stored, [{ words: [fold(word)], prefix: false }], options);
        expect(found.length).toBeLessThanOrEqual(options.maxOccurrences);
        for (const f of found) {
          expect(fold(stored.slice(f.position))).toMatch(new RegExp(`^${fold(word)}`));
          expect(f.text).toContain('<mark>');
          expect(f.text.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
        }
        const positions = found.map((f) => f.position);
        expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      }),
      { numRuns: 500 },
    );
  });

  it('finds every whole-word occurrence of a vocabulary word, up to maxOccurrences', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...VOCABULARY, ...PIECES.filter((p) => !/[a-z]/i.test(p))), {
          maxLength: 40,
        }),
        fc.constantFrom(...VOCABULARY),
        (parts, word) => {
          // Separated by spaces so every vocabulary word is a whole word.
          const stored = parts.join(' ');
          const expected = parts.filter((p) => fold(p) === fold(word)).length;
          const found = findFragments(stored, [{ words: [word], prefix: false }], {
            maxCharacters: 40,
            maxOccurrences: 10,
          });
          expect(found.length).toBe(Math.min(10, expected));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the plain text of every excerpt is a piece of the plain text of the whole', () => {
    fc.assert(
      fc.property(storedArb, termsArb, optionsArb, (stored, terms, options) => {
        const { plain } = analyseText(stored);
        for (const f of findFragments(stored, terms, options)) {
          const body = unescapeHtml(f.text.replace(/<\/?mark>/g, '')).replace(/^…|…$/g, '');
          expect(plain.text).toContain(body);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(
        anyTextArb,
        termsArb,
        optionsArb,
        fc.nat(300),
        fc.nat(100),
        (stored, terms, options, at, tag) => {
          const a = analyseText(stored);
          findFragments(a, terms, options);
          const tl = buildTimeline(a.tags, a.plain, 100);
          const w = timecodesAt(tl, at);
          expect(w.tcIn).toBeLessThanOrEqual(w.tcOut);
          const span = timecodesOfSpan(tl, Math.min(at, stored.length), stored.length);
          expect(span.tcIn).toBeLessThanOrEqual(span.tcOut);
          speakersIn(a.tags, at, at + 50);
          indexPassage(a.tags, tag, stored.length);
          timecodePassage(tl, tag, tag + 10);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('maps every plain character that is not a space or an entity back to the same stored character', () => {
    fc.assert(
      fc.property(anyTextArb, (stored) => {
        const { plain } = analyseText(stored);
        for (let i = 0; i < plain.text.length; i++) {
          const from = plain.starts[i]!;
          if (plain.text[i] === ' ' || stored[from] === '&') continue;
          expect(stored.slice(from, plain.ends[i]!)).toContain(plain.text[i]!);
        }
      }),
      { numRuns: 300 },
    );
  });
});
