/**
 * Spreadsheet CSV with a mapping file: columns chosen by name, languages per column, relations
 * matched by key (a request for the write path) or by id, and the mapping's precise errors.
 */
import { describe, expect, it } from 'vitest';
import { CollectionFileError } from '../../../src/work/collections/collection-file-error.js';
import { parseMapping } from '../../../src/work/collections/column-mapping.js';
import { type MappedCsvRow, readMappedCsv } from '../../../src/work/collections/read-mapped-csv.js';
import { collectionOntology } from './helpers/collection-ontology.js';

const ontology = collectionOntology();

async function* once(text: string): AsyncGenerator<Buffer> {
  yield Buffer.from(text);
}

async function read(text: string, mapping: unknown) {
  const reader = await readMappedCsv(once(text), { ontology, mapping: parseMapping(mapping) });
  const rows: MappedCsvRow[] = [];
  for await (const row of reader.rows) rows.push(row);
  return { mapping: reader.mapping, rows };
}

const MAPPING = {
  section_tipo: 'oh1',
  lang: 'lg-spa',
  id_column: 'Id',
  columns: {
    Code: 'oh14',
    Título: { tipo: 'oh16' },
    Title: { tipo: 'oh16', lang: 'lg-eng' },
    Informants: { tipo: 'oh24', separator: '|', match: { by: 'key', component: 'rsc85' } },
    Date: 'oh29',
    Minutes: 'oh90001',
    Projects: { tipo: 'oh22', separator: ',', match: { by: 'id' } },
  },
};

describe('spreadsheet CSV with a mapping', () => {
  it('reads each mapped column into set_data per language, and key matches as requests', async () => {
    const file = [
      '\uFEFFId;Code;Título;Title;Informants;Date;Minutes;Projects;Comment',
      '12;INT-1;Uno;One;Ana Díaz | Luis;1931-04-14;12.5;1, 2;not imported',
      ';INT-2;Dos;;;1936;;;',
    ].join('\r\n');
    const { mapping, rows } = await read(file, MAPPING);
    expect(mapping.ignored).toEqual(['Comment']);
    expect(rows[0]).toMatchObject({ line: 2, action: 'update_or_create', sectionId: 12, refusals: [] });
    expect(rows[0]!.changes).toEqual([
      { kind: 'set_data', tipo: 'oh14', column: 'string', lang: 'lg-nolan', value: ['INT-1'] },
      { kind: 'set_data', tipo: 'oh16', column: 'string', lang: 'lg-spa', value: ['Uno'] },
      { kind: 'set_data', tipo: 'oh16', column: 'string', lang: 'lg-eng', value: ['One'] },
      {
        kind: 'match_by_key',
        tipo: 'oh24',
        column: 'relation',
        section_tipo: 'rsc197',
        key_tipo: 'rsc85',
        texts: ['Ana Díaz', 'Luis'],
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
        tipo: 'oh22',
        column: 'relation',
        lang: 'lg-nolan',
        value: [
          { type: 'dd675', section_tipo: 'dd153', section_id: 1, from_component_tipo: 'oh22' },
          { type: 'dd675', section_tipo: 'dd153', section_id: 2, from_component_tipo: 'oh22' },
        ],
      },
    ]);
    expect(rows[1]).toMatchObject({ line: 3, action: 'create', refusals: [] });
    // Empty cells empty the component in the column's language.
    expect(rows[1]!.changes).toContainEqual({
      kind: 'set_data',
      tipo: 'oh16',
      column: 'string',
      lang: 'lg-eng',
      value: [],
    });
    expect(rows[1]!.changes).toContainEqual({
      kind: 'set_data',
      tipo: 'oh24',
      column: 'relation',
      lang: 'lg-nolan',
      value: [],
    });
  });

  it('refuses bad cells with line and column', async () => {
    const file = 'Id;Code;Date;Minutes;Projects\nabc;A;1931-13-01;12,5;x\n';
    const { rows } = await read(file, {
      section_tipo: 'oh1',
      id_column: 'Id',
      columns: { Code: 'oh14', Date: 'oh29', Minutes: 'oh90001', Projects: 'oh22' },
    });
    expect(rows[0]!.refusals.map((r) => [r.line, r.column, r.header, r.reason])).toEqual([
      [2, 1, 'Id', 'section_id'],
      [2, 3, 'Date', 'invalid_date'],
      [2, 4, 'Minutes', 'format'],
      [2, 5, 'Projects', 'invalid_value'],
    ]);
    expect(rows[0]!.changes).toEqual([]);
  });

  it('refuses mappings that do not fit the schema, the ontology or the file', async () => {
    const header = 'Code;Título;Informants;Name\nA;B;C;D\n';
    const fails = async (mapping: unknown) => {
      try {
        await read(header, mapping);
      } catch (e) {
        if (e instanceof CollectionFileError) return e.message;
        throw e;
      }
      return 'read';
    };
    expect(await fails({ section_tipo: 'oh1', columns: { Code: 'not a tipo' } })).toMatch(
      /does not fit its schema: columns.Code: .*not a tipo/,
    );
    expect(await fails({ section_tipo: 'oh1', columns: { Missing: 'oh14' } })).toMatch(
      /columns\["Missing"\]: the file has no column "Missing" \(its columns: Code, Título, Informants, Name\)/,
    );
    expect(await fails({ section_tipo: 'oh1', columns: { Name: 'rsc85' } })).toMatch(
      /rsc85 is not a component of oh1/,
    );
    expect(await fails({ section_tipo: 'oh1', columns: { Título: 'oh16' } })).toMatch(
      /oh16 is translatable: name the column's language/,
    );
    expect(await fails({ section_tipo: 'oh1', columns: { Code: { tipo: 'oh14', lang: 'lg-spa' } } })).toMatch(
      /oh14 is not translatable/,
    );
    expect(
      await fails({
        section_tipo: 'oh1',
        columns: { Informants: { tipo: 'oh24', match: { by: 'key', component: 'rsc89' } } },
      }),
    ).toMatch(/match.component rsc89 is not a text component of rsc197/);
    expect(
      await fails({
        section_tipo: 'oh1',
        columns: { Informants: { tipo: 'oh24', match: { by: 'id', section: 'dd153' } } },
      }),
    ).toMatch(/oh24 links only to rsc197, not to dd153/);
    expect(
      await fails({ section_tipo: 'oh1', columns: { Code: { tipo: 'oh14', match: { by: 'id' } } } }),
    ).toMatch(/oh14 is not a relation/);
    expect(await fails({ section_tipo: 'oh1', columns: { Code: 'oh14', Name: 'oh14' } })).toMatch(
      /another column already fills oh14/,
    );
    expect(await fails({ section_tipo: 'rsc85', columns: {} })).toMatch(/rsc85 is not a section/);
    expect(() => parseMapping('{')).toThrow(/the mapping file is not JSON/);
  });
});
