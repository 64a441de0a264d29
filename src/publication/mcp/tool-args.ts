/**
 * The arguments MCP tools share (db, table, filters, sort, fields, paging, relations) as zod
 * schemas, and their translation into the QueryParams map the REST validators read. Bounds are
 * only documented here (JSON Schema minimum/maximum taken from query/bounds.ts); the shared
 * validators enforce them, so an agent gets the very message a REST client gets for the same
 * mistake. zod checks only the JSON types, and refuses unknown arguments as REST refuses
 * unknown parameters.
 */
import * as z from 'zod';
import { FILTER_OPS } from '../db/types.js';
import { ProblemCollector } from '../problems.js';
import { BOUNDS, LANG_PATTERN } from '../query/bounds.js';
import type { QueryParams } from '../query/query-string.js';
import { RESOLVE_INVERSE, RESOLVE_RELATIONS } from '../query/relation-params.js';

/**
 * A tool's arguments. Unknown ones are refused, as REST refuses unknown parameters, so a typo
 * (`limt`) is not silently ignored; the message lists what the tool accepts.
 */
export function toolInput<S extends z.ZodRawShape>(shape: S) {
  const accepted = Object.keys(shape);
  const takes =
    accepted.length > 0 ? `this tool accepts ${accepted.join(', ')}` : 'this tool takes no arguments';
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown argument ${issue.keys.map((k) => `"${k}"`).join(', ')}; ${takes}`
        : undefined,
  });
}

/** A whole number documented with its bounds but judged by the shared validators. */
export function integerArg(
  description: string,
  bounds: { min?: number; max?: number; default?: number } = {},
) {
  return z
    .number()
    .optional()
    .meta({
      type: 'integer',
      description,
      ...(bounds.min !== undefined ? { minimum: bounds.min } : {}),
      ...(bounds.max !== undefined ? { maximum: bounds.max } : {}),
      ...(bounds.default !== undefined ? { default: bounds.default } : {}),
    });
}

/** `db`, described with this server's default so an agent can usually leave it out. */
export function dbArg(dbNames: readonly string[]) {
  const fallback = dbNames[0] === undefined ? '' : `; default ${dbNames[0]}`;
  return z
    .string()
    .optional()
    .describe(`Database name (see list_databases)${fallback}. Published: ${dbNames.join(', ') || 'none'}.`);
}

export type DbArg = ReturnType<typeof dbArg>;

export const tableArg = z
  .string()
  .describe('Table name, as listed by get_schema (for example interview, informant, ts_themes).');

export const idArg = z
  .number()
  .meta({ type: 'integer', minimum: BOUNDS.id.min, description: 'The record id (section_id).' });

export const langArg = z.string().optional().meta({
  pattern: LANG_PATTERN.source,
  description:
    'Language variant such as lg-spa, lg-eng, lg-cat. Only for tables with a lang column; without it every language comes back.',
});

const listArg = (what: string) =>
  z
    .union([z.array(z.string()), z.string()])
    .optional()
    .describe(what);

export const fieldsArg = listArg(
  `Columns to return (an array, or a comma-separated string); default all. At most ${BOUNDS.fields.maxColumns}.`,
);

export const sortArg = listArg(
  `Columns to sort by, a leading - for descending (["-date", "section_id"] or "-date,section_id"). At most ${BOUNDS.sort.maxTerms}; ties are broken by section_id, lang.`,
);

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const filtersArg = z
  .array(
    z.strictObject({
      field: z.string().describe('Column name.'),
      op: z.enum(FILTER_OPS).optional().describe('Operator; default eq. like takes SQL % and _ wildcards.'),
      value: z
        .union([scalar, z.array(scalar)])
        .optional()
        .describe(
          'The value; an array for in / not_in; leave it out for is_null / is_not_null. Values of numeric columns must be numbers.',
        ),
    }),
  )
  .optional()
  .describe(
    `Conditions ANDed together (there is no OR), e.g. [{"field":"lang","op":"eq","value":"lg-spa"},{"field":"section_id","op":"in","value":[1,2,3]}]. At most ${BOUNDS.filters.maxClauses} conditions and ${BOUNDS.filters.maxListItems} values per in list.`,
  );

export const relationsArg = z
  .strictObject({
    resolve_relations: z
      .union([z.literal('auto'), z.record(z.string(), z.string())])
      .optional()
      .describe(
        'Replace relation cells with the rows they point to: "auto" follows every link column, or map column -> target table ("table" or "table.column"); dotted keys resolve nested relations ({"informant":"informant","informant.image":"image"}).',
      ),
    resolve_inverse_relations: z
      .union([z.boolean(), z.record(z.string(), z.string())])
      .optional()
      .describe(
        'Resolve the dd_relations column (records that point at this one): true uses the publication schema, or map section_tipo (or column) -> table.',
      ),
  })
  .optional()
  .describe(
    `Relation resolution, at most ${BOUNDS.relations.maxDepth} levels deep. Resolved columns must be among fields when fields is given.`,
  );

export type FilterArg = NonNullable<z.output<typeof filtersArg>>[number];
export type RelationsArg = z.output<typeof relationsArg>;

/**
 * Collects the structured arguments into the parameter map the REST validators read. What can
 * only go wrong on this side (an array where a single value belongs, say) is reported in the
 * same problem shape, named after the argument (`filters[2].value`).
 */
export class ParamsBuilder {
  private readonly params: QueryParams = new Map();
  private readonly problems = new ProblemCollector();

  private add(name: string, value: string): void {
    const list = this.params.get(name);
    if (list) list.push(value);
    else this.params.set(name, [value]);
  }

  set(name: string, value: string | number | boolean | undefined): this {
    if (value !== undefined) this.add(name, String(value));
    return this;
  }

  /** `fields` and `sort`: an array is joined with commas, as REST writes them. */
  list(name: string, value: string | string[] | undefined): this {
    if (value !== undefined) this.add(name, Array.isArray(value) ? value.join(',') : value);
    return this;
  }

  filters(filters: FilterArg[] | undefined): this {
    for (const [i, f] of (filters ?? []).entries()) {
      const op = f.op ?? 'eq';
      const where = `filters[${i}].value`;
      const key = `filter[${f.field}][${op}]`;
      if (op === 'is_null' || op === 'is_not_null') {
        if (f.value !== undefined && f.value !== '') {
          this.problems.add(where, `${op} takes no value; leave value out`, 'body');
        } else this.add(key, '');
      } else if (f.value === undefined) {
        this.problems.add(where, `op ${op} needs a value`, 'body');
      } else if (Array.isArray(f.value)) {
        const items = f.value.map(String);
        if (op !== 'in' && op !== 'not_in') {
          this.problems.add(where, `an array value needs op in or not_in (op is ${op})`, 'body');
        } else if (items.some((item) => item.includes('|'))) {
          // REST joins in-lists with |, so a value holding one would silently split in two.
          this.problems.add(where, 'in / not_in values cannot contain the | character', 'body');
        } else this.add(key, items.join('|'));
      } else this.add(key, String(f.value));
    }
    return this;
  }

  relations(relations: RelationsArg): this {
    const forward = relations?.resolve_relations;
    if (forward !== undefined)
      this.add(RESOLVE_RELATIONS, forward === 'auto' ? forward : JSON.stringify(forward));
    const inverse = relations?.resolve_inverse_relations;
    if (inverse !== undefined) {
      this.add(RESOLVE_INVERSE, typeof inverse === 'boolean' ? String(inverse) : JSON.stringify(inverse));
    }
    return this;
  }

  /** The parameter map; throws a ValidationError naming every argument that could not be mapped. */
  build(): QueryParams {
    this.problems.throwIfAny();
    return this.params;
  }
}
