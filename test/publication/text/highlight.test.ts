import { describe, expect, it } from 'vitest';
import { escapeHtml, highlight } from '../../../src/publication/text/highlight.js';
import { findMatches } from '../../../src/publication/text/term-matching.js';

const word = (w: string, prefix = false) => ({ words: [w], prefix });
const phrase = (...words: string[]) => ({ words, prefix: false });

describe('highlighting', () => {
  it('matches without regard to case or accents, marking the original spelling', () => {
    expect(highlight('Una Canción de cuna', [word('cancion')])).toBe('Una <mark>Canción</mark> de cuna');
    expect(highlight('la cancion vieja', [word('CANCIÓN')])).toBe('la <mark>cancion</mark> vieja');
    expect(highlight('Àvia i avi', [word('avia')])).toBe('<mark>Àvia</mark> i avi');
  });

  it('covers decomposed accents (base letter plus combining mark) inside the mark', () => {
    const decomposed = 'cafe\u0301 solo';
    expect(highlight(decomposed, [word('café')])).toBe('<mark>cafe\u0301</mark> solo');
  });

  it('matches whole words only, unless the term is a prefix', () => {
    expect(highlight('casa casas encasa', [word('casa')])).toBe('<mark>casa</mark> casas encasa');
    expect(highlight('casa casas encasa', [word('cas', true)])).toBe(
      '<mark>casa</mark> <mark>casas</mark> encasa',
    );
  });

  it('matches phrases word by word across punctuation, but not out of order', () => {
    expect(highlight('Mi abuela, decía que no', [phrase('abuela', 'decia')])).toBe(
      'Mi <mark>abuela, decía</mark> que no',
    );
    expect(highlight('decía abuela', [phrase('abuela', 'decia')])).toBe('decía abuela');
  });

  it('marks every term and merges overlapping matches', () => {
    expect(highlight('el tren llegó', [word('tren'), phrase('el', 'tren'), word('llego')])).toBe(
      '<mark>el tren</mark> <mark>llegó</mark>',
    );
  });

  it('escapes stored markup and entities before marking', () => {
    const out = highlight('<script>alert("x")</script> & R&D', [word('script'), word('r')]);
    expect(out).toBe(
      '&lt;<mark>script</mark>&gt;alert(&quot;x&quot;)&lt;/<mark>script</mark>&gt; &amp; <mark>R</mark>&amp;D',
    );
    expect(highlight('a<b', [phrase('a', 'b')])).toBe('<mark>a&lt;b</mark>');
    expect(escapeHtml(`'"<>&`)).toBe('&#39;&quot;&lt;&gt;&amp;');
  });

  it('reports match offsets in the original string', () => {
    const text = 'Ñandú y ÑANDÚ';
    expect(findMatches(text, [word('nandu')])).toEqual([
      { start: 0, end: 5 },
      { start: 8, end: 13 },
    ]);
  });

  it('finds nothing for terms without word characters', () => {
    expect(highlight('a - b', [word('-')])).toBe('a - b');
  });
});
