/**
 * Dédalo 6 records as COPY text: a thesaurus package (bare lines, as `<tld>.copy` files hold them)
 * and a pg_dump block of interviews, converted to our stored shape; nothing is lost.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CollectionFileError } from '../../../src/work/collections/collection-file-error.js';
import { type MatrixCopyRow, readMatrixCopy } from '../../../src/work/collections/read-matrix-copy.js';
import { collectionOntology } from './helpers/collection-ontology.js';

const ontology = collectionOntology();

async function* chunks(bytes: Buffer, size = 64): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readFixture(name: string): Promise<MatrixCopyRow[]> {
  return readBytes(readFileSync(join(import.meta.dirname, 'fixtures', name)));
}

async function readBytes(bytes: Buffer): Promise<MatrixCopyRow[]> {
  const rows: MatrixCopyRow[] = [];
  for await (const row of readMatrixCopy(chunks(bytes), { ontology })) rows.push(row);
  return rows;
}

const locator = (type: string, section_tipo: string, section_id: number, from: string, id: number) => ({
  id,
  type,
  section_tipo,
  section_id,
  from_component_tipo: from,
});

describe('Dédalo 6 matrix COPY', () => {
  it('reads a thesaurus package: labels in every language, parents, children, descriptor, geolocation', async () => {
    const rows = await readFixture('ad1.copy');
    expect(rows.map((r) => [r.line, r.record?.section_tipo, r.record?.section_id])).toEqual([
      [1, 'ad1', 1],
      [2, 'ad1', 2],
      [3, 'ad1', 3],
      [4, 'ad2', 1],
    ]);
    const andorra = rows[0]!.record!;
    expect(andorra.sectionKnown).toBe(true);
    expect(andorra.columns.string).toEqual({
      hierarchy25: [
        { id: 1, lang: 'lg-cat', value: 'Andorra' },
        { id: 1, lang: 'lg-spa', value: 'Andorra' },
        { id: 1, lang: 'lg-eng', value: 'Andorra' },
      ],
    });
    expect(andorra.columns.relation).toEqual({
      hierarchy49: [locator('dd48', 'ad1', 2, 'hierarchy49', 1), locator('dd48', 'ad1', 3, 'hierarchy49', 2)],
      hierarchy23: [locator('dd151', 'dd64', 1, 'hierarchy23', 1)],
    });
    // component_geolocation is not implemented here: kept under misc as items.
    expect(andorra.columns.misc).toEqual({
      hierarchy31: [{ id: 1, lang: 'lg-nolan', value: { lat: 42.546, lon: 1.601, alt: 0, zoom: 12 } }],
    });
    expect(andorra.notes).toEqual([
      'hierarchy31: component_geolocation is not implemented here, kept as stored',
    ]);
    expect(andorra.meta).toEqual({ hierarchy25: 1, hierarchy49: 2, hierarchy23: 1, hierarchy31: 1 });
    expect(andorra.created_at).toBe('2017-03-01T09:00:00.000Z');
    expect(andorra.created_by).toBe(-1);

    const canillo = rows[1]!.record!;
    expect(canillo.columns.relation.hierarchy36).toEqual([locator('dd47', 'ad1', 1, 'hierarchy36', 1)]);
    // A numeric section_id in a locator is read like a string one.
    expect(canillo.columns.relation.hierarchy23).toEqual([locator('dd151', 'dd64', 1, 'hierarchy23', 1)]);
    expect(canillo.modified_at).toBe('2021-11-30T18:45:00.000Z');
    expect(canillo.modified_by).toBe(5);

    const encamp = rows[2]!.record!;
    // COPY escapes decoded: a tab inside a label.
    expect(encamp.columns.string.hierarchy25).toEqual([
      { id: 1, lang: 'lg-cat', value: 'Encamp\tvila' },
      { id: 1, lang: 'lg-fra', value: 'Encamp' },
    ]);
    // A tipo the ontology lacks keeps both its component data and its locators.
    expect(encamp.columns.misc.hierarchy999).toEqual([
      { id: 1, lang: 'lg-nolan', value: 'kept' },
      {
        id: 2,
        lang: 'lg-nolan',
        value: { type: 'dd151', section_id: '4', section_tipo: 'ad2', from_component_tipo: 'hierarchy999' },
      },
    ]);
    expect(rows[3]!.record!.sectionKnown).toBe(false);
  });

  it('reads a pg_dump block of interviews into typed columns, keeping what does not fit', async () => {
    const rows = await readFixture('interviews.matrix.copy.sql');
    expect(rows.map((r) => r.line)).toEqual([8, 9, 10, 11]);
    const first = rows[0]!.record!;
    expect(first.columns.string).toEqual({
      oh14: [{ id: 1, lang: 'lg-nolan', value: 'INT-1' }],
      oh16: [
        { id: 1, lang: 'lg-spa', value: 'Entrevista a Ana' },
        { id: 2, lang: 'lg-spa', value: 'Segunda' },
        { id: 1, lang: 'lg-eng', value: 'Interview with Ana' },
      ],
      oh23: [{ id: 1, lang: 'lg-spa', value: '<p>Línea 1</p>\n<p>Línea 2</p>' }],
    });
    expect(first.columns.date.oh29).toEqual([
      { id: 1, lang: 'lg-nolan', start: { year: 1931, month: 4, day: 14, time: expect.any(Number) } },
    ]);
    expect(first.columns.number).toEqual({ oh90001: [{ id: 1, lang: 'lg-nolan', value: 45 }] });
    expect(first.columns.media.oh90004).toEqual([
      { id: 1, lang: 'lg-nolan', files_info: [{ quality: 'original', file_exist: true }] },
    ]);
    expect(first.columns.relation).toEqual({
      oh24: [locator('dd151', 'rsc197', 1, 'oh24', 1), locator('dd151', 'rsc197', 2, 'oh24', 2)],
      oh22: [locator('dd675', 'dd153', 1, 'oh22', 1)],
      oh32: [locator('dd151', 'dd64', 1, 'oh32', 1)],
    });
    expect(Object.keys(first.columns.misc).sort()).toEqual(['oh14_old', 'oh90003']);
    expect(first.created_at).toBe('2019-05-02T10:11:12.000Z');
    expect(first.modified_by).toBe(3);

    const second = rows[1]!.record!;
    // A date that does not exist, a number that is not one, locators without ids or component:
    // kept under misc, with the reason.
    expect(second.columns.date).toEqual({});
    expect(second.columns.misc.oh29).toEqual([
      { id: 1, lang: 'lg-nolan', value: { start: { year: 1931, month: 2, day: 30 } } },
    ]);
    expect(second.columns.misc.oh90001).toEqual([{ id: 1, lang: 'lg-nolan', value: 'forty' }]);
    expect(second.columns.misc.oh24).toHaveLength(1);
    expect(second.columns.misc.relations).toEqual([
      { type: 'dd151', section_id: '9', section_tipo: 'rsc197' },
    ]);
    expect(second.notes).toEqual([
      expect.stringMatching(
        /^oh29: a date does not fit: .*day 30 does not exist in 1931-02, kept as stored$/,
      ),
      'oh90001: a number value is not a number, kept as stored',
      'oh24: a locator has no valid record id, kept as stored',
      'relations: locators without from_component_tipo, kept as stored',
    ]);

    expect(rows[2]!.refusals.map((r) => [r.line, r.column, r.reason])).toEqual([[10, 2, 'section_id']]);
    expect(rows[3]!.refusals.map((r) => [r.line, r.column, r.reason])).toEqual([[11, 4, 'format']]);
  });

  it('refuses what cannot be read as Dédalo records', async () => {
    const fails = async (text: string | Buffer) => {
      try {
        await readBytes(Buffer.from(text));
      } catch (e) {
        if (e instanceof CollectionFileError) return e.message;
        throw e;
      }
      return 'read';
    };
    expect(await fails('SET x = 1;\n')).toMatch(/no Dédalo records/);
    expect(await fails('1\toh1\n')).toBe(
      'line 1: a line has 2 tab-separated fields: Dédalo records are (id,) section_id, section_tipo, datos',
    );
    expect(await fails('COPY matrix (section_id, section_tipo, datos) FROM stdin;\n1\toh1\n')).toBe(
      'line 2: the line has 2 fields, the COPY names 3',
    );
    expect(await fails('1\toh1\t{}\\\n')).toMatch(/^line 1: .*lone backslash/);
    expect(await fails(Buffer.from([0x31, 0x09, 0xff]))).toMatch(
      /^line 1, byte 2: the file is not valid UTF-8/,
    );
  });
});
