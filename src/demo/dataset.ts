/**
 * The rows of the demo archive, table by table, as generators that yield one row at a time in
 * primary-key order: a sink can write 100k+ interviews without holding them. Each record draws
 * from its own random stream (seed, table, id) and reads cross-references from the small Plan,
 * so the same options always give byte-identical rows and every relation points at a row that
 * exists. Rows are arrays of cells in the column order of the table definition.
 */
import {
  type DemoOptions,
  inverseOf,
  LANG_CAT,
  LANG_ENG,
  makePlan,
  type Plan,
  SALT,
  type ThesaurusPlan,
} from './plan.js';
import { Random } from './random.js';
import { type TableDef, tableDef } from './schema.js';
import {
  fillTemplate,
  plainText,
  publicationText,
  randomNoun,
  type Speaker,
  transcription,
} from './texts.js';
import {
  GENDERS,
  GIVEN_NAMES,
  INTERVIEW_TITLES,
  type Lang,
  PLACES,
  PUBLICATION_TITLES,
  SCOPE_NOTES,
  SURNAMES,
  THEME_TERMS,
} from './vocabulary.js';

export type { DemoOptions } from './plan.js';
export { type ColumnDef, type ColumnType, TABLE_DEFS, type TableDef } from './schema.js';

export type Cell = string | number | null;
export type Row = Cell[];

export interface DemoSummary {
  /** Rows written per table. */
  tables: Record<string, number>;
}

export interface DemoTable {
  def: TableDef;
  rowCount: number;
  rows: () => Generator<Row>;
}

/** Orders a record's cells by the table's columns; a missing or extra key is a bug here. */
function toRow(def: TableDef, record: Record<string, Cell>): Row {
  if (Object.keys(record).length !== def.columns.length) {
    throw new Error(`row for ${def.name} has keys ${Object.keys(record).join(',')}`);
  }
  return def.columns.map((c) => {
    const value = record[c.name];
    if (value === undefined) throw new Error(`row for ${def.name} lacks ${c.name}`);
    return value;
  });
}

/** A relation id as number or numeric string: published databases use both. */
function idValue(id: number, asString: boolean): number | string {
  return asString ? String(id) : id;
}

function locators(sectionTipo: string, ids: ArrayLike<number>, asString: boolean): string | null {
  if (ids.length === 0) return null;
  return JSON.stringify(
    Array.from(ids, (id) => ({ section_tipo: sectionTipo, section_id: idValue(id, asString) })),
  );
}

/** Languages of an interview in primary-key order (lg-cat < lg-eng < lg-spa). */
function interviewLangs(flags: number): Lang[] {
  const out: Lang[] = [];
  if (flags & LANG_CAT) out.push('lg-cat');
  if (flags & LANG_ENG) out.push('lg-eng');
  out.push('lg-spa');
  return out;
}

interface Identity {
  name: string;
  surname: string;
  birthplace: string;
  birthYear: number;
  gender: string;
}

/** An informant's identity: the first draws of its stream, so interviews can compute labels alone. */
function identity(rng: Random): Identity {
  const name = rng.pick(GIVEN_NAMES);
  const first = rng.pick(SURNAMES);
  const surname = rng.chance(0.6) ? `${first} ${rng.pick(SURNAMES)}` : first;
  return {
    name,
    surname,
    birthplace: rng.pick(PLACES),
    birthYear: rng.int(1905, 1975),
    gender: rng.pick(GENDERS),
  };
}

function speakerLabel(plan: Plan, informant: number): string {
  const who = identity(Random.for(plan.seed, SALT.informant, informant));
  return `${who.name.charAt(0)}${who.surname.charAt(0).toUpperCase()}`;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function* interviewRows(plan: Plan): Generator<Row> {
  const def = tableDef('interview');
  for (let id = 1; id <= plan.interviews; id++) {
    const rng = Random.for(plan.seed, SALT.interview, id);
    const informants = [plan.informantA[id - 1]!];
    if (plan.informantB[id - 1]) informants.push(plan.informantB[id - 1]!);
    const images = [id];
    if (plan.imageB[id - 1]) images.push(plan.imageB[id - 1]!);
    if (plan.imageC[id - 1]) images.push(plan.imageC[id - 1]!);
    const stringIds = rng.chance(0.5);
    const common = {
      section_id: id,
      code: `OH-${pad(id, 6)}`,
      informant: JSON.stringify(informants.map((i) => idValue(i, stringIds))),
      audiovisual: rng.chance(0.1) ? null : JSON.stringify([idValue(id, rng.chance(0.5))]),
      image: JSON.stringify(images.map((i) => idValue(i, stringIds))),
      link: rng.chance(0.5) ? JSON.stringify({ table: 'informant', section_id: informants[0] }) : null,
      date: rng.chance(0.04)
        ? null
        : `${rng.int(1975, 2023)}-${pad(rng.int(1, 12), 2)}-${pad(rng.int(1, 28), 2)}`,
      place: rng.pick(PLACES),
      duration: plan.durationTenths[id - 1]! / 10,
      dd_relations: rng.chance(0.08) ? locators('rsc35', [id], rng.chance(0.5)) : null,
    };
    const title = fillTemplate(rng.pick(INTERVIEW_TITLES), [randomNoun(rng)], common.place);
    const abstract = plainText(rng, 1, 3);
    const speakers: Speaker[] = informants.map((i) => ({ id: i, label: speakerLabel(plan, i) }));
    const text = transcription(rng, {
      speakers,
      indexTags: plan.indexTags[id - 1]!,
      durationTenths: plan.durationTenths[id - 1]!,
    });
    for (const lang of interviewLangs(plan.langs[id - 1]!)) {
      yield toRow(def, {
        ...common,
        lang,
        title: title(lang),
        abstract: abstract(lang),
        transcription: text(lang),
      });
    }
  }
}

function* informantRows(plan: Plan): Generator<Row> {
  const def = tableDef('informant');
  for (let id = 1; id <= plan.informants; id++) {
    const rng = Random.for(plan.seed, SALT.informant, id);
    const who = identity(rng);
    yield toRow(def, {
      section_id: id,
      name: who.name,
      surname: who.surname,
      birthplace: who.birthplace,
      birth_year: who.birthYear,
      gender: who.gender,
      image: rng.chance(0.25)
        ? null
        : JSON.stringify([idValue(rng.int(1, plan.interviews), rng.chance(0.5))]),
      dd_relations: locators('oh1', inverseOf(plan.informantRefs, id), rng.chance(0.5)),
    });
  }
}

function* imageRows(plan: Plan): Generator<Row> {
  const def = tableDef('image');
  for (let id = 1; id <= plan.interviews; id++) {
    const rng = Random.for(plan.seed, SALT.image, id);
    yield toRow(def, {
      section_id: id,
      title: `Fotografía ${id}: ${randomNoun(rng)[0]} en ${rng.pick(PLACES)}`,
      image: `images/${id}.jpg`,
      dd_relations: locators('oh1', inverseOf(plan.imageRefs, id), rng.chance(0.5)),
    });
  }
}

function* audiovisualRows(plan: Plan): Generator<Row> {
  const def = tableDef('audiovisual');
  for (let id = 1; id <= plan.interviews; id++) {
    const rng = Random.for(plan.seed, SALT.audiovisual, id);
    yield toRow(def, {
      section_id: id,
      video: rng.chance(0.05) ? `https://media.example.org/av/${id}.mp4` : `av/${id}.mp4`,
      image: `av/posters/${id}.jpg`,
      duration: plan.durationTenths[id - 1]! / 10,
    });
  }
}

function* publicationRows(plan: Plan): Generator<Row> {
  const def = tableDef('publications');
  for (let id = 1; id <= plan.publications; id++) {
    const rng = Random.for(plan.seed, SALT.publication, id);
    const title = fillTemplate(rng.pick(PUBLICATION_TITLES), [randomNoun(rng), randomNoun(rng)], '');
    const authors = Array.from(
      { length: rng.int(1, 3) },
      () => `${rng.pick(SURNAMES)}, ${rng.pick(GIVEN_NAMES)}`,
    ).join('; ');
    const year = rng.int(1980, 2024);
    const firstPage = rng.chance(0.7) ? 1 : rng.int(2, 300);
    const text = publicationText(rng, firstPage, id === 1 || rng.chance(0.25));
    const langs: Lang[] = plan.publicationEnglish[id - 1] ? ['lg-eng', 'lg-spa'] : ['lg-spa'];
    for (const lang of langs) {
      yield toRow(def, { section_id: id, lang, title: title(lang), authors, year, text: text(lang) });
    }
  }
}

/** Indexation locators of one term: real index tags of real interviews, shapes varying per row. */
function indexation(rng: Random, plan: Plan): string | null {
  const numeric = rng.chance(0.3);
  const shape = rng.int(0, 2);
  const seen = new Set<string>();
  const out: Record<string, string | number>[] = [];
  const count = rng.int(1, 6);
  for (let n = 0; n < count; n++) {
    const interview = rng.int(1, plan.interviews);
    const tag = rng.int(1, plan.indexTags[interview - 1]!);
    const key = `${interview}/${tag}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const id = idValue(interview, !numeric);
    const tagId = idValue(tag, !numeric);
    if (shape === 0) {
      out.push({
        type: 'dd96',
        tag_id: tagId,
        section_id: id,
        section_tipo: 'oh1',
        component_tipo: 'rsc36',
        section_top_id: id,
        section_top_tipo: 'oh1',
      });
    } else if (shape === 1) {
      out.push({
        section_tipo: 'oh1',
        section_id: id,
        component_tipo: 'rsc36',
        tag_id: tagId,
        type: 'dd96',
        section_top_tipo: 'oh1',
        section_top_id: id,
      });
    } else {
      out.push({ type: 'dd96', section_tipo: 'oh1', section_id: id, component_tipo: 'rsc36', tag_id: tagId });
    }
  }
  return JSON.stringify(out);
}

function termRelations(
  rng: Random,
  tld: string,
  t: ThesaurusPlan,
  j: number,
): { parent: string | null; children: string | null } {
  const p1 = t.parent1[j - 1]!;
  const p2 = t.parent2[j - 1]!;
  let parent: string | null = null;
  if (p2) parent = JSON.stringify([`${tld}_${p1}`, `${tld}_${p2}`]);
  else if (p1) parent = rng.chance(0.35) ? JSON.stringify([`${tld}_${p1}`]) : `${tld}_${p1}`;
  return { parent, children: locators(tld, inverseOf(t.children, j), rng.chance(0.8)) };
}

function* thesaurusRows(
  plan: Plan,
  tableName: string,
  tld: string,
  t: ThesaurusPlan,
  salt: number,
  langs: readonly Lang[] | null,
): Generator<Row> {
  const def = tableDef(tableName);
  for (let id = 1; id <= t.count; id++) {
    const rng = Random.for(plan.seed, salt, id);
    let term: (lang: Lang) => string;
    if (langs) {
      term = fillTemplate(rng.pick(THEME_TERMS), [randomNoun(rng), randomNoun(rng)], '');
    } else {
      const name = rng.chance(0.5) ? rng.pick(PLACES) : `${rng.pick(GIVEN_NAMES)} ${rng.pick(SURNAMES)}`;
      term = () => name;
    }
    const descriptor = rng.chance(0.9) ? 'yes' : 'no';
    const scope = rng.chance(0.5)
      ? fillTemplate(rng.pick(SCOPE_NOTES), [randomNoun(rng), randomNoun(rng)], '')
      : null;
    const index = descriptor === 'yes' && rng.chance(0.7) ? indexation(rng, plan) : null;
    const { parent, children } = termRelations(rng, tld, t, id);
    const common = {
      section_id: id,
      term_id: `${tld}_${id}`,
      parent,
      children,
      descriptor,
      norder: t.norder[id - 1]!,
      indexation: index,
    };
    for (const lang of langs ?? (['lg-spa'] as const)) {
      const row: Record<string, Cell> = {
        ...common,
        term: term(lang),
        scope_note: scope ? scope(lang) : null,
      };
      if (langs) row.lang = lang;
      yield toRow(def, row);
    }
  }
}

function* schemaRows(): Generator<Row> {
  const data = {
    interview: 'interview',
    informant: 'informant',
    image: 'image',
    audiovisual: 'audiovisual',
    dd_relations: { oh1: 'interview', rsc197: 'informant', rsc170: 'image', rsc35: 'audiovisual' },
  };
  yield toRow(tableDef('publication_schema'), { id: 1, data: JSON.stringify(data) });
}

function sum(values: ArrayLike<number>, f: (v: number) => number): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += f(values[i]!);
  return total;
}

/** The demo archive's tables, in load order, each with its exact row count and a row generator. */
export function demoDataset(opts: DemoOptions): DemoTable[] {
  const plan = makePlan(opts);
  const popcount = (flags: number) => 1 + (flags & LANG_ENG ? 1 : 0) + (flags & LANG_CAT ? 1 : 0);
  const themeLangs = ['lg-eng', 'lg-spa'] as const;
  return [
    { def: tableDef('publication_schema'), rowCount: 1, rows: schemaRows },
    { def: tableDef('interview'), rowCount: sum(plan.langs, popcount), rows: () => interviewRows(plan) },
    { def: tableDef('informant'), rowCount: plan.informants, rows: () => informantRows(plan) },
    { def: tableDef('image'), rowCount: plan.interviews, rows: () => imageRows(plan) },
    { def: tableDef('audiovisual'), rowCount: plan.interviews, rows: () => audiovisualRows(plan) },
    {
      def: tableDef('publications'),
      rowCount: plan.publications + sum(plan.publicationEnglish, (v) => v),
      rows: () => publicationRows(plan),
    },
    {
      def: tableDef('ts_themes'),
      rowCount: plan.themes.count * 2,
      rows: () => thesaurusRows(plan, 'ts_themes', 'ts1', plan.themes, SALT.themes, themeLangs),
    },
    {
      def: tableDef('ts_onomastic'),
      rowCount: plan.onomastic.count,
      rows: () => thesaurusRows(plan, 'ts_onomastic', 'on1', plan.onomastic, SALT.onomastic, null),
    },
  ];
}
