/**
 * The shape of an ontology as the loader takes it (the rows of the `dd_ontology` table, read by
 * ontology-store.ts, or the default content in default-ontology.json), as a zod schema: it is
 * checked against it when the ontology loads, and the TypeScript types of nodes come from it.
 */
import { z } from 'zod';
import { MATRIX_TABLES } from '../store/matrix-tables.js';

/** A tipo is a TLD (letters) followed by a number, e.g. `dd128`, `oh1`, `hierarchy25`. */
export const TIPO_PATTERN = /^[a-z]{2,32}[0-9]{1,9}$/;

/** Language codes as Dédalo writes them: `lg-` plus a code; `lg-nolan` means "no language". */
export const LANG_PATTERN = /^lg-[a-z]{2,8}$/;

/** A TLD: the letters a tipo starts with (`dd`, `oh`, `rsc`, `hierarchy`). */
export const TLD_PATTERN = /^[a-z]{2,32}$/;

/** The TLD of a tipo: its letters (`oh` for `oh14`). */
export function tldOf(tipoValue: string): string {
  return tipoValue.replace(/[0-9]+$/, '');
}

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
  /**
   * Relation components: the sections their locators point into. A section with one target is a
   * virtual section of it (its components and table; load-ontology.ts).
   */
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
  /** The TLD registry: every TLD a node's tipo starts with must be listed (when given). */
  tlds: z
    .array(
      z.strictObject({ tld: z.string().regex(TLD_PATTERN, 'not a TLD (letters)'), name: z.string().min(1) }),
    )
    .optional(),
  /** Every element; the order of siblings in this list is their order in the ontology. */
  nodes: z.array(ontologyNodeSchema).min(1),
});

export type OntologyNode = z.output<typeof ontologyNodeSchema>;
export type OntologySeed = z.input<typeof ontologySeedSchema>;
