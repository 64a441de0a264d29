/**
 * Parses `resolve_relations` and `resolve_inverse_relations` into a neutral relation plan,
 * validated against the live schema before any SQL is written: every key, column and target
 * table named by the client must exist, so a typo is a 400 naming the parameter, not an empty
 * result. Both parameters are checked together and every problem is reported at once.
 *
 * resolve_relations: the word `auto` (follow every link column of the page), or a JSON object
 *   `{"<column>": "<table>" | "<table>.<column>" | "auto"}`; dotted keys (`informant.image`)
 *   resolve a column of the rows that their parent key produced, down to BOUNDS.relations.maxDepth.
 * resolve_inverse_relations: `true`/`1` (publication_schema's dd_relations map, read by the
 *   service), `false`/`0` (off), or a JSON object whose keys are section_tipos found in the
 *   `dd_relations` locators or, when the key is a column of the table, that column's locators.
 */
import type { DatabaseSchema, TableInfo } from '../db/types.js';
import { ProblemCollector } from '../problems.js';
import { BOUNDS, TABLE_NAME_PATTERN } from './bounds.js';
import type { QueryParams } from './query-string.js';
import { clip, singleParam } from './scalar-params.js';

export const RESOLVE_RELATIONS = 'resolve_relations';
export const RESOLVE_INVERSE = 'resolve_inverse_relations';
/** The column inverse resolution reads when keyed by section_tipo (and with `true`). */
export const DD_RELATIONS = 'dd_relations';

/** Where a relation cell's values lead. */
export type RelationTarget =
  /** Match each value of the cell against `column` of `table` (section_id for the table form). */
  | { kind: 'rows'; table: string; column: string }
  /** Each value is a link `{"table", "section_id"}`; the table is read from the cell itself. */
  | { kind: 'links' };

export interface RelationKey {
  /** The key as the client wrote it (`informant.image`). */
  key: string;
  /** The key whose resolved rows this one reads; absent for a column of the page itself. */
  parent?: string;
  depth: number;
  column: string;
  target: RelationTarget;
}

export type ForwardRelations =
  /** The bare word `auto`: every column of the page whose cells hold links. */
  | { mode: 'auto' }
  /** Keys ordered by depth, so a parent always comes before its children. */
  | { mode: 'keys'; keys: RelationKey[] };

export type InverseRelations =
  /** Use publication_schema's `dd_relations` map; the service reads and checks it. */
  | { mode: 'schema' }
  | {
      mode: 'map';
      /** section_tipo -> table, applied to the locators of `dd_relations`. */
      byTipo: Map<string, string>;
      /** column -> table: every locator (or id) of that column leads to the table. */
      byColumn: Map<string, string>;
    };

export interface RelationRequest {
  forward?: ForwardRelations;
  inverse?: InverseRelations;
}

const TIPO_PATTERN = /^[A-Za-z0-9_]{1,64}$/;
const FORWARD_EXAMPLE = '{"informant":"informant","image":"image.section_id","link":"auto"}';
const INVERSE_EXAMPLE = '{"oh1":"interview"}';

function isIdentifier(name: string): boolean {
  return name.length <= 64 && TABLE_NAME_PATTERN.test(name);
}

/** A JSON object from client text, or undefined after recording why it is not one. */
function parseJsonObject(
  name: string,
  raw: string,
  p: ProblemCollector,
  example: string,
): Record<string, unknown> | undefined {
  const max = BOUNDS.relations.maxParamLength;
  if (raw.length > max) {
    p.add(name, `${name} is ${raw.length} characters long; at most ${max}`);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    p.add(
      name,
      `${name} is not valid JSON (${(err as Error).message}); expected an object such as ${example}`,
    );
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    p.add(name, `${name} must be a JSON object such as ${example}, got ${clip(raw)}`);
    return undefined;
  }
  const entries = Object.keys(value);
  if (entries.length > BOUNDS.relations.maxKeys) {
    p.add(name, `${name} has ${entries.length} keys; at most ${BOUNDS.relations.maxKeys}`);
    return undefined;
  }
  return value as Record<string, unknown>;
}

/** A table that rows can be fetched from by section_id, or undefined after saying why not. */
function idTable(
  name: string,
  where: string,
  tableName: string,
  schema: DatabaseSchema,
  p: ProblemCollector,
) {
  const target = isIdentifier(tableName) ? schema.tables.get(tableName) : undefined;
  if (!target) {
    p.add(
      name,
      `${where}: unknown table "${clip(tableName)}"; tables: ${[...schema.tables.keys()].join(', ')}`,
    );
    return undefined;
  }
  if (!target.columnsByName.has('section_id')) {
    p.add(name, `${where}: table "${target.name}" has no section_id column, so its rows cannot be matched`);
    return undefined;
  }
  return target;
}

function parseTarget(
  key: string,
  value: unknown,
  schema: DatabaseSchema,
  p: ProblemCollector,
): RelationTarget | undefined {
  const where = `${RESOLVE_RELATIONS} key "${clip(key)}"`;
  if (typeof value !== 'string') {
    p.add(RESOLVE_RELATIONS, `${where}: the target must be a string (a table, table.column or auto)`);
    return undefined;
  }
  if (value === 'auto') return { kind: 'links' };
  const [tableName = '', column, ...rest] = value.split('.');
  if (rest.length > 0 || (column !== undefined && !isIdentifier(column))) {
    p.add(RESOLVE_RELATIONS, `${where}: target "${clip(value)}" must be a table, table.column or auto`);
    return undefined;
  }
  if (column === undefined) {
    const target = idTable(RESOLVE_RELATIONS, where, tableName, schema, p);
    return target && { kind: 'rows', table: target.name, column: 'section_id' };
  }
  const target = isIdentifier(tableName) ? schema.tables.get(tableName) : undefined;
  if (!target) {
    p.add(RESOLVE_RELATIONS, `${where}: unknown table "${clip(tableName)}"`);
    return undefined;
  }
  if (!target.columnsByName.has(column)) {
    p.add(
      RESOLVE_RELATIONS,
      `${where}: table "${target.name}" has no column "${column}"; columns: ${target.columns.map((c) => c.name).join(', ')}`,
    );
    return undefined;
  }
  return { kind: 'rows', table: target.name, column };
}

/** The page's own columns must be read to be resolved: a column left out by `fields` cannot be. */
function requireSelected(name: string, column: string, fields: string[] | undefined, p: ProblemCollector) {
  if (fields && !fields.includes(column)) {
    p.add(name, `${name} resolves column "${column}", which fields leaves out; add it to fields`);
    return false;
  }
  return true;
}

function parseForward(
  raw: string | undefined,
  table: TableInfo,
  schema: DatabaseSchema,
  fields: string[] | undefined,
  p: ProblemCollector,
): ForwardRelations | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'auto') return { mode: 'auto' };
  const obj = parseJsonObject(RESOLVE_RELATIONS, raw, p, FORWARD_EXAMPLE);
  if (!obj) return undefined;
  const given = new Set(Object.keys(obj));
  // Parents first, so a child can look up the table its parent leads to.
  const entries = Object.entries(obj)
    .map(([key, value]) => ({ key, value, segments: key.split('.') }))
    .sort((a, b) => a.segments.length - b.segments.length);
  const accepted = new Map<string, RelationKey>();
  for (const { key, value, segments } of entries) {
    const where = `${RESOLVE_RELATIONS} key "${clip(key)}"`;
    if (!segments.every(isIdentifier)) {
      p.add(RESOLVE_RELATIONS, `${where}: keys are column names, joined by dots for nested relations`);
      continue;
    }
    if (segments.length > BOUNDS.relations.maxDepth) {
      p.add(
        RESOLVE_RELATIONS,
        `${where} is ${segments.length} levels deep; at most ${BOUNDS.relations.maxDepth}`,
      );
      continue;
    }
    const column = segments[segments.length - 1]!;
    const parentKey = segments.length > 1 ? segments.slice(0, -1).join('.') : undefined;
    let source: TableInfo | undefined = table;
    if (parentKey !== undefined) {
      const parent = accepted.get(parentKey);
      if (!given.has(parentKey)) {
        p.add(RESOLVE_RELATIONS, `${where} needs its parent key "${parentKey}" in the same object`);
        continue;
      }
      if (!parent) continue; // the parent's own problem is already reported
      if (parent.target.kind === 'links') {
        p.add(
          RESOLVE_RELATIONS,
          `${where}: its parent "${parentKey}" is auto, whose target table differs per cell; name the table instead`,
        );
        continue;
      }
      source = schema.tables.get(parent.target.table);
    } else if (!requireSelected(RESOLVE_RELATIONS, column, fields, p)) {
      continue;
    }
    if (!source?.columnsByName.has(column)) {
      p.add(RESOLVE_RELATIONS, `${where}: table "${source?.name}" has no column "${column}"`);
      continue;
    }
    const target = parseTarget(key, value, schema, p);
    if (!target) continue;
    accepted.set(key, { key, parent: parentKey, depth: segments.length, column, target });
  }
  return { mode: 'keys', keys: [...accepted.values()] };
}

function parseInverse(
  raw: string | undefined,
  table: TableInfo,
  schema: DatabaseSchema,
  fields: string[] | undefined,
  p: ProblemCollector,
): InverseRelations | undefined {
  if (raw === undefined || raw === 'false' || raw === '0') return undefined;
  const requireDdRelations = (): boolean => {
    if (!table.columnsByName.has(DD_RELATIONS)) {
      p.add(
        RESOLVE_INVERSE,
        `table "${table.name}" has no ${DD_RELATIONS} column, so it has no inverse relations`,
      );
      return false;
    }
    return requireSelected(RESOLVE_INVERSE, DD_RELATIONS, fields, p);
  };
  if (raw === 'true' || raw === '1') return requireDdRelations() ? { mode: 'schema' } : undefined;
  if (!raw.trimStart().startsWith('{')) {
    p.add(
      RESOLVE_INVERSE,
      `${RESOLVE_INVERSE} must be true, 1, false, 0 or a JSON object such as ${INVERSE_EXAMPLE}`,
    );
    return undefined;
  }
  const obj = parseJsonObject(RESOLVE_INVERSE, raw, p, INVERSE_EXAMPLE);
  if (!obj) return undefined;
  const byTipo = new Map<string, string>();
  const byColumn = new Map<string, string>();
  let ok = true;
  for (const [key, value] of Object.entries(obj)) {
    const where = `${RESOLVE_INVERSE} key "${clip(key)}"`;
    if (!TIPO_PATTERN.test(key)) {
      p.add(RESOLVE_INVERSE, `${where}: keys are section_tipos (oh1, rsc197) or column names`);
      ok = false;
      continue;
    }
    if (typeof value !== 'string') {
      p.add(RESOLVE_INVERSE, `${where}: the target must be a table name (a string)`);
      ok = false;
      continue;
    }
    const target = idTable(RESOLVE_INVERSE, where, value, schema, p);
    if (!target) {
      ok = false;
      continue;
    }
    if (table.columnsByName.has(key)) {
      if (requireSelected(RESOLVE_INVERSE, key, fields, p)) byColumn.set(key, target.name);
      else ok = false;
    } else {
      byTipo.set(key, target.name);
    }
  }
  if (byTipo.size > 0 && !byColumn.has(DD_RELATIONS) && !requireDdRelations()) ok = false;
  if (!ok || byTipo.size + byColumn.size === 0) return undefined;
  return { mode: 'map', byTipo, byColumn };
}

/** The columns of the page that inverse resolution replaces. */
export function inverseColumns(inverse: InverseRelations): string[] {
  if (inverse.mode === 'schema') return [DD_RELATIONS];
  const columns = new Set(inverse.byColumn.keys());
  if (inverse.byTipo.size > 0) columns.add(DD_RELATIONS);
  return [...columns];
}

/**
 * Reads both relation parameters of a records (or search) request. `fields` is the already
 * parsed column list of the request, if any: resolved columns must be among the selected ones.
 * Returns undefined when neither parameter asks for anything; throws a ValidationError naming
 * every bad parameter otherwise.
 */
export function parseRelationParams(
  params: QueryParams,
  table: TableInfo,
  schema: DatabaseSchema,
  fields: string[] | undefined,
): RelationRequest | undefined {
  const p = new ProblemCollector();
  const forward = parseForward(
    p.try(() => singleParam(params, RESOLVE_RELATIONS)),
    table,
    schema,
    fields,
    p,
  );
  const inverse = parseInverse(
    p.try(() => singleParam(params, RESOLVE_INVERSE)),
    table,
    schema,
    fields,
    p,
  );
  if (forward?.mode === 'keys' && inverse) {
    const inverted = new Set(inverseColumns(inverse));
    for (const k of forward.keys) {
      if (k.depth === 1 && inverted.has(k.column)) {
        p.add(
          RESOLVE_INVERSE,
          `column "${k.column}" is resolved by both ${RESOLVE_RELATIONS} and ${RESOLVE_INVERSE}`,
        );
      }
    }
  }
  p.throwIfAny();
  const empty = forward?.mode === 'keys' && forward.keys.length === 0;
  if ((forward === undefined || empty) && inverse === undefined) return undefined;
  return { forward: empty ? undefined : forward, inverse };
}
