import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RowsJsonShape, rowsJson } from '../../src/publication/db/row-json.cjs';
import { parseJsonText } from '../../src/publication/services/cell-values.js';

type Row = Record<string, unknown>;

/**
 * What the main thread does with the same rows when it reads them as objects (records-service.ts:
 * keep the chosen variant, drop the column read only for the list, decode JSON-looking text,
 * stop at the limit), then JSON.stringify.
 */
function mainThreadJson(rows: Row[], shape: RowsJsonShape): string {
  const { decode, limit = Number.POSITIVE_INFINITY, only, omit } = shape;
  const kept = rows.filter((r) => !only || r[only[0]] === only[1]).slice(0, limit);
  for (const r of kept) {
    if (omit !== undefined) delete r[omit];
    for (const name of decode) r[name] = parseJsonText(r[name]);
  }
  return JSON.stringify(kept);
}

const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.jsonValue().map((v) => JSON.stringify(v)), // text cells holding JSON
  fc.constantFrom('[TC_00:00:01.000_TC] hola', '[1,2', ' {"a": [1]} ', 'l’àvia “記憶” 🎙'),
);
const cell = fc.oneof(text, fc.integer(), fc.double({ noNaN: true }), fc.constant(null));
const columns = ['section_id', 'lang', 'title', 'data', 'n'] as const;
const row = fc.record({
  section_id: fc.integer(),
  lang: fc.constantFrom('lg-eng', 'lg-spa', 'lg-cat'),
  title: text,
  data: cell,
  n: cell,
});
const shape = fc.record(
  {
    decode: fc.subarray(['title', 'data', 'n']),
    limit: fc.nat(6),
    only: fc.constantFrom(['lang', 'lg-eng'] as [string, unknown], ['lang', 'lg-spa'] as [string, unknown]),
    omit: fc.constantFrom(...columns),
    collect: fc.constant('lang'),
  },
  { requiredKeys: ['decode'] },
);

describe('rows written as JSON where they are read (SQLite workers)', () => {
  it('are byte for byte what the main thread writes for the same rows and shape', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), shape, (rows, s) => {
        const expected = mainThreadJson(structuredClone(rows), s);
        const written = rowsJson(structuredClone(rows), s);
        expect(Buffer.from(written.bytes).toString('utf8')).toBe(expected);
        expect(written.count).toBe(rows.length);
        expect(written.written).toBe(JSON.parse(expected).length);
        if (s.collect) expect(written.collected).toEqual(rows.map((r) => r.lang));
      }),
      { numRuns: 400 },
    );
  });

  it('write blobs as a structured clone would hand them over (plain byte arrays)', () => {
    const rows = [{ id: 1, blob: Buffer.from([1, 2, 255]) }];
    const cloned = structuredClone(rows); // what the main thread received before
    expect(Buffer.from(rowsJson(rows, { decode: [] }).bytes).toString()).toBe(JSON.stringify(cloned));
  });
});
