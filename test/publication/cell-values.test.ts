import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../src/publication/services/cell-values.js';

describe('JSON-looking text cells', () => {
  it('parses arrays and objects, including padded ones', () => {
    expect(parseJsonText('["3390","6584"]')).toEqual(['3390', '6584']);
    expect(parseJsonText(' [1, 2] ')).toEqual([1, 2]);
    expect(parseJsonText('[]')).toEqual([]);
    expect(parseJsonText('{}')).toEqual({});
    expect(parseJsonText('{"table":"interview","section_id":1}')).toEqual({
      table: 'interview',
      section_id: 1,
    });
    expect(parseJsonText('[[1],{"a":null}]')).toEqual([[1], { a: null }]);
  });

  it('keeps tagged transcriptions and other text as stored', () => {
    for (const text of [
      '[TC_00:00:01.000_TC] hola',
      '[tc-1-2] x',
      '[index-n-1]a[/index-n-1]',
      'plain',
      '42',
      '{not json}',
      '[1,2',
      '',
    ]) {
      expect(parseJsonText(text)).toBe(text);
    }
    expect(parseJsonText(null)).toBeNull();
    expect(parseJsonText(7)).toBe(7);
  });

  it('agrees with JSON.parse on every serialised array or object', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue())), (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonText(text)).toEqual(JSON.parse(text));
      }),
    );
  });
});
