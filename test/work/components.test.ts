/**
 * The save's pure parts without a database: date checks and the virtual-calendar time, the
 * change actions on each kind of component (translation slices, id minting, locators,
 * security-access items, sort_by_column), computed values, and a property: whatever a client
 * puts in changed_data, applying it either works or is a registered refusal (never a 5xx).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyChanges,
  CHANGE_ACTIONS,
  type ChangeHooks,
  type ChangeObject,
} from '../../src/work/components/apply-changes.js';
import { componentSpec, type Locator } from '../../src/work/components/component-values.js';
import { parseDatePart, parseDateValue, virtualTime } from '../../src/work/components/date-time.js';
import { computeItems, inverseComponentOf } from '../../src/work/components/observers.js';
import { WorkError } from '../../src/work/dispatch/error-registry.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import type { MatrixRow } from '../../src/work/store/record-rows.js';

const ontology = loadOntology();
const spec = (tipo: string) => componentSpec(ontology, ontology.node(tipo)!);

const noHooks: ChangeHooks = {
  createTarget: async () => {
    throw new Error('no database here');
  },
  columnValues: async () => new Map(),
};

const apply = (
  tipo: string,
  items: unknown[],
  lastId: number,
  changes: ChangeObject[],
  lang = 'lg-nolan',
  hooks = noHooks,
) => applyChanges(spec(tipo), ontology, { items, lastId }, changes, lang, hooks);

const refusal = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkError);
  return err as WorkError;
};

describe('dates', () => {
  it('computes the virtual-calendar time from the known parts', () => {
    expect(virtualTime({ year: 1931 })).toBe(1931 * 372 * 86400);
    expect(
      parseDatePart({ year: 1931, month: 4, day: 14, hour: 10, minute: 5, second: 7 }, 'oh29', 'start').time,
    ).toBe((1931 * 372 + 3 * 31 + 13) * 86400 + 10 * 3600 + 5 * 60 + 7);
    // A partial date orders before every full date of the next year.
    expect(virtualTime({ year: 1931, month: 12, day: 31 })).toBeLessThan(virtualTime({ year: 1932 }));
    // BCE years are negative, and "04"-style strings from date inputs are numbers.
    expect(parseDatePart({ year: -50, month: '04' }, 'oh29', 'start')).toMatchObject({ year: -50, month: 4 });
  });

  it('accepts real calendar days only', () => {
    expect(parseDatePart({ year: 2024, month: 2, day: 29 }, 'oh29', 's').day).toBe(29);
    expect(parseDatePart({ year: 2000, month: 2, day: 29 }, 'oh29', 's').day).toBe(29);
    for (const bad of [
      { year: 2023, month: 2, day: 29 },
      { year: 1900, month: 2, day: 29 },
      { year: 2023, month: 4, day: 31 },
      { year: 2023, month: 0 },
      { year: 2023, month: 1, day: 0 },
      { year: 2023, hour: 24 },
      { year: 1.5 },
      { month: 3 },
      'yesterday',
    ]) {
      expect(() => parseDatePart(bad, 'oh29', 's'), JSON.stringify(bad)).toThrow(WorkError);
    }
    expect(() => parseDateValue({ start: { year: 2000 }, end: { year: 1999 } }, 'oh29', 'v')).toThrow(
      /before/,
    );
  });
});

describe('change actions', () => {
  it('translations share an id; each language is its own slice', async () => {
    const eng = await apply(
      'oh16',
      [],
      0,
      [{ action: 'insert', value: { id: null, value: 'Title' } }],
      'lg-eng',
    );
    expect(eng).toMatchObject({ items: [{ id: 1, lang: 'lg-eng', value: 'Title' }], lastId: 1 });
    const spa = await apply(
      'oh16',
      eng.items,
      eng.lastId,
      [{ action: 'update', id: 1, value: 'Título' }],
      'lg-spa',
    );
    expect(spa.items).toEqual([
      { id: 1, lang: 'lg-eng', value: 'Title' },
      { id: 1, lang: 'lg-spa', value: 'Título' },
    ]);
    expect(spa.lastId).toBe(1);
    const cleared = await apply('oh16', spa.items, 1, [{ action: 'clear', value: null }], 'lg-spa');
    expect(cleared.items).toEqual([{ id: 1, lang: 'lg-eng', value: 'Title' }]);
  });

  it('mints ids from the counter, never reusing one', async () => {
    const r = await apply('oh14', [{ id: 5, lang: 'lg-nolan', value: 'a' }], 9, [
      { action: 'remove', id: 5, value: null },
      { action: 'insert', value: { value: 'b' } },
      {
        action: 'set_data',
        value: [
          { id: 10, value: 'b' },
          { id: 5, value: 'c' },
        ],
      },
    ]);
    // id 5 was removed: the client cannot bring it back, it gets a fresh one.
    expect(r.items).toEqual([
      { id: 10, lang: 'lg-nolan', value: 'b' },
      { id: 11, lang: 'lg-nolan', value: 'c' },
    ]);
    expect(r.lastId).toBe(11);
  });

  it('a select holds one locator: inserting replaces it; the relation type is the model’s', async () => {
    const r = await apply('dd1725', [], 0, [
      { action: 'insert', value: { section_tipo: 'dd234', section_id: 1 } },
      { action: 'insert', value: { section_tipo: 'dd234', section_id: '2' } },
    ]);
    expect(r.items).toEqual([
      { id: 2, type: 'dd151', section_tipo: 'dd234', section_id: 2, from_component_tipo: 'dd1725' },
    ]);
    const filter = await apply('dd170', [], 0, [
      { action: 'insert', value: { section_tipo: 'dd153', section_id: 1 } },
    ]);
    expect((filter.items[0] as Locator).type).toBe('dd675');
    const wrongType = await refusal(
      apply('dd170', [], 0, [
        { action: 'insert', value: { section_tipo: 'dd153', section_id: 1, type: 'dd151' } },
      ]),
    );
    expect(wrongType.code).toBe('validation.invalid_value');
  });

  it('takes a record id written as a string up to the largest id, and refuses one past it', async () => {
    const r = await apply('oh24', [], 0, [
      { action: 'insert', value: { section_tipo: 'rsc197', section_id: '2147483647' } },
      { action: 'insert', value: { section_tipo: 'rsc197', section_id: '1000000000' } },
    ]);
    expect((r.items as Locator[]).map((l) => l.section_id)).toEqual([2147483647, 1000000000]);
    const past = await refusal(
      apply('oh24', [], 0, [
        { action: 'insert', value: { section_tipo: 'rsc197', section_id: '2147483648' } },
      ]),
    );
    expect(past.message).toMatch(/section_id must be an integer record id/);
  });

  it('removes a locator without id by its target, and by key', async () => {
    const items = [
      { type: 'dd151', section_tipo: 'rsc197', section_id: 1, from_component_tipo: 'oh24' },
      { type: 'dd151', section_tipo: 'rsc197', section_id: 2, from_component_tipo: 'oh24' },
      { type: 'dd151', section_tipo: 'rsc197', section_id: 3, from_component_tipo: 'oh24' },
    ];
    const r = await apply('oh24', items, 0, [
      { action: 'remove', value: { section_tipo: 'rsc197', section_id: '2' } },
      { action: 'remove', key: 1, value: null },
    ]);
    expect((r.items as Locator[]).map((l) => l.section_id)).toEqual([1]);
  });

  it('sort_by_column orders by the target records’ column text, empty values last', async () => {
    const items = [1, 2, 3, 4].map((id) => ({
      id,
      type: 'dd151',
      section_tipo: 'rsc197',
      section_id: id,
      from_component_tipo: 'oh24',
    }));
    const names = new Map([
      ['rsc197\u00001', 'Zoe'],
      ['rsc197\u00002', ''],
      ['rsc197\u00003', 'Ana'],
      ['rsc197\u00004', 'Marta'],
    ]);
    const hooks: ChangeHooks = { ...noHooks, columnValues: async () => names };
    const asc = await apply(
      'oh24',
      items,
      4,
      [{ action: 'sort_by_column', value: { tipo: 'rsc85' } }],
      'lg-nolan',
      hooks,
    );
    expect((asc.items as Locator[]).map((l) => l.section_id)).toEqual([3, 4, 1, 2]);
    const desc = await apply(
      'oh24',
      items,
      4,
      [{ action: 'sort_by_column', value: { tipo: 'rsc85', direction: 'desc' } }],
      'lg-nolan',
      hooks,
    );
    expect((desc.items as Locator[]).map((l) => l.section_id)).toEqual([1, 4, 3, 2]);
    // The wanted order as item ids; unlisted items keep their order after the listed ones.
    const given = await apply('oh24', items, 4, [{ action: 'sort_by_column', value: [4, 2] }]);
    expect((given.items as Locator[]).map((l) => l.section_id)).toEqual([4, 2, 1, 3]);
  });

  it('security access: one item per (section, tipo), the last wins, zeros dropped, unknown tipos refused', async () => {
    const r = await apply('dd774', [], 0, [
      {
        action: 'set_data',
        value: [
          { tipo: 'oh1', section_tipo: 'oh1', value: 1 },
          { tipo: 'oh14', section_tipo: 'oh1', value: 2 },
          { tipo: 'oh1', section_tipo: 'oh1', value: 3 },
          { tipo: 'dd88', section_tipo: 'dd88', value: 0 },
        ],
      },
      { action: 'insert', value: { tipo: 'oh9000', section_tipo: 'oh9000', value: 1 } },
    ]);
    expect(r.items).toEqual([
      { tipo: 'oh14', section_tipo: 'oh1', value: 2 },
      { tipo: 'oh1', section_tipo: 'oh1', value: 3 },
      { tipo: 'oh9000', section_tipo: 'oh9000', value: 1 },
    ]);
    // A component of another section, and a tipo that is no element.
    for (const bad of [
      { tipo: 'rsc85', section_tipo: 'oh1', value: 2 },
      { tipo: 'oh99999', section_tipo: 'oh1', value: 2 },
      { tipo: 'oh14', section_tipo: 'oh14', value: 2 },
    ]) {
      expect((await refusal(apply('dd774', [], 0, [{ action: 'set_data', value: [bad] }]))).code).toBe(
        'validation.invalid_value',
      );
    }
  });

  it('add_new_element goes through the hook and appends a locator to the new record', async () => {
    const hooks: ChangeHooks = { ...noHooks, createTarget: async (st) => (st === 'rsc197' ? 41 : -1) };
    const r = await apply('oh24', [], 3, [{ action: 'add_new_element', value: 'rsc197' }], 'lg-nolan', hooks);
    expect(r).toEqual({
      items: [{ id: 4, type: 'dd151', section_tipo: 'rsc197', section_id: 41, from_component_tipo: 'oh24' }],
      lastId: 4,
      createdSectionIds: [41],
    });
  });

  it('property: any changed_data either applies or is a registered refusal', async () => {
    const tipos = ['oh14', 'oh16', 'oh24', 'oh29', 'dd774', 'dd1725', 'dd134', 'rsc35', 'dd551'];
    const change = fc.record(
      {
        action: fc.oneof(fc.constantFrom(...CHANGE_ACTIONS)),
        id: fc.option(fc.nat(5), { nil: undefined }),
        key: fc.option(fc.nat(5), { nil: undefined }),
        value: fc.jsonValue(),
      },
      { requiredKeys: ['action', 'value'] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...tipos),
        fc.array(change, { maxLength: 5 }),
        async (tipo, changes) => {
          const start = [{ id: 1, lang: 'lg-eng', value: 'x' }];
          try {
            await apply(tipo, start, 1, changes as ChangeObject[], 'lg-eng', {
              createTarget: async () => 7,
              columnValues: async () => new Map(),
            });
          } catch (err) {
            if (!(err instanceof WorkError)) throw err;
            expect(err.status).toBeLessThan(500);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('observers', () => {
  const row = (string: Record<string, unknown[]>): MatrixRow =>
    ({
      section_tipo: 'rsc197',
      section_id: 1,
      string,
      relation: {},
      date: {},
      number: {},
      media: {},
      misc: {},
      meta: {},
    }) as unknown as MatrixRow;

  it('computes the full name from name and surname, keeping its item id', () => {
    const full = spec('rsc9001');
    expect(
      computeItems(ontology, full, row({ rsc85: [{ id: 1, lang: 'lg-nolan', value: ' Ada ' }] }), 0),
    ).toEqual({
      items: [{ id: 1, lang: 'lg-nolan', value: 'Ada' }],
      lastId: 1,
    });
    const both = row({
      rsc85: [{ id: 1, lang: 'lg-nolan', value: 'Ada' }],
      rsc86: [{ id: 1, lang: 'lg-nolan', value: 'Lovelace' }],
      rsc9001: [{ id: 3, lang: 'lg-nolan', value: 'Ada' }],
    });
    expect(computeItems(ontology, full, both, 3).items).toEqual([
      { id: 3, lang: 'lg-nolan', value: 'Ada Lovelace' },
    ]);
    expect(computeItems(ontology, full, row({}), 3)).toEqual({ items: [], lastId: 3 });
  });

  it('pairs a term’s parent with the children of the section it points into', () => {
    expect(inverseComponentOf(ontology, spec('hierarchy36'), 'ts1')?.tipo).toBe('hierarchy49');
    expect(inverseComponentOf(ontology, spec('hierarchy49'), 'ts1')?.tipo).toBe('hierarchy36');
    expect(inverseComponentOf(ontology, spec('oh24'), 'rsc197')).toBeUndefined();
  });
});
