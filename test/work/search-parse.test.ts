/**
 * parseSqo without a database: defaults, the typed result, and every refusal as a
 * `search.invalid_sqo` whose message names the offending place.
 */
import { describe, expect, it } from 'vitest';
import { WorkError } from '../../src/work/dispatch/error-registry.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';
import { dateTime } from '../../src/work/search/date-time.js';
import { parseSqo, SQO_LIMITS, sectionsReadBy } from '../../src/work/search/parse-sqo.js';

const ontology = loadOntology();
const parse = (raw: unknown) => parseSqo(raw, ontology);
const leaf = (component_tipo: string, q: unknown, extra: Record<string, unknown> = {}) => ({
  q,
  path: [{ component_tipo }],
  ...extra,
});

function refusal(raw: unknown): string {
  try {
    parse(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(WorkError);
    expect((err as WorkError).code).toBe('search.invalid_sqo');
    expect((err as WorkError).status).toBe(400);
    return (err as WorkError).message;
  }
  throw new Error(`accepted: ${JSON.stringify(raw)}`);
}

describe('parseSqo', () => {
  it('fills the defaults and ignores unknown and server-only keys', () => {
    expect(
      parse({
        section_tipo: 'oh1',
        id: 'oh1_list',
        generated_time: 3,
        select: [],
        parsed: true,
        skip_projects_filter: true,
        include_negative: true,
        sentence: 'DROP TABLE matrix',
        table: 'matrix_users',
      }),
    ).toEqual({
      section_tipo: ['oh1'],
      mode: 'search',
      filter_by_locators_op: 'OR',
      limit: 10,
      offset: 0,
      full_count: false,
      lang: 'lg-eng',
    });
    expect(
      parse({ section_tipo: ['oh1', 'oh1', 'rsc197'], limit: null, offset: null, mode: 'list' }),
    ).toMatchObject({
      section_tipo: ['oh1', 'rsc197'],
      limit: 10,
      mode: 'list',
    });
    expect(parse({ section_tipo: 'all', mode: 'related' }).section_tipo).toEqual(['all']);
    expect(parse({ section_tipo: 'oh1', limit: 1000, offset: 5, full_count: true, total: 7 })).toMatchObject({
      limit: 1000,
      offset: 5,
      full_count: true,
      total: 7,
    });
  });

  it('types leaves: text operators, numbers, dates, locators', () => {
    const filter = (f: unknown, section = 'rsc197') =>
      parseSqo({ section_tipo: section, filter: f }, ontology).filter;
    expect(filter(leaf('rsc85', 'Ana María'))).toMatchObject({
      kind: 'leaf',
      path: [{ section_tipo: 'rsc197', component_tipo: 'rsc85' }],
      tests: [{ kind: 'text', op: 'contains', words: ['Ana', 'María'], negate: false }],
      at: 'sqo.filter',
    });
    const ops: [string, object][] = [
      ['==a', { op: 'exact', words: ['a'], negate: false }],
      ['=a', { op: 'exact', words: ['a'], negate: false }],
      ['!=a', { op: 'exact', words: ['a'], negate: true }],
      ['-a', { op: 'contains', words: ['a'], negate: true }],
      ['a*', { op: 'begins', words: ['a'] }],
      ['*a', { op: 'ends', words: ['a'] }],
      ["'a b'", { op: 'contains', words: ['a b'] }],
    ];
    for (const [q, test] of ops) expect(filter(leaf('rsc85', q)), q).toMatchObject({ tests: [test] });
    expect(filter(leaf('rsc85', '*'))).toMatchObject({ tests: [{ kind: 'presence', present: true }] });
    expect(filter(leaf('rsc89', '1930'))).toMatchObject({
      tests: [
        {
          kind: 'range',
          lower: { value: dateTime({ year: 1930 }), inclusive: true },
          upper: { value: dateTime({ year: 1931 }), inclusive: false },
        },
      ],
    });
    expect(filter(leaf('oh24', { section_tipo: 'rsc197', section_id: '3' }), 'oh1')).toMatchObject({
      tests: [{ kind: 'locators', locators: [{ section_tipo: 'rsc197', section_id: 3 }], negate: false }],
    });
    // Empty leaves and groups vanish; a single child is its group.
    expect(filter({ $and: [leaf('rsc85', ''), { $or: [] }] })).toBeUndefined();
    expect(filter({ $and: [leaf('rsc85', 'x')] })).toMatchObject({ kind: 'leaf', at: 'sqo.filter.$and[0]' });
    // filter and filters may both be given when equal.
    expect(
      parse({ section_tipo: 'rsc197', filter: leaf('rsc85', 'x'), filters: leaf('rsc85', 'x') }).filter,
    ).toBeDefined();
  });

  it('lists the sections a filter and an order read', () => {
    const sqo = parse({
      section_tipo: 'oh1',
      filter: {
        $or: [leaf('oh14', 'a'), { q: 'b', path: [{ component_tipo: 'oh24' }, { component_tipo: 'rsc85' }] }],
      },
      order: [{ direction: 'ASC', path: [{ component_tipo: 'oh25' }, { component_tipo: 'rsc36' }] }],
    });
    expect(sectionsReadBy(sqo).sort()).toEqual(['oh1', 'rsc167', 'rsc197']);
  });

  const deep = (depth: number): unknown => (depth === 0 ? leaf('oh14', 'x') : { $and: [deep(depth - 1)] });

  it.each([
    ['not an object', 'oh1', 'sqo must be an object'],
    ['no section', {}, 'sqo.section_tipo is required'],
    ['empty sections', { section_tipo: [] }, 'sqo.section_tipo is required'],
    ['unknown section', { section_tipo: ['oh1', 'zz9'] }, 'sqo.section_tipo[1] zz9 is not a known section'],
    ['a component as section', { section_tipo: 'oh14' }, 'sqo.section_tipo oh14 is not a known section'],
    ['all outside related', { section_tipo: 'all' }, 'sqo.section_tipo all is not a known section'],
    ['bad mode', { section_tipo: 'oh1', mode: 'delete' }, 'sqo.mode must be one of'],
    ['limit too high', { section_tipo: 'oh1', limit: 1001 }, 'sqo.limit must be an integer from 0 to 1000'],
    ['negative limit', { section_tipo: 'oh1', limit: -1 }, 'sqo.limit'],
    ['fractional limit', { section_tipo: 'oh1', limit: 1.5 }, 'sqo.limit'],
    ['string limit', { section_tipo: 'oh1', limit: '10' }, 'sqo.limit'],
    ['negative offset', { section_tipo: 'oh1', offset: -3 }, 'sqo.offset'],
    [
      'full_count not boolean',
      { section_tipo: 'oh1', full_count: 'yes' },
      'sqo.full_count must be a boolean',
    ],
    [
      'filter and filters differ',
      { section_tipo: 'oh1', filter: leaf('oh14', 'a'), filters: leaf('oh14', 'b') },
      'both given and differ',
    ],
    [
      'filter not an object',
      { section_tipo: 'oh1', filter: [leaf('oh14', 'a')] },
      'sqo.filter must be an object',
    ],
    [
      'two operators',
      { section_tipo: 'oh1', filter: { $and: [], $or: [] } },
      'sqo.filter has more than one of',
    ],
    ['no operator', { section_tipo: 'oh1', filter: { $xor: [] } }, 'sqo.filter must hold $and, $or, $not'],
    [
      'children not an array',
      { section_tipo: 'oh1', filter: { $and: 'x' } },
      'sqo.filter.$and must be an array',
    ],
    [
      'component of another section',
      { section_tipo: 'oh1', filter: { $and: [leaf('oh14', 'a'), leaf('oh16', 'b'), leaf('rsc85', 'c')] } },
      'sqo.filter.$and[2].path[0].component_tipo rsc85 is not a component of oh1',
    ],
    [
      'a step section that does not own the component',
      { section_tipo: 'oh1', filter: { q: 'a', path: [{ section_tipo: 'rsc197', component_tipo: 'oh14' }] } },
      'sqo.filter.path[0].component_tipo oh14 is not a component of rsc197',
    ],
    [
      'not a component',
      { section_tipo: 'oh1', filter: leaf('oh2', 'a') },
      'sqo.filter.path[0].component_tipo oh2 is not a component',
    ],
    [
      'empty path',
      { section_tipo: 'oh1', filter: { q: 'a', path: [] } },
      'sqo.filter.path must be a non-empty array',
    ],
    [
      'a path through a non-relation',
      {
        section_tipo: 'oh1',
        filter: { q: 'a', path: [{ component_tipo: 'oh14' }, { component_tipo: 'rsc85' }] },
      },
      'sqo.filter.path[0].component_tipo oh14 is not a relation component',
    ],
    [
      'a path to a section the portal does not point to',
      {
        section_tipo: 'oh1',
        filter: { q: 'a', path: [{ component_tipo: 'oh24' }, { component_tipo: 'rsc36' }] },
      },
      'sqo.filter.path[1] leads to rsc167, which oh24 does not point to',
    ],
    ['a password', { section_tipo: 'dd128', filter: leaf('dd133', '$argon2*') }, 'dd133 is a password'],
    [
      'structural step not last',
      {
        section_tipo: 'oh1',
        filter: { q: 1, path: [{ component_tipo: 'section_id' }, { component_tipo: 'oh14' }] },
      },
      'section_id may only be the last step',
    ],
    [
      'a number that is not',
      { section_tipo: 'oh1', filter: leaf('section_id', 'abc') },
      'sqo.filter.q must be a number',
    ],
    [
      'a bad date',
      { section_tipo: 'oh1', filter: leaf('oh29', '1930-13') },
      'sqo.filter.q.month must be 1 to 12',
    ],
    [
      'a date without year',
      { section_tipo: 'oh1', filter: leaf('oh29', { start: { month: 3 } }) },
      'sqo.filter.q.start.year is required',
    ],
    [
      'a date operator',
      { section_tipo: 'oh1', filter: leaf('oh29', { start: { year: 1 }, op: '~' }) },
      'unknown operator',
    ],
    [
      'a text operator',
      { section_tipo: 'oh1', filter: leaf('oh14', 'a', { q_operator: '<' }) },
      'does not apply to text',
    ],
    ['a relation q', { section_tipo: 'oh1', filter: leaf('oh24', 'ana') }, 'sqo.filter.q must be a locator'],
    [
      'a relation q in an array',
      {
        section_tipo: 'oh1',
        filter: leaf('oh24', [
          { section_tipo: 'rsc197', section_id: 1 },
          { section_tipo: 'x1', section_id: 1 },
        ]),
      },
      'sqo.filter.q[1].section_tipo x1 is not a known section',
    ],
    [
      'media searched by value',
      { section_tipo: 'rsc170', filter: leaf('rsc29', 'x') },
      'rsc29 can only be searched with q_operator * or !*',
    ],
    [
      'an operator without q',
      { section_tipo: 'oh1', filter: leaf('oh29', null, { q_operator: '>' }) },
      'sqo.filter.q is required with q_operator',
    ],
    [
      'unknown lang',
      { section_tipo: 'oh1', filter: leaf('oh16', 'a', { lang: 'lg-xxx' }) },
      'sqo.filter.lang lg-xxx is not a known language',
    ],
    [
      'q_split not boolean',
      { section_tipo: 'oh1', filter: leaf('oh16', 'a', { q_split: 'no' }) },
      'sqo.filter.q_split must be a boolean',
    ],
    [
      'q too long',
      { section_tipo: 'oh1', filter: leaf('oh14', 'x'.repeat(1001)) },
      'sqo.filter.q is longer than 1000 characters',
    ],
    [
      'a NUL in q',
      { section_tipo: 'oh1', filter: leaf('oh14', 'a\u0000b') },
      'sqo.filter.q contains a NUL character',
    ],
    ['a lone surrogate in q', { section_tipo: 'oh1', filter: leaf('oh14', 'a\ud800') }, 'unpaired surrogate'],
    [
      'too deep',
      { section_tipo: 'oh1', filter: deep(SQO_LIMITS.maxFilterDepth) },
      'nested deeper than 32 levels',
    ],
    [
      'too many nodes',
      { section_tipo: 'oh1', filter: { $or: Array.from({ length: 600 }, () => leaf('oh14', 'x')) } },
      'more than 1000 nodes',
    ],
    [
      'locators not an array',
      { section_tipo: 'oh1', filter_by_locators: { section_tipo: 'oh1' } },
      'sqo.filter_by_locators must be an array',
    ],
    [
      'a locator id that is not one',
      { section_tipo: 'oh1', filter_by_locators: [{ section_tipo: 'oh1', section_id: 'abc' }] },
      'sqo.filter_by_locators[0].section_id must be an integer section id',
    ],
    [
      'locator op',
      { section_tipo: 'oh1', filter_by_locators_op: 'XOR' },
      'sqo.filter_by_locators_op must be AND or OR',
    ],
    ['order not an array', { section_tipo: 'oh1', order: 'section_id' }, 'sqo.order must be an array'],
    [
      'order direction',
      { section_tipo: 'oh1', order: [{ direction: 'UP', path: [{ component_tipo: 'oh14' }] }] },
      'sqo.order[0].direction must be ASC or DESC',
    ],
    [
      'order by media',
      { section_tipo: 'rsc170', order: [{ path: [{ component_tipo: 'rsc29' }] }] },
      'sqo.order[0].path: rsc29 cannot be ordered by',
    ],
  ])('refuses %s', (_name, raw, message) => {
    expect(refusal(raw)).toContain(message);
  });

  it('accepts the depth and node limits themselves', () => {
    expect(parse({ section_tipo: 'oh1', filter: deep(SQO_LIMITS.maxFilterDepth - 1) }).filter).toBeDefined();
    expect(
      parse({ section_tipo: 'oh1', filter: { $or: Array.from({ length: 499 }, () => leaf('oh14', 'x')) } })
        .filter,
    ).toBeDefined();
  });
});
