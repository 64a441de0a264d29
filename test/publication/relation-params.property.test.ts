import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/publication/db/schema-builder.js';
import { ValidationError } from '../../src/publication/problems.js';
import { BOUNDS } from '../../src/publication/query/bounds.js';
import { parseQueryString } from '../../src/publication/query/query-string.js';
import { parseRelationParams, type RelationRequest } from '../../src/publication/query/relation-params.js';
import {
  cellEntries,
  entryLink,
  entryLocator,
  entryValue,
  isLinkCell,
  matchKey,
  storedKey,
} from '../../src/publication/services/relation-cells.js';

const TABLES: Record<string, string[]> = {
  interview: ['section_id', 'lang', 'informant', 'image', 'link', 'dd_relations'],
  informant: ['section_id', 'name', 'image', 'dd_relations'],
  image: ['section_id', 'title', 'dd_relations'],
  settings: ['id', 'data'],
};
const schema = buildSchema(
  Object.entries(TABLES).flatMap(([table, cols]) =>
    cols.map((name) => ({ table, name, type: name === 'section_id' || name === 'id' ? 'int(11)' : 'text' })),
  ),
  new Map(),
  new Map(),
);
const interview = schema.tables.get('interview')!;
const COLUMN_NAMES = [...new Set(Object.values(TABLES).flat())];

function parse(query: Record<string, string>, fields?: string[]): RelationRequest | undefined {
  const params = parseQueryString(
    Object.entries(query)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join('&'),
  );
  return parseRelationParams(params, interview, schema, fields);
}

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.problems.map((p) => p.name);
    throw err;
  }
  return [];
}

const keyArb = fc.oneof(
  fc.constantFrom(...COLUMN_NAMES),
  fc.array(fc.constantFrom(...COLUMN_NAMES), { minLength: 2, maxLength: 5 }).map((s) => s.join('.')),
  fc.string({ maxLength: 12 }),
);
const targetArb = fc.oneof(
  fc.constantFrom(
    'auto',
    ...Object.keys(TABLES),
    'image.title',
    'informant.name',
    'settings.id',
    'nope',
    'a.b.c',
  ),
  fc.jsonValue(),
);
const objectArb = fc.dictionary(keyArb, targetArb, { maxKeys: 14 });

describe('resolve_relations / resolve_inverse_relations parser', () => {
  it('any text either parses or fails with problems naming only the two parameters', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          objectArb.map((o) => JSON.stringify(o)),
        ),
        fc.oneof(
          fc.string(),
          fc.constantFrom('true', '1', 'false', '0'),
          objectArb.map((o) => JSON.stringify(o)),
        ),
        (relations, inverse) => {
          const names = problemsOf(() =>
            parse({ resolve_relations: relations, resolve_inverse_relations: inverse }),
          );
          for (const n of names) expect(['resolve_relations', 'resolve_inverse_relations']).toContain(n);
        },
      ),
    );
  });

  it('an accepted object keeps its bounds: keys, depth, parents first, existing targets', () => {
    fc.assert(
      fc.property(objectArb, (obj) => {
        let req: RelationRequest | undefined;
        try {
          req = parse({ resolve_relations: JSON.stringify(obj) });
        } catch (err) {
          expect(err).toBeInstanceOf(ValidationError);
          return;
        }
        const keys = Object.keys(obj);
        expect(keys.length).toBeLessThanOrEqual(BOUNDS.relations.maxKeys);
        if (!req?.forward) {
          expect(keys).toHaveLength(0);
          return;
        }
        if (req.forward.mode !== 'keys') throw new Error('an object never means bare auto');
        expect(req.forward.keys.map((k) => k.key).sort()).toEqual([...keys].sort());
        const seen = new Set<string>();
        for (const k of req.forward.keys) {
          expect(k.depth).toBeLessThanOrEqual(BOUNDS.relations.maxDepth);
          if (k.parent !== undefined) expect(seen.has(k.parent)).toBe(true);
          seen.add(k.key);
          if (k.target.kind === 'rows') {
            expect(schema.tables.get(k.target.table)?.columnsByName.has(k.target.column)).toBe(true);
          }
        }
      }),
    );
  });

  it('reads the three target forms and nested keys', () => {
    const req = parse({
      resolve_relations: JSON.stringify({
        'informant.image': 'image',
        informant: 'informant',
        image: 'image.title',
        link: 'auto',
        'informant.image.dd_relations': 'interview',
      }),
    });
    expect(req?.forward).toEqual({
      mode: 'keys',
      keys: [
        {
          key: 'informant',
          parent: undefined,
          depth: 1,
          column: 'informant',
          target: { kind: 'rows', table: 'informant', column: 'section_id' },
        },
        {
          key: 'image',
          parent: undefined,
          depth: 1,
          column: 'image',
          target: { kind: 'rows', table: 'image', column: 'title' },
        },
        { key: 'link', parent: undefined, depth: 1, column: 'link', target: { kind: 'links' } },
        {
          key: 'informant.image',
          parent: 'informant',
          depth: 2,
          column: 'image',
          target: { kind: 'rows', table: 'image', column: 'section_id' },
        },
        {
          key: 'informant.image.dd_relations',
          parent: 'informant.image',
          depth: 3,
          column: 'dd_relations',
          target: { kind: 'rows', table: 'interview', column: 'section_id' },
        },
      ],
    });
    expect(parse({ resolve_relations: 'auto' })).toEqual({ forward: { mode: 'auto' }, inverse: undefined });
    expect(parse({ resolve_relations: '{}' })).toBeUndefined();
  });

  it('reads inverse modes, telling column keys from section_tipo keys', () => {
    expect(parse({ resolve_inverse_relations: 'true' })?.inverse).toEqual({ mode: 'schema' });
    expect(parse({ resolve_inverse_relations: '1' })?.inverse).toEqual({ mode: 'schema' });
    expect(parse({ resolve_inverse_relations: 'false' })).toBeUndefined();
    const map = parse({
      resolve_inverse_relations: JSON.stringify({ oh1: 'interview', image: 'image' }),
    })?.inverse;
    expect(map).toEqual({
      mode: 'map',
      byTipo: new Map([['oh1', 'interview']]),
      byColumn: new Map([['image', 'image']]),
    });
    // A column key needs no dd_relations column; fields must still select it.
    expect(
      problemsOf(() => parse({ resolve_inverse_relations: '{"image":"image"}' }, ['section_id'])),
    ).toEqual(['resolve_inverse_relations']);
  });
});

describe('relation cells', () => {
  it('reads arrays, numeric strings, locators, single ids and JSON text; NULL and empty are no relation', () => {
    expect(cellEntries(null)).toBeNull();
    expect(cellEntries('  ')).toBeNull();
    expect(cellEntries('[1,"2"]')).toEqual([1, '2']);
    expect(cellEntries(7)).toEqual([7]);
    expect(cellEntries('ts1_3')).toEqual(['ts1_3']);
    expect(cellEntries('{"table":"informant","section_id":3}')).toEqual([
      { table: 'informant', section_id: 3 },
    ]);
    expect(entryValue({ section_tipo: 'oh1', section_id: '4' })).toBe('4');
    expect(entryLocator({ section_tipo: 'oh1', section_id: 4 })).toEqual({ tipo: 'oh1', value: 4 });
    expect(entryLocator(4)).toEqual({ value: 4 });
    expect(entryLink({ table: 'informant', section_id: '3' })).toEqual({ table: 'informant', value: '3' });
    expect(entryLink({ table: 'bad name', section_id: 3 })).toBeUndefined();
  });

  it('resolves at most the first 50 entries of a cell', () => {
    const ids = Array.from({ length: 80 }, (_v, i) => i + 1);
    expect(cellEntries(JSON.stringify(ids))).toEqual(ids.slice(0, BOUNDS.relations.maxIdsPerCell));
  });

  it('tells link cells from other cells', () => {
    expect(isLinkCell('{"table":"informant","section_id":27}')).toBe(true);
    expect(
      isLinkCell([
        { table: 'informant', section_id: 1 },
        { table: 'image', section_id: '2' },
      ]),
    ).toBe(true);
    expect(isLinkCell([])).toBe(false);
    expect(isLinkCell([{ table: 'informant', section_id: 1 }, 3])).toBe(false);
    expect(isLinkCell([{ section_tipo: 'oh1', section_id: 1 }])).toBe(false);
    expect(isLinkCell(null)).toBe(false);
  });

  it('matches numbers and numeric strings alike on numeric columns, exactly on text columns', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (n) => {
        expect(matchKey(n, 'integer')).toEqual(matchKey(String(n), 'integer'));
        expect(storedKey(n, 'integer')).toBe(matchKey(` ${n} `, 'integer')!.key);
      }),
    );
    expect(matchKey('1.5', 'integer')).toBeUndefined();
    expect(matchKey('abc', 'integer')).toBeUndefined();
    expect(matchKey({}, 'text')).toBeUndefined();
    expect(matchKey('1.5', 'number')).toEqual({ key: '1.5', bind: 1.5 });
    expect(matchKey(3, 'text')).toEqual({ key: '3', bind: '3' });
    expect(matchKey('TS1_3', 'text')!.key).not.toBe(storedKey('ts1_3', 'text'));
  });
});
