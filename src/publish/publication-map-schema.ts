/**
 * The publication map: which work sections become which publication tables, and which component
 * of a record fills which column, in what shape (docs/publishing.md). It is data, checked
 * with zod when a publish run starts; every problem names the entry (`tables[0].columns[3]`) and
 * the reason, and the cross-checks against the ontology (unknown tipos, a component of another
 * section) live in check-publication-map.ts.
 */
import { z } from 'zod';
import { LANG_PATTERN, TIPO_PATTERN } from '../work/ontology/ontology-schema.js';

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

const identifier = z.string().regex(IDENT, 'must match ^[A-Za-z_][A-Za-z0-9_]*$');
const tipo = z.string().regex(TIPO_PATTERN, 'must be a tipo such as oh14');

/**
 * How a component's stored items become one cell:
 * - `text`: the item values of the row's language (joined with " | "), falling back per `fallback`;
 * - `number`: the first value as a number (a numeric string is parsed, a time code such as
 *   `00:00:12` or `01:02:03.500` becomes seconds: durations);
 * - `date`: the start date as YYYY-MM-DD (YYYY-MM / YYYY when only those parts are known);
 * - `media`: the file path of the first media item;
 * - `ids`: a JSON array of the target section_ids (numbers);
 * - `locators`: a JSON array of `{section_tipo, section_id}`;
 * - `term_ids`: `<tipo>_<id>` of the first target, or a JSON array when there are several;
 * - `indexation`: a JSON array of indexation locators (type, tag_id, section_tipo, section_id,
 *   component_tipo, and section_top_* when stored);
 * - `section_term_id`: the record's own `<section_tipo>_<section_id>` (no component).
 */
export const VALUE_KINDS = [
  'text',
  'number',
  'date',
  'media',
  'ids',
  'locators',
  'term_ids',
  'indexation',
  'section_term_id',
] as const;
export type ValueKindName = (typeof VALUE_KINDS)[number];

export const COLUMN_TYPES = ['int', 'real', 'varchar', 'text', 'date'] as const;
export type PublishColumnType = (typeof COLUMN_TYPES)[number];

export const columnMapSchema = z
  .object({
    name: identifier,
    /** The component read; omitted only for `section_term_id`. */
    component: tipo.optional(),
    /**
     * Read the component on the first record this relation component of the section points at
     * (the interview's transcription lives on its audiovisual record: via oh25, component rsc36).
     */
    via: tipo.optional(),
    value: z.enum(VALUE_KINDS),
    type: z.enum(COLUMN_TYPES),
    full_text: z.boolean().default(false),
  })
  .strict()
  .refine((c) => (c.value === 'section_term_id') === (c.component === undefined), {
    message: 'component is required, except for value "section_term_id" which takes none',
  });

export const tableMapSchema = z
  .object({
    section_tipo: tipo,
    table: identifier,
    /** One row per language (a `lang` column); otherwise one row per record. */
    translatable: z.boolean(),
    /** A yes/no component (locator to dd64: 1 yes, 2 no); only "yes" records are published. */
    publishable: tipo.optional(),
    /** Adds the `dd_relations` column: locators of the published records pointing at this one. */
    dd_relations: z.boolean().default(false),
    columns: z.array(columnMapSchema).min(1),
  })
  .strict();

export const publicationMapSchema = z
  .object({
    version: z.literal(1),
    /** The languages rows are written in, in fallback order after the row's own language. */
    languages: z.array(z.string().regex(LANG_PATTERN, 'must be a language code such as lg-eng')).min(1),
    /**
     * When a translatable value has no item in the row's language: `first` takes the first
     * language of `languages` that has one (Dédalo's default-language fallback), `none` leaves it
     * NULL. A record gets a row for every language in which at least one translatable column has
     * its own value.
     */
    fallback: z.enum(['first', 'none']).default('first'),
    tables: z.array(tableMapSchema).min(1),
  })
  .strict();

export type ColumnMap = z.infer<typeof columnMapSchema>;
export type TableMap = z.infer<typeof tableMapSchema>;
export type PublicationMap = z.infer<typeof publicationMapSchema>;

/** zod issues as lines that name the entry, e.g. `tables[0].columns[2].value: Invalid option`. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path
      .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
      .join('');
    return `${path || '(map)'}: ${issue.message}`;
  });
}
