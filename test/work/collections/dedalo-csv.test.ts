/**
 * Dédalo CSV read for a section: each row becomes the record action and the changes a save would
 * apply, or its refusals with line and column.
 */
import { describe, expect, it } from 'vitest';
import { CollectionFileError } from '../../../src/work/collections/collection-file-error.js';
import { type DedaloCsvRow, readDedaloCsv } from '../../../src/work/collections/read-dedalo-csv.js';
import { collectionOntology } from './helpers/collection-ontology.js';

const ontology = collectionOntology();

async function* once(text: string | Buffer): AsyncGenerator<Buffer> {
  yield Buffer.from(text);
}

async function read(text: string, sectionTipo = 'oh1') {
  const reader = await readDedaloCsv(once(text), { ontology, sectionTipo, lang: 'lg-spa' });
  const rows: DedaloCsvRow[] = [];
  for await (const row of reader.rows) rows.push(row);
  return { header: reader.header, rows };
}

describe('Dédalo CSV', () => {
  it('reads translatable text, plain text, locators with string or number ids, filters, dates, numbers', async () => {
    const file = [
      'section_id;oh14;oh16;oh24;oh22;oh29;oh90001;oh32',
      '7;INT-7;"{""lg-spa"":[""Andorra""],""lg-eng"":[""Andorra""]}";"[{""section_id"":""1"",""section_tipo"":""rsc197""},{""section_id"":2,""section_tipo"":""rsc197""}]";"{""1"":2}";1931-04-14;12.5;"[{""section_id"":""1"",""section_tipo"":""dd64""}]"',
      ';INT-8;Plain title;;"[{""type"":""dd675"",""section_id"":""3"",""section_tipo"":""dd153"",""from_component_tipo"":""oh22""}]";"[{""start"":{""year"":1936,""month"":7},""end"":{""year"":1939}}]";"[3,4]";',
    ].join('\n');
    const { header, rows } = await read(file);
    expect(header.separator).toBe(';');
    expect(header.labelRow).toBe(false);
    expect(header.columns.map((c) => c.problem)).toEqual(Array(8).fill(undefined));
    expect(rows[0]).toMatchObject({ line: 2, action: 'update_or_create', sectionId: 7, refusals: [] });
    const locator = (section_tipo: string, section_id: number, type: string, from: string) => ({
      type,
      section_tipo,
      section_id,
      from_component_tipo: from,
    });
    expect(rows[0]!.changes).toEqual([
      { kind: 'set_data', tipo: 'oh14', column: 'string', lang: 'lg-nolan', value: ['INT-7'] },
      { kind: 'set_data', tipo: 'oh16', column: 'string', lang: 'lg-spa', value: ['Andorra'] },
      { kind: 'set_data', tipo: 'oh16', column: 'string', lang: 'lg-eng', value: ['Andorra'] },
      {
        kind: 'set_data',
        tipo: 'oh24',
        column: 'relation',
        lang: 'lg-nolan',
        value: [locator('rsc197', 1, 'dd151', 'oh24'), locator('rsc197', 2, 'dd151', 'oh24')],
      },
      {
        kind: 'set_data',
        tipo: 'oh22',
        column: 'relation',
        lang: 'lg-nolan',
        value: [locator('dd153', 1, 'dd675', 'oh22')],
      },
      {
        kind: 'set_data',
        tipo: 'oh29',
        column: 'date',
        lang: 'lg-nolan',
        value: [{ start: expect.objectContaining({ year: 1931, month: 4, day: 14 }) }],
      },
      { kind: 'set_data', tipo: 'oh90001', column: 'number', lang: 'lg-nolan', value: [12.5] },
      {
        kind: 'set_data',
        tipo: 'oh32',
        column: 'relation',
        lang: 'lg-nolan',
        value: [locator('dd64', 1, 'dd151', 'oh32')],
      },
    ]);
    // No section_id: a new record; plain text of a translatable column is in the import's language;
    // an empty cell empties the component.
    expect(rows[1]).toMatchObject({ line: 3, action: 'create', refusals: [] });
    expect(rows[1]!.sectionId).toBeUndefined();
    expect(rows[1]!.changes).toContainEqual({
      kind: 'set_data',
      tipo: 'oh16',
      column: 'string',
      lang: 'lg-spa',
      value: ['Plain title'],
    });
    expect(rows[1]!.changes).toContainEqual({ kind: 'clear', tipo: 'oh24', column: 'relation' });
    expect(rows[1]!.changes).toContainEqual({ kind: 'clear', tipo: 'oh32', column: 'relation' });
    expect(rows[1]!.changes).toContainEqual({
      kind: 'set_data',
      tipo: 'oh90001',
      column: 'number',
      lang: 'lg-nolan',
      value: [3, 4],
    });
    const date = rows[1]!.changes.find((c) => c.tipo === 'oh29');
    expect(date).toMatchObject({ value: [{ start: { year: 1936, month: 7 }, end: { year: 1939 } }] });
  });

  it('reads `tipo (label)` headers and skips a label row; `,` files too', async () => {
    const file = 'section_id,oh14 (Code),oh16 (Title)\nsection_id,Code,Título\n1,A-1,Uno\n';
    const { header, rows } = await read(file);
    expect(header.separator).toBe(',');
    expect(header.labelRow).toBe(true);
    expect(header.columns.map((c) => c.tipo)).toEqual([undefined, 'oh14', 'oh16']);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ line: 3, sectionId: 1 });
  });

  it('keeps components of models not implemented here, and media items, as stored items', async () => {
    const file = [
      'section_id;oh90003;oh90004;oh90002',
      '1;"{""lg-nolan"":[{""lat"":42.5,""lon"":1.52,""zoom"":12}]}";"[{""id"":1,""lang"":""lg-nolan"",""files_info"":[]}]";"{""a"":[1,2]}"',
    ].join('\n');
    const { rows } = await read(file);
    expect(rows[0]!.refusals).toEqual([]);
    expect(rows[0]!.changes).toEqual([
      {
        kind: 'stored',
        tipo: 'oh90003',
        column: 'misc',
        items: [{ id: 1, lang: 'lg-nolan', value: { lat: 42.5, lon: 1.52, zoom: 12 } }],
      },
      {
        kind: 'stored',
        tipo: 'oh90004',
        column: 'media',
        items: [{ id: 1, lang: 'lg-nolan', files_info: [] }],
      },
      { kind: 'set_data', tipo: 'oh90002', column: 'misc', lang: 'lg-nolan', value: [{ a: [1, 2] }] },
    ]);
  });

  it('refuses, with line and column, every problem of a row; the other rows are read', async () => {
    const file = [
      'section_id;oh14;oh16;oh29;oh24;oh90001;oh90005;zz1;rsc85;oh32;Notes;rsc9001',
      'x;ok;;;;;;;;;;',
      '2;ok;"{""lg-xxx"":[""a""]}";1931-02-30;"[{""section_id"":1,""section_tipo"":""dd153""}]";1.234,5;not-an-email;;;;;',
      '3;"{""lg-spa"":[""a""]}";;;;;;something;Ana;"[{""section_id"":1,""section_tipo"":""dd64""},{""section_id"":2,""section_tipo"":""dd64""}]";ignored?;Ana Díaz',
      `4;${'x'.repeat(10_001)};;;;;;;;;;`,
      '5;fine;;;;;;;;;;',
    ].join('\n');
    const { header, rows } = await read(file);
    expect(header.columns.find((c) => c.tipo === 'zz1')?.problem?.reason).toBe('unknown_tipo');
    expect(header.columns.find((c) => c.tipo === 'rsc85')?.problem?.reason).toBe('not_in_section');
    expect(header.columns.find((c) => c.header === 'Notes')).toEqual({
      index: 11,
      header: 'Notes',
      role: 'ignored',
    });
    expect(header.columns.find((c) => c.tipo === 'rsc9001')?.problem?.reason).toBe('not_in_section');
    const reasons = (row: DedaloCsvRow) => row.refusals.map((r) => [r.line, r.column, r.reason]);
    expect(reasons(rows[0]!)).toEqual([[2, 1, 'section_id']]);
    expect(reasons(rows[1]!)).toEqual([
      [3, 3, 'language'],
      [3, 4, 'invalid_date'],
      [3, 5, 'locator_target'],
      [3, 6, 'format'],
      [3, 7, 'invalid_value'],
    ]);
    expect(rows[1]!.refusals[1]!.message).toMatch(/day 30 does not exist in 1931-02/);
    expect(rows[1]!.changes).toEqual([]);
    expect(reasons(rows[2]!)).toEqual([
      [4, 2, 'language'],
      [4, 8, 'unknown_tipo'],
      [4, 9, 'not_in_section'],
      [4, 10, 'invalid_value'],
      [4, 12, 'not_in_section'],
    ]);
    expect(reasons(rows[3]!)).toEqual([[5, 2, 'invalid_value']]);
    expect(rows[3]!.refusals[0]!.message).toMatch(/longer than 10000 characters/);
    expect(rows[4]).toMatchObject({ line: 6, sectionId: 5, refusals: [] });
  });

  it('refuses a row of another section, and more cells than the header', async () => {
    const { rows } = await read('section_id;section_tipo;oh14\n1;rsc197;a\n2;oh1;b;extra\n3;oh1;c\n');
    expect(rows[0]!.refusals.map((r) => r.reason)).toEqual(['section_tipo']);
    expect(rows[1]!.refusals.map((r) => [r.column, r.reason])).toEqual([[0, 'format']]);
    expect(rows[2]!.refusals).toEqual([]);
  });

  it('refuses files that cannot be read at all', async () => {
    const fails = async (text: string, section = 'oh1') => {
      try {
        await read(text, section);
      } catch (e) {
        if (e instanceof CollectionFileError) return e.message;
        throw e;
      }
      return 'read';
    };
    expect(await fails('')).toBe('line 1: the file is empty: no header row');
    expect(await fails('section_id;oh14;oh14\n')).toBe(
      'line 1, column 3: oh14 is the header of columns 2 and 3',
    );
    expect(await fails('section_id\n1\n', 'oh14')).toBe('oh14 is not a section of the ontology');
  });

  it('reads the thesaurus virtual section with its real section components', async () => {
    const { rows } = await read(
      'section_id;hierarchy25;hierarchy36\n2;"{""lg-cat"":[""Canillo""]}";"[{""section_id"":""1"",""section_tipo"":""ts1""}]"\n',
      'ad1',
    );
    expect(rows[0]!.refusals).toEqual([]);
    expect(rows[0]!.changes.map((c) => c.tipo)).toEqual(['hierarchy25', 'hierarchy36']);
  });
});
