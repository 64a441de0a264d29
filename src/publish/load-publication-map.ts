/**
 * Loads the publication map (the default one, or the JSON file PUBLICATION_MAP names), checks it
 * with zod and then against the ontology, and derives what the writers need from it: the table
 * definitions (columns, primary key, full-text columns) and the `publication_schema` document.
 * Every problem is reported at once, each line naming the entry, so an operator fixes a map in
 * one go; an invalid map stops the run before anything is written.
 */
import { readFileSync } from 'node:fs';
import type { TableDef } from '../demo/schema.js';
import { componentSpec, type ValueKind } from '../work/components/component-values.js';
import type { Ontology } from '../work/ontology/load-ontology.js';
import { DEFAULT_PUBLICATION_MAP } from './default-publication-map.js';
import {
  type ColumnMap,
  describeIssues,
  type PublicationMap,
  publicationMapSchema,
  type TableMap,
  type ValueKindName,
} from './publication-map-schema.js';

export class PublicationMapError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`publication map ${source} is invalid:\n  ${problems.join('\n  ')}`);
    this.name = 'PublicationMapError';
  }
}

/** The work value kinds each publication value kind can read. */
const READS: Record<ValueKindName, readonly ValueKind[]> = {
  text: ['text'],
  number: ['number', 'text'],
  date: ['date'],
  media: ['media'],
  ids: ['relation'],
  locators: ['relation'],
  term_ids: ['relation'],
  indexation: ['relation'],
  section_term_id: [],
};

/** Column names every table gets from the writer itself. */
const RESERVED = new Set(['section_id', 'lang', 'dd_relations']);

export interface CheckedMap {
  map: PublicationMap;
  tables: readonly TableMap[];
  /** The writers' table definitions, `publication_schema` first, in map order. */
  tableDefs: readonly TableDef[];
  /** The `publication_schema` row's JSON (docs/publishing.md). */
  publicationSchema: Record<string, unknown>;
  tableOf(sectionTipo: string): TableMap | undefined;
}

function checkColumn(
  ontology: Ontology,
  table: TableMap,
  column: ColumnMap,
  at: string,
  out: string[],
): void {
  if (RESERVED.has(column.name)) out.push(`${at}.name: "${column.name}" is written by the publisher itself`);
  if (column.component === undefined) return;
  let holder = table.section_tipo;
  if (column.via) {
    const via = ontology.node(column.via);
    if (!via) return void out.push(`${at}.via: ${column.via} is not in the ontology`);
    if (ontology.sectionOf(column.via)?.tipo !== table.section_tipo)
      return void out.push(`${at}.via: ${column.via} is not a component of ${table.section_tipo}`);
    const targets = via.target_section_tipo ?? [];
    if (targets.length !== 1)
      return void out.push(`${at}.via: ${column.via} must be a relation to exactly one section`);
    holder = targets[0]!;
  }
  const node = ontology.node(column.component);
  if (!node) return void out.push(`${at}.component: ${column.component} is not in the ontology`);
  if (ontology.sectionOf(node.tipo)?.tipo !== holder)
    return void out.push(`${at}.component: ${column.component} is not a component of ${holder}`);
  const spec = componentSpec(ontology, node);
  if (!READS[column.value].includes(spec.kind))
    out.push(`${at}.value: "${column.value}" cannot be read from ${column.component} (${spec.model})`);
}

function checkAgainstOntology(map: PublicationMap, ontology: Ontology): string[] {
  const out: string[] = [];
  const tableNames = new Set<string>();
  const sections = new Set<string>();
  map.languages.forEach((lang, i) => {
    if (!ontology.isLanguage(lang)) out.push(`languages[${i}]: ${lang} is not a language of the ontology`);
  });
  map.tables.forEach((table, t) => {
    const at = `tables[${t}]`;
    if (table.table === 'publication_schema') out.push(`${at}.table: publication_schema is reserved`);
    if (tableNames.has(table.table)) out.push(`${at}.table: ${table.table} is mapped twice`);
    tableNames.add(table.table);
    if (sections.has(table.section_tipo))
      out.push(`${at}.section_tipo: ${table.section_tipo} is mapped twice`);
    sections.add(table.section_tipo);
    const section = ontology.node(table.section_tipo);
    if (section?.model !== 'section') {
      out.push(
        `${at}.section_tipo: ${section ? `${table.section_tipo} is not a section` : `${table.section_tipo} is not in the ontology`}`,
      );
      return;
    }
    if (table.publishable) {
      const node = ontology.node(table.publishable);
      if (!node) out.push(`${at}.publishable: ${table.publishable} is not in the ontology`);
      else if (ontology.sectionOf(node.tipo)?.tipo !== table.section_tipo)
        out.push(`${at}.publishable: ${table.publishable} is not a component of ${table.section_tipo}`);
      else if (!(node.target_section_tipo ?? []).includes('dd64'))
        out.push(`${at}.publishable: ${table.publishable} must be a yes/no relation to dd64`);
    }
    const names = new Set<string>();
    table.columns.forEach((column, c) => {
      if (names.has(column.name)) out.push(`${at}.columns[${c}].name: ${column.name} appears twice`);
      names.add(column.name);
      checkColumn(ontology, table, column, `${at}.columns[${c}]`, out);
    });
  });
  return out;
}

function tableDefOf(table: TableMap): TableDef {
  const columns: { name: string; type: TableDef['columns'][number]['type'] }[] = [
    { name: 'section_id', type: 'int' },
  ];
  if (table.translatable) columns.push({ name: 'lang', type: 'varchar' });
  for (const c of table.columns) columns.push({ name: c.name, type: c.type });
  if (table.dd_relations) columns.push({ name: 'dd_relations', type: 'text' });
  return {
    name: table.table,
    columns,
    primaryKey: table.translatable ? ['section_id', 'lang'] : ['section_id'],
    fullText: table.columns.filter((c) => c.full_text).map((c) => c.name),
  };
}

export const PUBLICATION_SCHEMA_DEF: TableDef = {
  name: 'publication_schema',
  columns: [
    { name: 'id', type: 'int' },
    { name: 'data', type: 'text' },
  ],
  primaryKey: ['id'],
  fullText: [],
};

/**
 * `{<relation column>: <target table>, dd_relations: {<section_tipo>: <table>}}`: a column of ids
 * or locators whose component points into a published section resolves to that section's table.
 */
function publicationSchemaOf(map: PublicationMap, ontology: Ontology): Record<string, unknown> {
  const tableOf = new Map(map.tables.map((t) => [t.section_tipo, t.table]));
  const out: Record<string, unknown> = {};
  for (const table of map.tables) {
    for (const column of table.columns) {
      if ((column.value !== 'ids' && column.value !== 'locators') || column.via || !column.component)
        continue;
      const targets = ontology.node(column.component)?.target_section_tipo ?? [];
      const target = targets.map((t) => tableOf.get(t)).find((t) => t !== undefined);
      if (target && !(column.name in out)) out[column.name] = target;
    }
  }
  out.dd_relations = Object.fromEntries(tableOf);
  return out;
}

/** Checks a parsed-or-raw map; throws PublicationMapError listing every problem. */
export function checkPublicationMap(raw: unknown, ontology: Ontology, source = 'default map'): CheckedMap {
  const parsed = publicationMapSchema.safeParse(raw);
  if (!parsed.success) throw new PublicationMapError(source, describeIssues(parsed.error));
  const map = parsed.data;
  const problems = checkAgainstOntology(map, ontology);
  if (problems.length > 0) throw new PublicationMapError(source, problems);
  const bySection = new Map(map.tables.map((t) => [t.section_tipo, t]));
  return {
    map,
    tables: map.tables,
    tableDefs: [PUBLICATION_SCHEMA_DEF, ...map.tables.map(tableDefOf)],
    publicationSchema: publicationSchemaOf(map, ontology),
    tableOf: (sectionTipo) => bySection.get(sectionTipo),
  };
}

/** A map as read, before any check: the parsed JSON and where it came from (for messages). */
export interface PublicationMapSource {
  raw: unknown;
  source: string;
}

/** Reads the file at `path` (JSON) when given, else takes the default map; nothing is checked. */
export function readPublicationMap(path?: string): PublicationMapSource {
  if (!path) return { raw: DEFAULT_PUBLICATION_MAP, source: 'default map' };
  try {
    return { raw: JSON.parse(readFileSync(path, 'utf8')), source: path };
  } catch (err) {
    throw new PublicationMapError(path, [`cannot read it as JSON: ${(err as Error).message}`]);
  }
}

/** The map a run uses: the file at `path` (JSON) when given, else the default map. */
export function loadPublicationMap(ontology: Ontology, path?: string): CheckedMap {
  const { raw, source } = readPublicationMap(path);
  return checkPublicationMap(raw, ontology, source);
}
