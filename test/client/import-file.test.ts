/**
 * What the Import page reads of a file before sending it (client/src/app/import-file.ts): the
 * kind and the columns from the first line, as the server's readers would take them.
 */
import { describe, expect, it } from 'vitest';
import { detectFile, looseText, splitCsvLine, tipoOfHeader } from '../../client/src/app/import-file.js';

describe('the Import page reading a file’s first line', () => {
  it('tells a Dédalo CSV (section_id and tipos) from a spreadsheet and from COPY text', () => {
    expect(detectFile('section_id;oh14;oh16 (Title)\n1;OH-1;x\n')).toEqual({
      kind: 'dedalo_csv',
      columns: ['section_id', 'oh14', 'oh16 (Title)'],
    });
    expect(detectFile('\uFEFFsection_id,section_tipo,oh14\r\n')).toMatchObject({ kind: 'dedalo_csv' });
    expect(detectFile('Code,Title,Date\nOH-1,"A, B",1990\n')).toEqual({
      kind: 'mapped_csv',
      columns: ['Code', 'Title', 'Date'],
    });
    // section_id alone with names that are not tipos is a spreadsheet with an id column.
    expect(detectFile('section_id;Title\n')).toMatchObject({ kind: 'mapped_csv' });
    expect(detectFile('1\tad1\t{"components":{}}\n')).toEqual({ kind: 'matrix_copy', columns: [] });
  });

  it('reads quoted header cells as RFC 4180 says, with the separator used more', () => {
    expect(detectFile('"Name; full";"Say ""hi""";Place\n').columns).toEqual([
      'Name; full',
      'Say "hi"',
      'Place',
    ]);
    expect(detectFile('"Line\nbreak",b\nx,y').columns).toEqual(['Line\nbreak', 'b']);
    expect(splitCsvLine('a,,b', ',')).toEqual(['a', '', 'b']);
  });

  it('compares labels loosely and takes the tipo of a labelled header', () => {
    expect(looseText('  Título  de la Entrevista')).toBe(looseText('titulo de la entrevista'));
    expect(tipoOfHeader('oh16 (Title)')).toBe('oh16');
    expect(tipoOfHeader('oh16')).toBe('oh16');
  });
});
