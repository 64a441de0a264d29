/**
 * The shape of the ontology seed, as a zod schema: the seed file is checked against it when the
 * ontology loads, and the TypeScript types of nodes come from it.
 */
import { z } from 'zod';
import { MATRIX_TABLES } from '../store/matrix-tables.js';

/** A tipo is a TLD (letters) followed by a number, e.g. `dd128`, `oh1`, `hierarchy25`. */
export const TIPO_PATTERN = /^[a-z]{2,32}[0-9]{1,9}$/;

/** Language codes as Dédalo writes them: `lg-` plus a code; `lg-nolan` means "no language". */
export const LANG_PATTERN = /^lg-[a-z]{2,8}$/;

const tipo = z.string().regex(TIPO_PATTERN, 'not a tipo (letters then digits)');
const lang = z.string().regex(LANG_PATTERN, 'not a language code like lg-eng');

export const ontologyNodeSchema = z.strictObject({
  tipo,
  /** null only for the root area. */
  parent: tipo.nullable(),
  model: z.string().min(1),
  /** Translated labels, by language code. */
  label: z.record(lang, z.string().min(1)),
  /** Components: data is stored per language (otherwise `lg-nolan`). */
  translatable: z.boolean().optional(),
  /** Relation components: the sections their locators point into. */
  target_section_tipo: z.array(tipo).min(1).optional(),
  /** Sections: the matrix table their records live in (default `matrix`). */
  matrix_table: z.enum(MATRIX_TABLES).optional(),
  /** Sections: records may be read but never written through the API (activity log). */
  read_only: z.boolean().optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
});

export const ontologySeedSchema = z.strictObject({
  /** Languages a client may choose for data and interface; `lg-nolan` is always included. */
  languages: z.array(z.strictObject({ code: lang, label: z.string().min(1) })).min(1),
  /** Every element; the order of siblings in this list is their order in the ontology. */
  nodes: z.array(ontologyNodeSchema).min(1),
});

export type OntologyNode = z.output<typeof ontologyNodeSchema>;
export type OntologySeed = z.input<typeof ontologySeedSchema>;
