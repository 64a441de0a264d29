/**
 * The mapping file of a spreadsheet CSV import: which column fills which component, in which
 * language, and how a relation column finds its target records (docs/import-export.md,
 * "Mapping file"). Checked twice with precise errors: against the schema here, then against the
 * ontology and the file's header (`resolveMapping`).
 */
import { z } from 'zod';
import { componentSpec, type ValueKind } from '../components/component-values.js';
import { isComponentModel } from '../ontology/component-models.js';
import type { Ontology } from '../ontology/load-ontology.js';
import { LANG_PATTERN, TIPO_PATTERN } from '../ontology/ontology-schema.js';
import { importableProblem } from './cell-changes.js';
import { CollectionFileError } from './collection-file-error.js';
import { cellKindOf } from './dedalo-csv-format.js';

const tipo = z.string().regex(TIPO_PATTERN, 'not a tipo (letters then digits)');
const lang = z.string().regex(LANG_PATTERN, 'not a language code like lg-eng');

const matchSchema = z.discriminatedUnion('by', [
  /** The cell holds record ids of the target section. */
  z.strictObject({ by: z.literal('id'), section: tipo.optional() }),
  /** The cell holds the text of a key component of the target records (an informant's name). */
  z.strictObject({ by: z.literal('key'), section: tipo.optional(), component: tipo }),
]);

const columnSchema = z.union([
  tipo,
  z.strictObject({
    tipo,
    /** Translatable components: the language of this column (default: the mapping's `lang`). */
    lang: lang.optional(),
    /** Several values in one cell, split on this text (e.g. "|"). */
    separator: z.string().min(1).max(8).optional(),
    /** Relation components: how the cell finds its targets (default: by id). */
    match: matchSchema.optional(),
  }),
]);

export const mappingSchema = z.strictObject({
  /** The section the rows become records of. */
  section_tipo: tipo,
  /** The language of translatable columns that do not name theirs. */
  lang: lang.optional(),
  /** A column holding record ids: rows with one update that record (created if missing). */
  id_column: z.string().min(1).optional(),
  /** File column name → component. Columns of the file not listed are ignored. */
  columns: z.record(z.string().min(1), columnSchema),
});

export type ColumnMappingFile = z.output<typeof mappingSchema>;

/** A mapped column, checked and resolved against the ontology and the file. */
export interface MappedColumn {
  /** 1-based column of the file. */
  index: number;
  name: string;
  tipo: string;
  kind: ValueKind | 'stored';
  /** The language its values are stored under (translatable), or undefined. */
  lang?: string;
  separator?: string;
  match?: { by: 'id'; section: string } | { by: 'key'; section: string; component: string };
}

export interface ResolvedMapping {
  sectionTipo: string;
  /** 1-based column of record ids, if any. */
  idColumn?: number;
  columns: MappedColumn[];
  /** File columns the mapping does not use. */
  ignored: string[];
}

const fail = (message: string): never => {
  throw new CollectionFileError('mapping', message);
};

/** The mapping file's JSON, checked against the schema (every problem listed with its path). */
export function parseMapping(json: string | unknown): ColumnMappingFile {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (error) {
      fail(`the mapping file is not JSON: ${(error as Error).message}`);
    }
  }
  const parsed = mappingSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    fail(`the mapping file does not fit its schema: ${problems.join('; ')}`);
  }
  return parsed.data!;
}

/** Checks a mapping against the ontology and the file's header row (trimmed column names). */
export function resolveMapping(
  ontology: Ontology,
  mapping: ColumnMappingFile,
  header: readonly string[],
): ResolvedMapping {
  const sectionTipo = mapping.section_tipo;
  if (ontology.node(sectionTipo)?.model !== 'section')
    fail(`section_tipo: ${sectionTipo} is not a section of the ontology`);
  const components = new Set(ontology.sectionEditComponents(sectionTipo).map((n) => n.tipo));
  const names = header.map((h) => h.trim());
  const indexOf = (name: string, path: string): number => {
    const at = names.indexOf(name);
    if (at < 0)
      fail(`${path}: the file has no column "${name}" (its columns: ${names.join(', ').slice(0, 300)})`);
    if (names.indexOf(name, at + 1) >= 0) fail(`${path}: the file has several columns named "${name}"`);
    return at + 1;
  };
  if (mapping.lang !== undefined && !ontology.isLanguage(mapping.lang)) {
    fail(`lang: ${mapping.lang} is not a language of this archive`);
  }
  const idColumn = mapping.id_column === undefined ? undefined : indexOf(mapping.id_column, 'id_column');
  const columns: MappedColumn[] = [];
  const targets = new Set<string>();
  for (const [name, raw] of Object.entries(mapping.columns)) {
    const path = `columns["${name}"]`;
    const entry = typeof raw === 'string' ? { tipo: raw } : raw;
    const index = indexOf(name, path);
    if (index === idColumn) fail(`${path}: the id column cannot also fill a component`);
    const node = ontology.node(entry.tipo);
    if (!node) fail(`${path}: ${entry.tipo} is not in the ontology`);
    if (!components.has(entry.tipo)) fail(`${path}: ${entry.tipo} is not a component of ${sectionTipo}`);
    const problem = importableProblem(node!);
    if (problem) fail(`${path}: ${problem}`);
    const spec = isComponentModel(node!.model) ? componentSpec(ontology, node!) : undefined;
    const column: MappedColumn = { index, name, tipo: entry.tipo, kind: cellKindOf(node!.model) };
    if ('separator' in entry && entry.separator !== undefined) column.separator = entry.separator;
    const entryLang = 'lang' in entry ? entry.lang : undefined;
    if (spec?.translatable) {
      const chosen = entryLang ?? mapping.lang;
      if (chosen === undefined)
        fail(`${path}: ${entry.tipo} is translatable: name the column's language (lang)`);
      if (!ontology.isLanguage(chosen!)) fail(`${path}: ${chosen} is not a language of this archive`);
      column.lang = chosen;
    } else if (entryLang !== undefined) {
      fail(`${path}: ${entry.tipo} is not translatable, so its column has no language`);
    }
    const match = 'match' in entry ? entry.match : undefined;
    if (spec?.kind === 'relation') {
      const section = match?.section ?? (spec.targets.length === 1 ? spec.targets[0] : undefined);
      if (section === undefined) {
        fail(
          `${path}: ${entry.tipo} links to ${spec.targets.join(', ')}: name the target section (match.section)`,
        );
      }
      if (!spec.targets.includes(section!)) {
        fail(`${path}: ${entry.tipo} links only to ${spec.targets.join(', ')}, not to ${section}`);
      }
      if (match?.by === 'key') {
        const key = ontology.node(match.component);
        const keyIsText =
          key !== undefined &&
          ontology.isComponentOf(match.component, section!) &&
          isComponentModel(key.model) &&
          componentSpec(ontology, key).kind === 'text';
        if (!keyIsText) {
          fail(`${path}: match.component ${match.component} is not a text component of ${section}`);
        }
        column.match = { by: 'key', section: section!, component: match.component };
      } else column.match = { by: 'id', section: section! };
    } else if (match !== undefined) {
      fail(`${path}: ${entry.tipo} is not a relation, so its column has no match`);
    }
    const target = `${entry.tipo}/${column.lang ?? ''}`;
    if (targets.has(target)) {
      fail(`${path}: another column already fills ${entry.tipo}${column.lang ? ` in ${column.lang}` : ''}`);
    }
    targets.add(target);
    columns.push(column);
  }
  const used = new Set([idColumn, ...columns.map((c) => c.index)]);
  const ignored = names.filter((_, i) => !used.has(i + 1));
  return { sectionTipo, ...(idColumn === undefined ? {} : { idColumn }), columns, ignored };
}
