/**
 * The Dédalo CSV rules both the reader and the writer use: what a cell looks like per kind (the
 * writer's output, pinned here so both sides agree), header cells, separator, label row.
 */
import { describe, expect, it } from 'vitest';
import {
  CellFormatError,
  decodeCell,
  detectSeparator,
  encodeCell,
  headerCell,
  isLabelRow,
  looksLikeFormula,
  parseHeaderCell,
} from '../../../src/work/collections/dedalo-csv-format.js';

describe('Dédalo CSV format', () => {
  it('writes cells the way Dédalo does', () => {
    expect(encodeCell('text', [{ id: 1, lang: 'lg-nolan', value: 'INT-1' }])).toBe('INT-1');
    expect(
      encodeCell('text', [
        { id: 1, lang: 'lg-spa', value: 'Andorra' },
        { id: 1, lang: 'lg-eng', value: 'Andorra' },
      ]),
    ).toBe('{"lg-spa":["Andorra"],"lg-eng":["Andorra"]}');
    // Text that would read as JSON, or as empty, is written as JSON.
    expect(encodeCell('text', [{ id: 1, lang: 'lg-nolan', value: '[sic]' }])).toBe('{"lg-nolan":["[sic]"]}');
    expect(encodeCell('text', [{ id: 1, lang: 'lg-nolan', value: ' ' }])).toBe('{"lg-nolan":[" "]}');
    expect(encodeCell('number', [{ id: 1, lang: 'lg-nolan', value: 12.5 }])).toBe('12.5');
    expect(
      encodeCell('number', [
        { id: 1, lang: 'lg-nolan', value: 1 },
        { id: 2, lang: 'lg-nolan', value: 2 },
      ]),
    ).toBe('[1,2]');
    expect(
      encodeCell('date', [{ id: 1, lang: 'lg-nolan', start: { year: 1931, month: 4, day: 14, time: 1 } }]),
    ).toBe('1931-04-14');
    expect(
      encodeCell('date', [
        { id: 1, lang: 'lg-nolan', start: { year: 1936, time: 1 }, end: { year: 1939, time: 2 } },
      ]),
    ).toBe('[{"start":{"year":1936},"end":{"year":1939}}]');
    expect(
      encodeCell('relation', [
        { id: 3, type: 'dd151', section_tipo: 'dd64', section_id: 1, from_component_tipo: 'oh32' },
      ]),
    ).toBe('[{"type":"dd151","section_id":"1","section_tipo":"dd64","from_component_tipo":"oh32"}]');
    expect(encodeCell('security_access', [{ tipo: 'oh1', section_tipo: 'oh1', value: 2 }])).toBe(
      '[{"tipo":"oh1","section_tipo":"oh1","value":2}]',
    );
    expect(encodeCell('json', [{ id: 1, lang: 'lg-nolan', value: { a: 1 } }])).toBe('{"lg-nolan":[{"a":1}]}');
    expect(encodeCell('stored', [{ id: 1, lang: 'lg-nolan', value: { lat: 1 } }])).toBe(
      '[{"id":1,"lang":"lg-nolan","value":{"lat":1}}]',
    );
    expect(encodeCell('password', [{ id: 1, lang: 'lg-nolan', value: 'hash' }])).toBe('');
    expect(encodeCell('text', [])).toBe('');
  });

  it('reads plain and JSON cells per kind', () => {
    const values = (cell: ReturnType<typeof decodeCell>) => (cell.empty ? 'empty' : [...cell.byLang]);
    expect(values(decodeCell('text', '  '))).toBe('empty');
    expect(values(decodeCell('text', '[sic] a note'))).toEqual([[null, ['[sic] a note']]]);
    expect(values(decodeCell('text', '=1+1'))).toEqual([[null, ['=1+1']]]);
    expect(values(decodeCell('number', ' -3.5 '))).toEqual([[null, [-3.5]]]);
    expect(values(decodeCell('date', '-500'))).toEqual([[null, [{ start: { year: -500 } }]]]);
    expect(values(decodeCell('relation', '{"section_id":2,"section_tipo":"dd64"}'))).toEqual([
      [null, [{ section_id: 2, section_tipo: 'dd64' }]],
    ]);
    expect(values(decodeCell('relation', '{"1":2,"4":2}', { filterSection: 'dd153' }))).toEqual([
      [
        null,
        [
          { section_tipo: 'dd153', section_id: '1' },
          { section_tipo: 'dd153', section_id: '4' },
        ],
      ],
    ]);
    expect(() => decodeCell('relation', '{"1":2}')).toThrow(CellFormatError);
    expect(() => decodeCell('number', '1.234,5')).toThrow(/is not a number/);
    expect(() => decodeCell('date', '14/04/1931')).toThrow(/is not a date/);
    expect(() => decodeCell('relation', '[{"section_id":')).toThrow(/not valid JSON/);
  });

  it('parses header cells and writes them back', () => {
    expect(parseHeaderCell(' section_id ')).toEqual({ kind: 'section_id' });
    expect(parseHeaderCell('oh14')).toEqual({ kind: 'component', tipo: 'oh14' });
    expect(parseHeaderCell('oh14 (Code (old))')).toEqual({
      kind: 'component',
      tipo: 'oh14',
      label: 'Code (old)',
    });
    expect(parseHeaderCell('created_date')).toEqual({ kind: 'other', name: 'created_date' });
    expect(parseHeaderCell(headerCell('oh16', 'Title'))).toEqual({
      kind: 'component',
      tipo: 'oh16',
      label: 'Title',
    });
  });

  it('detects the separator outside quotes, and the label row', () => {
    expect(detectSeparator('section_id;"a,b,c";oh1\n1,2,3,4,5')).toBe(';');
    expect(detectSeparator('\uFEFFName,"x;y",Year')).toBe(',');
    expect(detectSeparator('section_id')).toBe(';');
    const columns = [parseHeaderCell('section_id'), parseHeaderCell('oh14'), parseHeaderCell('oh16 (Title)')];
    const labels = (tipo: string) => (tipo === 'oh14' ? ['Código', 'Code'] : ['Título']);
    expect(isLabelRow(['', 'Code', 'Title'], columns, labels)).toBe(true);
    expect(isLabelRow(['1', 'Code', 'Title'], columns, labels)).toBe(false);
    expect(isLabelRow(['', 'Code', 'Another'], columns, labels)).toBe(false);
    expect(looksLikeFormula('@SUM(A1)')).toBe(true);
  });
});
