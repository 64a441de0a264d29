import { describe, expect, it } from 'vitest';
import { excerptWindow, findFragments } from '../../../src/publication/text/fragments.js';

const word = (w: string) => ({ words: [w], prefix: false });
const opts = (maxCharacters = 320, maxOccurrences = 1) => ({ maxCharacters, maxOccurrences });
const unmark = (html: string) => html.replace(/<\/?mark>/g, '');

describe('text fragments', () => {
  const stored =
    '[page-n-4]<p>Primera frase sin nada.</p>[page-n-5-label-data:v:data]<p>La <em>canción</em> de la fábrica. ' +
    'Otra canción más, y otra CANCION.</p>';

  it('reports the match position in the stored text and the page of the last marker before it', () => {
    const [f] = findFragments(stored, [word('cancion')], opts());
    expect(f!.position).toBe(stored.indexOf('canción'));
    expect(f!.page).toBe(5);
    expect(f!.text).toContain('<mark>canción</mark>');
  });

  it('has no page when no page marker precedes the match', () => {
    const [f] = findFragments('<p>sin páginas aquí</p>[page-n-2] luego', [word('paginas')], opts());
    expect(f).toBeDefined();
    expect(f).not.toHaveProperty('page');
  });

  it('gives up to maxOccurrences fragments per term, in text order, each highlighted with every term', () => {
    const found = findFragments(stored, [word('cancion'), word('frase')], opts(30, 2));
    expect(found.map((f) => f.position)).toEqual([
      stored.indexOf('frase'),
      stored.indexOf('canción'),
      stored.indexOf('canción', stored.indexOf('canción') + 1),
    ]);
    expect(found[2]!.text).toMatch(/<mark>canción<\/mark>/);
  });

  it('cuts excerpts at word boundaries around the match, with an ellipsis where cut', () => {
    const [f] = findFragments(stored, [word('fabrica')], opts(20));
    const plain = unmark(f!.text);
    expect(plain.startsWith('…')).toBe(true);
    expect(plain.endsWith('…')).toBe(true);
    const body = plain.slice(1, -1);
    expect(body.length).toBeLessThanOrEqual(20);
    expect(`${body} `).toMatch(/^\S+( \S+)* $/);
    expect(body).toContain('fábrica.');
    expect(f!.text).toContain('<mark>fábrica</mark>');
  });

  it('never cuts the match itself, even when it is longer than maxCharacters', () => {
    const [f] = findFragments('xx extraordinariamente yy', [word('extraordinariamente')], opts(10));
    expect(f!.text).toBe('…<mark>extraordinariamente</mark>…');
  });

  it('shows the whole text without ellipses when it fits', () => {
    const [f] = findFragments('<p>Hola mundo</p>', [word('mundo')], opts());
    expect(f!.text).toBe('Hola <mark>mundo</mark>');
  });

  it('escapes stored markup in excerpts', () => {
    const [f] = findFragments(
      'Pérez &amp; Hijos &lt;script&gt;alert(1)&lt;/script&gt; R&D',
      [word('hijos')],
      opts(),
    );
    expect(f!.text).toBe('Pérez &amp; <mark>Hijos</mark> &lt;script&gt;alert(1)&lt;/script&gt; R&amp;D');
  });

  it('gives the excerpt and the match as stored spans', () => {
    const [f] = findFragments(stored, [word('fabrica')], opts(20));
    expect(stored.slice(f!.match.start, f!.match.end)).toBe('fábrica');
    expect(f!.passage.start).toBeLessThan(f!.match.start);
    expect(f!.passage.end).toBeGreaterThan(f!.match.end);
  });

  it('does not repeat a match that two terms share', () => {
    const found = findFragments('la casa azul', [word('casa'), { words: ['cas'], prefix: true }], opts());
    expect(found).toHaveLength(1);
  });
});

describe('pages of fragments with several terms', () => {
  // Two page markers (one with a printed label), three terms, each found on several pages.
  const stored =
    '<p>Río antes (río) y mar.</p>[page-n-7]<p>El mar, el río. Otra vez el mar.</p>' +
    '[page-n-8-label-data:viii:data]<p>Barco en el mar. Río abajo, barco.</p><p>Fin del barco.</p>';
  const terms = [{ literal: 'mar' }, { literal: 'río' }, { literal: 'barco' }];
  const expectedPage = (position: number) => {
    if (position > stored.indexOf('[page-n-8')) return 8;
    if (position > stored.indexOf('[page-n-7')) return 7;
    return undefined;
  };

  it('gives every fragment the page of the last marker before it, and none before the first marker', () => {
    const found = findFragments(stored, terms, opts(12, 10));
    // Every occurrence of every term, each its own fragment, in text order.
    const occurrences = [...stored.matchAll(/(?<!\p{L})(mar|río|barco)(?!\p{L})/giu)].map((m) => m.index);
    expect(found.map((f) => f.position)).toEqual(occurrences);
    expect(found.length).toBe(11);
    for (const f of found) {
      const page = expectedPage(f.position);
      if (page === undefined) expect(f).not.toHaveProperty('page');
      else expect(f.page, `fragment at ${f.position}`).toBe(page);
    }
    expect(new Set(found.map((f) => f.page))).toEqual(new Set([undefined, 7, 8]));
  });

  it('keeps the page of each fragment whichever term comes first in the request', () => {
    const forward = findFragments(stored, terms, opts(40, 10));
    const backward = findFragments(stored, [...terms].reverse(), opts(40, 10));
    const pages = (fs: typeof forward) => fs.map((f) => [f.position, f.page]);
    expect(pages(backward)).toEqual(pages(forward));
  });
});

describe('excerpt windows', () => {
  it('centres the window on the match and shifts it at the ends of the text', () => {
    const text = 'aa bb cc dd ee ff gg hh';
    expect(excerptWindow(text, 0, 2, 8)).toEqual({ start: 0, end: 8 });
    const w = excerptWindow(text, 21, 23, 8);
    expect(w.end).toBe(23);
    expect(text.slice(w.start, w.end)).toBe('ff gg hh');
  });
});
