/**
 * The SQO filter grammar, ordering, paging and scope, table-driven with exact section_id lists,
 * on both engines. The database is migrated but not bootstrapped (no users needed: the scope is
 * given directly); the ontology is the default one plus one number component (searchtest1, an age), which
 * the default does not have.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectFilterCondition } from '../../src/work/auth/permissions-store.js';
import { WorkError } from '../../src/work/dispatch/error-registry.js';
import { defaultOntologySource } from '../../src/work/ontology/default-ontology.js';
import { loadOntology } from '../../src/work/ontology/load-ontology.js';

import { parseSqo } from '../../src/work/search/parse-sqo.js';
import {
  countHistory,
  countRecords,
  countRelated,
  searchHistory,
  searchRecords,
  searchRelated,
} from '../../src/work/search/search-records.js';
import { NO_SCOPE, type ScopeFn } from '../../src/work/search/sqo-sql.js';
import { migrateSchema } from '../../src/work/store/migrate-schema.js';
import type { SqlClient } from '../../src/work/store/sql-client.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';
import { date, insertRecordValues, locator, number, text } from '../helpers/work-records.js';

const DEFAULT_ONTOLOGY = defaultOntologySource();
const searchOntology = loadOntology({
  ...DEFAULT_ONTOLOGY,
  tlds: [...(DEFAULT_ONTOLOGY.tlds ?? []), { tld: 'searchtest', name: 'Search tests' }],
  nodes: [
    ...DEFAULT_ONTOLOGY.nodes,
    { tipo: 'searchtest1', parent: 'rsc197', model: 'component_number', label: { 'lg-eng': 'Age' } },
  ],
});
const ontology = searchOntology;

/** People (rsc197) and interviews (oh1) every case below searches. */
async function insertSearchFixtures(db: SqlClient): Promise<void> {
  const person = (id: number, values: Record<string, unknown[]>) =>
    insertRecordValues(db, ontology, 'rsc197', id, values);
  await person(1, {
    rsc85: [text('Álvaro')],
    rsc86: [text('García López')],
    rsc89: [date(1930, 5, 17)],
    searchtest1: [number(90)],
  });
  await person(2, {
    rsc85: [text('alvaro')],
    rsc86: [text('Pérez')],
    rsc89: [date(1945)],
    searchtest1: [number(75)],
  });
  await person(3, {
    rsc85: [text('María José')],
    rsc86: [text('Garcia')],
    rsc89: [date(1930, 12, 1)],
    searchtest1: [number(45.5)],
  });
  await person(4, { rsc85: [text('Joan')] });
  await person(5, {
    rsc85: [text('')],
    rsc86: [text('Martí')],
    rsc89: [date(1928, 1, 1)],
    searchtest1: [number(100)],
  });
  // A date without `time` (computed from its parts) and a number stored as a string.
  await person(6, {
    rsc85: [text('Marta')],
    rsc86: [text('100% real_name')],
    rsc89: [{ id: 1, lang: 'lg-nolan', start: { year: 1930 } }],
    searchtest1: [{ id: 1, lang: 'lg-nolan', value: '60' }],
  });
  await person(-1, { rsc85: [text('Álvaro root')] });

  const interview = (id: number, values: Record<string, unknown[]>, projects: number[]) =>
    insertRecordValues(db, ontology, 'oh1', id, values, projects);
  await interview(
    1,
    {
      oh14: [text('OH-001')],
      oh16: [text('The war years', 'lg-eng'), text('Los años de la guerra', 'lg-spa')],
      oh24: [locator('oh24', 'rsc197', 1), locator('oh24', 'rsc197', 3)],
      oh29: [date(1990, 3, 10)],
    },
    [1],
  );
  await interview(
    2,
    {
      oh14: [text('OH-002')],
      oh16: [text('Harbour life', 'lg-eng'), text('La vida en el puerto', 'lg-spa')],
      // Imported data: a section_id as a numeric string.
      oh24: [locator('oh24', 'rsc197', '2')],
      oh29: [date(1991)],
    },
    [2],
  );
  await interview(3, { oh14: [text('OH-003')], oh16: [text('Años de guerra', 'lg-spa')], oh24: [] }, [1, 2]);
  await interview(
    4,
    { oh14: [text('XX-004')], oh24: [locator('oh24', 'rsc197', 4)], oh29: [date(1990, 12, 31)] },
    [],
  );
}

const leaf = (component_tipo: string, q: unknown, extra: Record<string, unknown> = {}) => ({
  q,
  path: [{ component_tipo }],
  ...extra,
});

interface FilterCase {
  name: string;
  section: string | string[];
  filter: unknown;
  expected: number[] | [string, number][];
}

const people = (name: string, filter: unknown, expected: number[]): FilterCase => ({
  name,
  section: 'rsc197',
  filter,
  expected,
});
const interviews = (name: string, filter: unknown, expected: number[]): FilterCase => ({
  name,
  section: 'oh1',
  filter,
  expected,
});

const FILTER_CASES: FilterCase[] = [
  people('contains, accent- and case-insensitive', { $and: [leaf('rsc85', 'alvaro')] }, [1, 2]),
  people('contains with accents and capitals in q', { $and: [leaf('rsc85', 'ÁLVA')] }, [1, 2]),
  people('contains a fragment', { $and: [leaf('rsc85', 'mar')] }, [3, 6]),
  people('exact ==', { $and: [leaf('rsc85', '==alvaro')] }, [1, 2]),
  people('exact =', { $and: [leaf('rsc85', '=Marta')] }, [6]),
  people('exact does not match a fragment', { $and: [leaf('rsc85', '==Mar')] }, []),
  people('begins with', { $and: [leaf('rsc85', 'mar*')] }, [3, 6]),
  people('ends with', { $and: [leaf('rsc85', '*RO')] }, [1, 2]),
  people('not empty *', { $and: [leaf('rsc85', '*')] }, [1, 2, 3, 4, 6]),
  people('empty !*', { $and: [leaf('rsc85', '!*')] }, [5]),
  people('empty via q_operator', { $and: [leaf('rsc86', null, { q_operator: '!*' })] }, [4]),
  people('different !=', { $and: [leaf('rsc85', '!=alvaro')] }, [3, 4, 5, 6]),
  people('does not contain -', { $and: [leaf('rsc85', '-ar')] }, [4, 5]),
  people('words are AND-ed', { $and: [leaf('rsc85', 'jose maria')] }, [3]),
  people('a quoted phrase is literal', { $and: [leaf('rsc85', "'jose maria'")] }, []),
  people('q_split false keeps the phrase', { $and: [leaf('rsc85', 'maría jos', { q_split: false })] }, [3]),
  people('% in q is literal', { $and: [leaf('rsc86', '%')] }, [6]),
  people('_ in q is literal', { $and: [leaf('rsc86', 'e_l')] }, []),
  people('_ in q matches itself', { $and: [leaf('rsc86', 'l_n')] }, [6]),
  people('contains across two words', { $and: [leaf('rsc86', 'garcia')] }, [1, 3]),
  people('q array: any of', { $and: [leaf('rsc85', ['joan', 'marta'])] }, [4, 6]),
  people('number >=', { $and: [leaf('searchtest1', '>=75')] }, [1, 2, 5]),
  people('number < (a numeric string value counts)', { $and: [leaf('searchtest1', '<61')] }, [3, 6]),
  people('number =', { $and: [leaf('searchtest1', '60')] }, [6]),
  people('number range', { $and: [leaf('searchtest1', '45.5...90')] }, [1, 2, 3, 6]),
  people('number with q_operator', { $and: [leaf('searchtest1', 75, { q_operator: '>' })] }, [1, 5]),
  people('number empty', { $and: [leaf('searchtest1', '!*')] }, [4]),
  people('number not empty', { $and: [leaf('searchtest1', null, { q_operator: '*' })] }, [1, 2, 3, 5, 6]),
  people('number different', { $and: [leaf('searchtest1', '!=75')] }, [1, 3, 4, 5, 6]),
  people('date: a year covers the year', { $and: [leaf('rsc89', '1930')] }, [1, 3, 6]),
  people('date: before a year', { $and: [leaf('rsc89', '<1930')] }, [5]),
  people('date: after a year', { $and: [leaf('rsc89', '>1930')] }, [2]),
  people('date: up to the end of a year', { $and: [leaf('rsc89', '<=1930')] }, [1, 3, 5, 6]),
  people('date: a month', { $and: [leaf('rsc89', '1930-05')] }, [1]),
  people('date: a day', { $and: [leaf('rsc89', '1930/05/17')] }, [1]),
  people(
    'date object with op',
    { $and: [leaf('rsc89', { start: { year: 1930, month: 6 }, op: '>' })] },
    [2, 3],
  ),
  people(
    'date object with q_operator',
    { $and: [leaf('rsc89', [{ mode: 'start', start: { year: 1945 } }], { q_operator: '>=' })] },
    [2],
  ),
  people('date range text', { $and: [leaf('rsc89', '1928...1930')] }, [1, 3, 5, 6]),
  people('date range object', { $and: [leaf('rsc89', { start: { year: 1931 }, end: { year: 1950 } })] }, [2]),
  people('date empty', { $and: [leaf('rsc89', null, { q_operator: '!*' })] }, [4]),
  people('section_id comparison', { $and: [leaf('section_id', '>3')] }, [4, 5, 6]),
  people('section_id range', { $and: [leaf('section_id', '2...4')] }, [2, 3, 4]),
  people('$or', { $or: [leaf('rsc85', 'joan'), leaf('rsc86', 'pér*')] }, [2, 4]),
  people(
    '$and of $or',
    {
      $and: [{ $or: [leaf('searchtest1', '>=90'), leaf('searchtest1', '<50')] }, leaf('rsc86', 'garc')],
    },
    [1, 3],
  ),
  people('$not', { $not: [leaf('rsc85', 'alvaro')] }, [3, 4, 5, 6]),
  people(
    'empty leaves and groups are ignored',
    { $and: [leaf('rsc85', ''), { $or: [] }] },
    [1, 2, 3, 4, 5, 6],
  ),
  people('a negative section_id is never listed', { $and: [leaf('rsc85', 'root')] }, []),
  interviews('relation membership', { $and: [leaf('oh24', { section_tipo: 'rsc197', section_id: 1 })] }, [1]),
  interviews(
    'relation membership: stored "2" matches 2',
    { $and: [leaf('oh24', { section_tipo: 'rsc197', section_id: 2 })] },
    [2],
  ),
  interviews(
    'relation membership: a string q matches a number',
    { $and: [leaf('oh24', { section_tipo: 'rsc197', section_id: '3' })] },
    [1],
  ),
  interviews(
    'relation membership: any of several',
    {
      $and: [
        leaf('oh24', [
          { section_tipo: 'rsc197', section_id: 1 },
          { section_tipo: 'rsc197', section_id: 4 },
        ]),
      ],
    },
    [1, 4],
  ),
  interviews(
    'relation not member',
    { $and: [leaf('oh24', { section_tipo: 'rsc197', section_id: 1 }, { q_operator: '!=' })] },
    [2, 3, 4],
  ),
  interviews('relation not empty', { $and: [leaf('oh24', null, { q_operator: '*' })] }, [1, 2, 4]),
  interviews('relation empty', { $and: [leaf('oh24', '!*')] }, [3]),
  interviews(
    'path through the portal to the name',
    {
      $and: [
        {
          q: 'alvaro',
          path: [
            { section_tipo: 'oh1', component_tipo: 'oh24' },
            { section_tipo: 'rsc197', component_tipo: 'rsc85' },
          ],
        },
      ],
    },
    [1, 2],
  ),
  interviews(
    'path through the portal to a date',
    { $and: [{ q: '1930', path: [{ component_tipo: 'oh24' }, { component_tipo: 'rsc89' }] }] },
    [1],
  ),
  interviews(
    'lang restricts a translatable component',
    { $and: [leaf('oh16', 'guerra', { lang: 'lg-spa' })] },
    [1, 3],
  ),
  interviews(
    'a value in another lang does not match',
    { $and: [leaf('oh16', 'guerra', { lang: 'lg-eng' })] },
    [],
  ),
  interviews('lang all', { $and: [leaf('oh16', 'guerra', { lang: 'all' })] }, [1, 3]),
  interviews(
    'lang on an untranslatable component is ignored',
    { $and: [leaf('oh14', 'oh-00', { lang: 'lg-eng' })] },
    [1, 2, 3],
  ),
  interviews('interview date year', { $and: [leaf('oh29', '1990')] }, [1, 4]),
  {
    name: 'multi-section: a leaf of one section is false in the other',
    section: ['oh1', 'rsc197'],
    filter: { $or: [leaf('rsc85', 'alvaro'), leaf('oh14', 'xx')] },
    expected: [
      ['rsc197', 1],
      ['rsc197', 2],
      ['oh1', 4],
    ],
  },
];

describe.each(workEngineCases())('search filters ($engine)', (engine) => {
  let fresh: FreshDatabase;
  let db: SqlClient;
  beforeAll(async () => {
    fresh = await engine.freshDatabase();
    db = await fresh.open();
    await migrateSchema(db);
    await insertSearchFixtures(db);
  });
  afterAll(async () => {
    await fresh?.dispose();
  });

  const search = async (raw: Record<string, unknown>, scope: ScopeFn = NO_SCOPE) =>
    searchRecords(db, ontology, parseSqo({ limit: 100, ...raw }, ontology), scope);
  const ids = async (raw: Record<string, unknown>, scope?: ScopeFn) =>
    (await search(raw, scope)).records.map((r) => r.section_id);

  it.each(FILTER_CASES)('$name', async ({ section, filter, expected }) => {
    const sqo = parseSqo({ section_tipo: section, filter, limit: 100 }, ontology);
    const { records } = await searchRecords(db, ontology, sqo, NO_SCOPE);
    const got = Array.isArray(section)
      ? records.map((r) => [r.section_tipo, r.section_id])
      : records.map((r) => r.section_id);
    // Multi-section answers come in section_id order; compare as sets there.
    if (Array.isArray(section))
      expect(new Set(got.map((g) => JSON.stringify(g)))).toEqual(
        new Set(expected.map((e) => JSON.stringify(e))),
      );
    else expect(got).toEqual(expected);
    expect(await countRecords(db, ontology, sqo, NO_SCOPE)).toBe(expected.length);
  });

  it('filters is an alias of filter', async () => {
    expect(await ids({ section_tipo: 'rsc197', filters: { $and: [leaf('rsc85', 'alvaro')] } })).toEqual([
      1, 2,
    ]);
  });

  it('filter_by_locators keeps its own order, unless order is given', async () => {
    const locators = [3, 1, 4].map((id) => ({ section_tipo: 'oh1', section_id: id }));
    expect(await ids({ section_tipo: 'oh1', filter_by_locators: locators })).toEqual([3, 1, 4]);
    expect(
      await ids({
        section_tipo: 'oh1',
        filter_by_locators: locators,
        order: [{ direction: 'DESC', path: [{ component_tipo: 'section_id' }] }],
      }),
    ).toEqual([4, 3, 1]);
    // With a filter: OR by default (either), AND on request (both).
    const filter = { $and: [leaf('oh14', 'oh-002')] };
    expect(await ids({ section_tipo: 'oh1', filter_by_locators: locators, filter })).toEqual([3, 1, 4, 2]);
    expect(
      await ids({ section_tipo: 'oh1', filter_by_locators: locators, filter, filter_by_locators_op: 'AND' }),
    ).toEqual([]);
    // A string section_id, a duplicate and a locator of another section.
    expect(
      await ids({
        section_tipo: 'oh1',
        filter_by_locators: [
          { section_tipo: 'oh1', section_id: '2' },
          { section_tipo: 'oh1', section_id: 2 },
          { section_tipo: 'rsc197', section_id: 1 },
        ],
      }),
    ).toEqual([2]);
  });

  it('orders by a component value, NULLS LAST both ways, ties by section_id', async () => {
    const by = (component_tipo: string, direction: string, extra: Record<string, unknown> = {}) => ({
      order: [{ direction, path: [{ component_tipo }], ...extra }],
    });
    expect(await ids({ section_tipo: 'oh1', ...by('oh14', 'DESC') })).toEqual([4, 3, 2, 1]);
    expect(await ids({ section_tipo: 'oh1', ...by('oh16', 'ASC') })).toEqual([2, 1, 3, 4]);
    expect(await ids({ section_tipo: 'oh1', ...by('oh16', 'DESC') })).toEqual([1, 2, 3, 4]);
    expect(await ids({ section_tipo: 'oh1', ...by('oh16', 'ASC', { lang: 'lg-spa' }) })).toEqual([
      3, 2, 1, 4,
    ]);
    // The data language of the parse is the default for translatable values.
    const spa = parseSqo({ section_tipo: 'oh1', ...by('oh16', 'ASC') }, ontology, { lang: 'lg-spa' });
    expect((await searchRecords(db, ontology, spa, NO_SCOPE)).records.map((r) => r.section_id)).toEqual([
      3, 2, 1, 4,
    ]);
    expect(await ids({ section_tipo: 'rsc197', ...by('searchtest1', 'ASC') })).toEqual([3, 6, 2, 1, 5, 4]);
    expect(await ids({ section_tipo: 'rsc197', ...by('rsc89', 'DESC') })).toEqual([2, 3, 1, 6, 5, 4]);
    // An empty string sorts as no value.
    expect(await ids({ section_tipo: 'rsc197', ...by('rsc85', 'ASC') })).toEqual([1, 2, 4, 3, 6, 5]);
    expect(
      await ids({
        section_tipo: 'oh1',
        order: [{ direction: 'ASC', path: [{ component_tipo: 'oh24' }, { component_tipo: 'rsc85' }] }],
      }),
    ).toEqual([1, 2, 4, 3]);
    expect(await ids({ section_tipo: 'rsc197', ...by('section_id', 'DESC') })).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('orders a multi-section search by section_tipo, section_id and a component of one section', async () => {
    const both = async (order: unknown[], limit = 3) =>
      (await search({ section_tipo: ['oh1', 'rsc197'], order, limit })).records.map(
        (r) => `${r.section_tipo}/${r.section_id}`,
      );
    expect(
      await both([
        { direction: 'ASC', path: [{ component_tipo: 'section_tipo' }] },
        { direction: 'DESC', path: [{ component_tipo: 'section_id' }] },
      ]),
    ).toEqual(['oh1/4', 'oh1/3', 'oh1/2']);
    // rsc197 records have no oh14: they come after every interview, by section_id.
    expect(await both([{ direction: 'DESC', path: [{ component_tipo: 'oh14' }] }], 6)).toEqual([
      'oh1/4',
      'oh1/3',
      'oh1/2',
      'oh1/1',
      'rsc197/1',
      'rsc197/2',
    ]);
  });

  it('limit, offset, full_count and a reused total', async () => {
    expect(await search({ section_tipo: 'rsc197', limit: 2, offset: 1, full_count: true })).toEqual({
      records: [
        { section_tipo: 'rsc197', section_id: 2 },
        { section_tipo: 'rsc197', section_id: 3 },
      ],
      total: 6,
    });
    expect((await search({ section_tipo: 'rsc197', limit: 2 })).total).toBeUndefined();
    expect((await search({ section_tipo: 'rsc197', limit: 2, full_count: true, total: 40 })).total).toBe(40);
    // limit 0: as many as allowed; the default limit is 10.
    expect(await ids({ section_tipo: 'rsc197', limit: 0 })).toEqual([1, 2, 3, 4, 5, 6]);
    expect(parseSqo({ section_tipo: 'rsc197' }, ontology).limit).toBe(10);
    expect(parseSqo({ section_tipo: 'rsc197' }, ontology, { defaultLimit: 1 }).limit).toBe(1);
  });

  it('the project scope limits a non-admin per section', async () => {
    const scopeOf =
      (projects: number[]): ScopeFn =>
      (sectionTipo, first, alias) =>
        sectionTipo === 'oh1' ? projectFilterCondition(ontology, 'oh22', projects, first, alias) : undefined;
    expect(await ids({ section_tipo: 'oh1' }, scopeOf([1]))).toEqual([1, 3]);
    expect(await ids({ section_tipo: 'oh1' }, scopeOf([2]))).toEqual([2, 3]);
    expect(await ids({ section_tipo: 'oh1' }, scopeOf([]))).toEqual([]);
    expect(await ids({ section_tipo: 'rsc197' }, scopeOf([]))).toEqual([1, 2, 3, 4, 5, 6]);
    const both = parseSqo(
      { section_tipo: ['oh1', 'rsc197'], filter: { $and: [leaf('oh14', 'oh')] } },
      ontology,
    );
    expect(await countRecords(db, ontology, both, scopeOf([2]))).toBe(2);
    expect(
      await ids(
        {
          section_tipo: 'oh1',
          filter: { $and: [leaf('oh14', 'OH')] },
          filter_by_locators: [{ section_tipo: 'oh1', section_id: 1 }],
        },
        scopeOf([2]),
      ),
    ).toEqual([2, 3]);
  });

  it('related: records pointing at the locators', async () => {
    const related = (raw: Record<string, unknown>) =>
      parseSqo({ mode: 'related', limit: 100, ...raw }, ontology);
    const person1 = related({
      section_tipo: ['all'],
      filter_by_locators: [{ section_tipo: 'rsc197', section_id: 1 }],
    });
    expect((await searchRelated(db, ontology, person1, NO_SCOPE)).records).toEqual([
      { section_tipo: 'oh1', section_id: 1 },
    ]);
    expect(await countRelated(db, ontology, person1, NO_SCOPE)).toBe(1);
    const project1 = related({
      section_tipo: 'oh1',
      filter_by_locators: [{ section_tipo: 'dd153', section_id: 1 }],
      full_count: true,
    });
    expect(await searchRelated(db, ontology, project1, NO_SCOPE)).toEqual({
      records: [
        { section_tipo: 'oh1', section_id: 1 },
        { section_tipo: 'oh1', section_id: 3 },
      ],
      total: 2,
    });
    // A string id stored, a number asked; a pointing component named.
    const person2 = related({
      section_tipo: 'all',
      filter_by_locators: [{ section_tipo: 'rsc197', section_id: 2, tipo: 'oh24' }],
    });
    expect(await countRelated(db, ontology, person2, NO_SCOPE)).toBe(1);
    const wrongComponent = related({
      section_tipo: 'all',
      filter_by_locators: [{ section_tipo: 'rsc197', section_id: 2, tipo: 'oh25' }],
    });
    expect(await countRelated(db, ontology, wrongComponent, NO_SCOPE)).toBe(0);
    expect(
      await countRelated(db, ontology, related({ section_tipo: 'all', filter_by_locators: [] }), NO_SCOPE),
    ).toBe(0);
  });

  it('tm: history rows by locator, newest first', async () => {
    await db.query(
      `INSERT INTO matrix_time_machine (kind, section_tipo, section_id, tipo, lang, data, user_id)
       VALUES ('component', 'oh1', 1, 'oh14', 'lg-nolan', '[{"id":1,"lang":"lg-nolan","value":"old"}]', -1),
              ('component', 'oh1', 1, 'oh16', 'lg-eng', '[]', 5),
              ('component', 'oh1', 2, 'oh14', 'lg-nolan', '[]', 5),
              ('snapshot', 'oh1', 9, NULL, NULL, '{"string":{}}', -1)`,
    );
    const tm = (raw: Record<string, unknown>) =>
      parseSqo({ section_tipo: 'oh1', mode: 'tm', ...raw }, ontology);
    const one = await searchHistory(db, tm({ filter_by_locators: [{ section_tipo: 'oh1', section_id: 1 }] }));
    expect(one.map((r) => r.tipo)).toEqual(['oh16', 'oh14']);
    expect(one[1]).toMatchObject({
      kind: 'component',
      section_tipo: 'oh1',
      section_id: 1,
      lang: 'lg-nolan',
      data: [{ id: 1, lang: 'lg-nolan', value: 'old' }],
      user_id: -1,
    });
    expect(typeof one[0]!.id).toBe('number');
    expect(Date.parse(one[0]!.created_at)).not.toBeNaN();
    const component = tm({ filter_by_locators: [{ section_tipo: 'oh1', section_id: 1, tipo: 'oh14' }] });
    expect((await searchHistory(db, component)).map((r) => r.tipo)).toEqual(['oh14']);
    expect(await countHistory(db, tm({}))).toBe(4);
    expect(await countHistory(db, tm({ filter_by_locators: [] }))).toBe(0);
    const paged = await searchHistory(db, tm({ limit: 2, offset: 1 }));
    expect(paged.map((r) => [r.section_id, r.tipo])).toEqual([
      [2, 'oh14'],
      [1, 'oh16'],
    ]);
    // Scoped: only rows of existing records inside the projects (oh1/9 was deleted).
    const scope: ScopeFn = (st, first, alias) =>
      st === 'oh1' ? projectFilterCondition(ontology, 'oh22', [2], first, alias) : undefined;
    expect((await searchHistory(db, tm({}), { scope, ontology })).map((r) => r.section_id)).toEqual([2]);
    expect(await countHistory(db, tm({}), { scope, ontology })).toBe(1);
  });

  it('random valid filters never fail with anything but search.invalid_sqo', async () => {
    const { default: fc } = await import('fast-check');
    const components = ['rsc85', 'rsc86', 'rsc89', 'searchtest1', 'section_id', 'oh24'];
    const q = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        '*',
        '!*',
        '==x',
        '!=a',
        '-a',
        'a*',
        '*a',
        "'a b'",
        '1930',
        '<1930',
        '1...5',
        '>=2',
        '%',
        '\\',
      ),
      fc.integer({ min: -5, max: 2000 }),
      fc.record({
        section_tipo: fc.constantFrom('rsc197', 'oh1'),
        section_id: fc.integer({ min: -2, max: 9 }),
      }),
      fc.record({
        start: fc.record({ year: fc.integer({ min: -100, max: 3000 }) }),
        op: fc.constantFrom('<', '>', '=', '<=', '>='),
      }),
    );
    const leafArb = fc.record({
      q,
      q_operator: fc.option(fc.constantFrom('*', '!*', '=', '!=', '<', '>', '>=', '...'), { nil: undefined }),
      path: fc.constantFrom(...components).map((c) => [{ component_tipo: c }]),
      lang: fc.option(fc.constantFrom('all', 'lg-eng', 'lg-spa'), { nil: undefined }),
    });
    const { node } = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leafArb, tie('group')),
      group: fc.oneof(
        fc.record({ $and: fc.array(tie('node'), { maxLength: 3 }) }),
        fc.record({ $or: fc.array(tie('node'), { maxLength: 3 }) }),
        fc.record({ $not: fc.array(tie('node'), { maxLength: 2 }) }),
      ),
    }));
    await fc.assert(
      fc.asyncProperty(node, fc.boolean(), async (filter, withOrder) => {
        let sqo: ReturnType<typeof parseSqo>;
        try {
          sqo = parseSqo(
            {
              section_tipo: 'rsc197',
              filter: { $and: [filter] },
              order: withOrder ? [{ direction: 'DESC', path: [{ component_tipo: 'rsc85' }] }] : undefined,
            },
            ontology,
          );
        } catch (err) {
          if (err instanceof WorkError && err.code === 'search.invalid_sqo') return;
          throw err;
        }
        await searchRecords(db, ontology, sqo, NO_SCOPE);
        await countRecords(db, ontology, sqo, NO_SCOPE);
      }),
      { numRuns: 150 },
    );
  });
});
