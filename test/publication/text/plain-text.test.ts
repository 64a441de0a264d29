import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTags } from '../../../src/common/text/tag-grammar.js';
import { ENTITIES, plainIndexAt, plainSlice, toPlainText } from '../../../src/publication/text/plain-text.js';

/**
 * The plain text one character at a time, as the module's contract says: tags out (bracket tags
 * and block HTML owe a space), the basic entities decoded, whitespace collapsed (a space is
 * written only before a visible character and never first), each unit mapped to its source.
 * toPlainText copies runs of ordinary characters at once; it must give exactly this.
 */
function plainOneByOne(stored: string): { text: string; starts: number[]; ends: number[] } {
  const tags = parseTags(stored);
  const out = { text: '', starts: [] as number[], ends: [] as number[] };
  const push = (unit: string, start: number, end: number) => {
    out.text += unit;
    out.starts.push(start);
    out.ends.push(end);
  };
  let pending = -1;
  let t = 0;
  let i = 0;
  while (i < stored.length) {
    const tag = tags[t];
    if (tag && tag.start === i) {
      t++;
      if ((tag.kind !== 'html' || tag.block) && pending < 0) pending = i;
      i = tag.end;
      continue;
    }
    const entity = Object.keys(ENTITIES).find((e) => stored.startsWith(e, i));
    const unit = entity ? ENTITIES[entity]! : stored[i]!;
    const end = entity ? i + entity.length : i + 1;
    if (/\s/.test(unit)) {
      if (pending < 0) pending = i;
      i = end;
      continue;
    }
    if (pending >= 0 && out.text.length > 0) push(' ', pending, pending + 1);
    pending = -1;
    const code = unit.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < stored.length) {
      push(unit, i, i + 2);
      push(stored[i + 1]!, i, i + 2);
      i += 2;
      continue;
    }
    push(unit, i, end);
    i = end;
  }
  return out;
}

describe('plain text with a position map', () => {
  it('property: the same text and map as reading one character at a time', () => {
    const piece = fc.constantFrom(
      'palabra',
      'Canción',
      'ĳ',
      ' ',
      '  ',
      '\t',
      '\n',
      '\u00a0',
      '\u2003',
      '&amp;',
      '&nbsp;',
      '&copy;',
      '&',
      '<p>',
      '</p>',
      '<em>',
      '</em>',
      '<br>',
      '[TC_00:00:01.000_TC]',
      '[index-n-1]',
      '[/index-n-1]',
      '[page-n-2]',
      'a<b',
      '😀',
      '\ud800',
      '\u0085',
      '\u007f',
      'Ω',
      'ж',
      '’',
      '.',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const stored = pieces.join('');
        const plain = toPlainText(stored);
        const want = plainOneByOne(stored);
        expect(plain.text).toBe(want.text);
        expect([...plain.starts]).toEqual(want.starts);
        expect([...plain.ends]).toEqual(want.ends);
      }),
      { numRuns: 500 },
    );
  });

  it('removes tags and inline HTML and maps every character back to the stored text', () => {
    const stored = '[TC_00:00:01_TC]<p>[person-n-1-A-data:{}:data] Hola <strong>mundo</strong>.</p>';
    const plain = toPlainText(stored);
    expect(plain.text).toBe('Hola mundo.');
    for (let i = 0; i < plain.text.length; i++) {
      if (plain.text[i] === ' ') continue;
      expect(stored[plain.starts[i]!]).toBe(plain.text[i]);
    }
  });

  it('turns bracket tags and block HTML into one space, never gluing words nor doubling spaces', () => {
    expect(toPlainText('uno[index-n-1]dos').text).toBe('uno dos');
    expect(toPlainText('uno</p><p>dos').text).toBe('uno dos');
    expect(toPlainText('uno<br>dos').text).toBe('uno dos');
    expect(toPlainText('uno <br> [index-n-1] dos').text).toBe('uno dos');
    expect(toPlainText('pa<em>la</em>bra').text).toBe('palabra');
    expect(toPlainText('<p> [tc-1-2] hola </p>').text).toBe('hola');
    expect(toPlainText('a\n\n\tb').text).toBe('a b');
  });

  it('decodes the basic entities and maps them to the entity in the stored text', () => {
    const stored = 'R&amp;D &lt;b&gt; &quot;x&quot; l&#39;escola a&nbsp;b &copy;';
    const plain = toPlainText(stored);
    expect(plain.text).toBe('R&D <b> "x" l\'escola a b &copy;');
    const amp = plain.text.indexOf('&');
    expect(plain.starts[amp]).toBe(1);
    expect(plain.ends[amp]).toBe(6);
  });

  it('keeps a raw & and a lone < as text', () => {
    expect(toPlainText('Pérez & Hijos, a<b').text).toBe('Pérez & Hijos, a<b');
  });

  it('converts stored offsets back to plain indices and slices stored spans', () => {
    const stored = '<p>uno [index-n-1]dos tres[/index-n-1] cuatro</p>';
    const plain = toPlainText(stored);
    const dos = stored.indexOf('dos');
    expect(plain.text[plainIndexAt(plain, dos)]).toBe('d');
    expect(plainSlice(plain, stored.indexOf(']') + 1, stored.indexOf('[/index'))).toBe('dos tres');
  });

  it('keeps surrogate pairs whole', () => {
    const plain = toPlainText('a 😀 b');
    expect(plain.text).toBe('a 😀 b');
    expect(plain.starts[2]).toBe(2);
    expect(plain.starts[3]).toBe(2);
    expect(plain.ends[3]).toBe(4);
  });
});
