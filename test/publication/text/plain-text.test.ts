import { describe, expect, it } from 'vitest';
import { plainIndexAt, plainSlice, toPlainText } from '../../../src/publication/text/plain-text.js';

describe('plain text with a position map', () => {
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
