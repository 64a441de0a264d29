/**
 * The streamed CSV reader: what a user's file becomes (rows of text with their line), and the
 * precise refusals of hostile files.
 */
import { describe, expect, it } from 'vitest';
import { CollectionFileError } from '../../../src/work/collections/collection-file-error.js';
import { type CsvOptions, openCsv } from '../../../src/work/collections/csv-rows.js';

async function* chunksOf(data: Buffer | string, size = 7): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(data);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readAll(data: Buffer | string, options?: CsvOptions, size?: number) {
  const { separator, rows } = await openCsv(chunksOf(data, size), options);
  const out: { line: number; cells: string[] }[] = [];
  for await (const row of rows) out.push(row);
  return { separator, rows: out };
}

async function refusal(data: Buffer | string, options?: CsvOptions): Promise<CollectionFileError> {
  try {
    await readAll(data, options);
  } catch (e) {
    if (e instanceof CollectionFileError) return e;
    throw e;
  }
  throw new Error('the file was read');
}

describe('CSV rows', () => {
  it('reads `;` files with a BOM and CRLF, quoted cells with separators, quotes and line breaks', async () => {
    const file =
      '\uFEFFsection_id;oh16\r\n1;"Andorra; la Vella"\r\n2;"She said ""hello""\r\non two lines"\r\n3;Écija\r\n';
    const { separator, rows } = await readAll(file, undefined, 3);
    expect(separator).toBe(';');
    expect(rows).toEqual([
      { line: 1, cells: ['section_id', 'oh16'] },
      { line: 2, cells: ['1', 'Andorra; la Vella'] },
      { line: 3, cells: ['2', 'She said "hello"\r\non two lines'] },
      { line: 5, cells: ['3', 'Écija'] },
    ]);
  });

  it('detects `,` from the header row and reads LF files without BOM; empty lines are skipped', async () => {
    const { separator, rows } = await readAll(
      'name,"place; region",year\nAna,"Sevilla; Andalucía",1931\n\nLuis,Cádiz,\n',
    );
    expect(separator).toBe(',');
    expect(rows.map((r) => r.cells)).toEqual([
      ['name', 'place; region', 'year'],
      ['Ana', 'Sevilla; Andalucía', '1931'],
      ['Luis', 'Cádiz', ''],
    ]);
    expect(rows[2]!.line).toBe(4);
  });

  it('keeps formula-like cells as the text they are', async () => {
    const { rows } = await readAll('a;b;c;d\n=1+1;+34 600;-2;@SUM(A1)\n');
    expect(rows[1]!.cells).toEqual(['=1+1', '+34 600', '-2', '@SUM(A1)']);
  });

  it('keeps multi-byte characters split across chunks', async () => {
    const text = 'oh16\nłódź 𝄞 ñandú\n';
    for (const size of [1, 2, 3, 5]) {
      const { rows } = await readAll(text, undefined, size);
      expect(rows[1]!.cells).toEqual(['łódź 𝄞 ñandú']);
    }
  });

  it('refuses invalid UTF-8 with its byte offset and line', async () => {
    const bytes = Buffer.concat([
      Buffer.from('a;b\nok;ok\nbad;caf'),
      Buffer.from([0xe9]),
      Buffer.from(';x\n'),
    ]);
    const e = await refusal(bytes);
    expect(e.kind).toBe('encoding');
    expect(e.byteOffset).toBe(17);
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/line 3, byte 17: the file is not valid UTF-8 \(byte 0xe9\)/);
  });

  it('refuses a file that ends inside a character, and overlong or surrogate encodings', async () => {
    expect((await refusal(Buffer.from([0x61, 0x0a, 0xe2, 0x82]))).message).toMatch(/ends inside a UTF-8/);
    expect((await refusal(Buffer.from([0x61, 0x0a, 0xc0, 0xaf]))).byteOffset).toBe(2);
    expect((await refusal(Buffer.from([0x61, 0x0a, 0xed, 0xa0, 0x80]))).byteOffset).toBe(2);
  });

  it('refuses broken quoting with the line', async () => {
    const e = await refusal('a;b\n1;"unclosed\n2;x\n');
    expect(e.kind).toBe('syntax');
    expect(e.message).toMatch(/malformed/);
    const stray = await refusal('a;b\n1;x"y"z\n');
    expect(stray.kind).toBe('syntax');
    expect(stray.line).toBe(2);
  });

  it('refuses a header of a million columns before reading it all', async () => {
    const e = await refusal(`${'c;'.repeat(1_000_000)}c\n1\n`);
    expect(e.kind).toBe('limit');
    expect(e.message).toBe('line 1: the header row has more than 2000 columns');
  });

  it('refuses a data row with too many columns, a cell too long and a row too long', async () => {
    const wide = await refusal(`a;b\n${'x;'.repeat(30)}\n`, { limits: { maxColumns: 10 } });
    expect(wide.message).toBe('line 2: the row has more than 10 columns');
    const cell = await refusal(`a;b\n1;${'y'.repeat(200)}\n`, { limits: { maxCellChars: 100 } });
    expect(cell.message).toBe('line 2, column 2: the cell is longer than 100 characters');
    const row = await refusal(`a;b\n1;"${'z'.repeat(5000)}\n`, { limits: { maxRowChars: 1000 } });
    expect(row.kind).toBe('limit');
    expect(row.message).toMatch(/longer than 1000 characters/);
  });

  it('streams 100,000 rows one at a time', async () => {
    async function* generated(): AsyncGenerator<string> {
      yield 'section_id;oh16\n';
      for (let i = 1; i <= 100_000; i++) yield `${i};"Interview ${i}"\n`;
    }
    const { rows } = await openCsv(generated());
    let count = 0;
    let last: string[] = [];
    for await (const row of rows) {
      count++;
      last = row.cells;
    }
    expect(count).toBe(100_001);
    expect(last).toEqual(['100000', 'Interview 100000']);
  });
});
