/**
 * The rules a component's ontology node sets on the values a save may leave (docs/ontology.md,
 * "Properties users see"), judged in the save's transaction on the component's whole new value:
 *
 * - `properties.mandatory: true`: the component may not be left without a value in every
 *   language (400 `record.mandatory_empty`). Creating a record is not a save of it: a new record
 *   starts empty and gets its values afterwards.
 * - `properties.unique: true` (text and number components): no other record of the same section
 *   may hold one of its values (409 `record.duplicate_value`, naming that record and the value).
 *   Text compares after trimming surrounding whitespace and ignoring case (`OH-1` and ` oh-1 `
 *   are the same code); accents count. The check runs under a transaction-scoped advisory lock on
 *   (section, component), so two saves of one value to two records at once cannot both pass: the
 *   second waits for the first to commit, then sees its value.
 */
import type { ComponentSpec, ValueItem } from '../components/component-values.js';
import { labelOf } from '../context/element-context.js';
import { WorkError } from '../dispatch/error-registry.js';
import type { Ontology } from '../ontology/load-ontology.js';
import type { OntologyNode } from '../ontology/ontology-schema.js';
import { PASSWORD_TIPO } from '../search/search-index-migration.js';
import { inStringSearch } from '../search/string-search-tables.js';
import type { MatrixTable } from '../store/matrix-tables.js';
import type { RecordKey } from '../store/records.js';
import type { SqlQueryable } from '../store/sql-client.js';

/** The advisory lock namespace of unique checks (the first key of the two-key form). */
const UNIQUE_LOCK_NAMESPACE = 7_400_014;
/** The namespace of one compared value's lock (saves). */
const UNIQUE_VALUE_LOCK_NAMESPACE = 7_400_015;

export interface ComponentRules {
  mandatory: boolean;
  unique: boolean;
}

/** The rules of a component, from its node's properties (anything but `true` means no). */
export function componentRules(node: OntologyNode | undefined): ComponentRules {
  const properties = node?.properties ?? {};
  return { mandatory: properties.mandatory === true, unique: properties.unique === true };
}

/** Whether one stored item holds a value: a non-blank text, a number, a date part, a locator, a file. */
function itemHasValue(item: unknown): boolean {
  if (typeof item !== 'object' || item === null) return false;
  const { value, start, end, section_id } = item as ValueItem & {
    start?: unknown;
    end?: unknown;
    section_id?: unknown;
  };
  if (section_id !== undefined && section_id !== null) return true;
  if (start !== undefined && start !== null) return true;
  if (end !== undefined && end !== null) return true;
  if (typeof value === 'string') return value.trim() !== '';
  return value !== undefined && value !== null;
}

const describe = (ontology: Ontology, spec: ComponentSpec) => {
  const node = ontology.node(spec.tipo);
  return node ? `${spec.tipo} (${labelOf(node, 'lg-eng')})` : spec.tipo;
};

/** Refuses a new value of a mandatory component that holds nothing in any language. */
export function assertMandatoryFilled(
  ontology: Ontology,
  spec: ComponentSpec,
  items: readonly unknown[],
): void {
  if (!componentRules(ontology.node(spec.tipo)).mandatory) return;
  if (items.some(itemHasValue)) return;
  throw new WorkError(
    'record.mandatory_empty',
    `${describe(ontology, spec)} is mandatory: it cannot be left empty`,
    undefined,
    { section_tipo: spec.sectionTipo, component_tipo: spec.tipo },
  );
}

/** The values of the items a unique check compares: non-blank texts (trimmed) or numbers. */
export function comparedValues(spec: ComponentSpec, items: readonly unknown[]): (string | number)[] {
  const out: (string | number)[] = [];
  for (const item of items) {
    const value = (item as ValueItem | null)?.value;
    if (spec.kind === 'text' && typeof value === 'string' && value.trim() !== '') out.push(value.trim());
    if (spec.kind === 'number' && typeof value === 'number' && Number.isFinite(value)) out.push(value);
  }
  return [...new Set(out)];
}

/**
 * Refuses a new value of a unique component that another record of the section holds. Takes the
 * value locks first (lockUniqueValues); they are held until the transaction ends.
 */
export async function assertUniqueValues(
  tx: SqlQueryable,
  ontology: Ontology,
  table: MatrixTable,
  key: RecordKey,
  spec: ComponentSpec,
  items: readonly unknown[],
): Promise<void> {
  if (!isUniqueChecked(ontology, spec)) return;
  const values = comparedValues(spec, items);
  if (values.length === 0) return;
  await lockUniqueValues(tx, key.section_tipo, spec.tipo, values);
  const other = (await holdersOfValues(tx, table, key, spec, values, 1))[0];
  if (other) throw duplicateValueError(ontology, spec, key.section_tipo, other.section_id, other.value);
}

/** Whether saves of this component run the unique check. */
export function isUniqueChecked(ontology: Ontology, spec: ComponentSpec): boolean {
  return componentRules(ontology.node(spec.tipo)).unique && (spec.kind === 'text' || spec.kind === 'number');
}

/**
 * A save's locks: the (section, component) key shared, so an import's exclusive hold
 * (lockUniqueComponent) and the saves wait for each other, and each compared value's key
 * exclusive, in hash order (no deadlock between saves of several values): two saves wait for
 * each other only when they write the same value, instead of every save of the component in
 * the section queueing behind the one before it. Keys are computed as the check compares:
 * lower() of the trimmed text in the database, numbers by their JavaScript form.
 */
async function lockUniqueValues(
  tx: SqlQueryable,
  sectionTipo: string,
  tipo: string,
  values: readonly (string | number)[],
): Promise<void> {
  // One statement (a round trip less per save); the order between the shared key and the value
  // keys does not matter: an import never waits on a value key. The check runs in the next
  // statement, so its snapshot sees what a save that held a key before us committed.
  const component = `${sectionTipo}.${tipo}`;
  await tx.query(
    `SELECT pg_advisory_xact_lock_shared($1::integer, hashtext($2::text)),
       (SELECT count(*) FROM (SELECT pg_advisory_xact_lock($3::integer, h.k) FROM (
          SELECT DISTINCT hashtext($2::text || '|' || lower(v)) AS k FROM unnest($4::text[]) AS v
        ) h ORDER BY h.k) AS taken)`,
    [UNIQUE_LOCK_NAMESPACE, component, UNIQUE_VALUE_LOCK_NAMESPACE, values.map(String)],
  );
}

/**
 * The (section, component) advisory lock of unique checks, exclusive (an import's bulk check of
 * many values at once), held until the transaction ends.
 */
export async function lockUniqueComponent(
  tx: SqlQueryable,
  sectionTipo: string,
  tipo: string,
): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1::integer, hashtext($2::text))', [
    UNIQUE_LOCK_NAMESPACE,
    `${sectionTipo}.${tipo}`,
  ]);
}

/**
 * The records of the section (other than `key`) holding one of `values` (compared values), by
 * section_id; at most `limit` (the import's bulk path asks for all of a batch's values at once).
 */
export async function holdersOfValues(
  tx: SqlQueryable,
  table: MatrixTable,
  key: RecordKey,
  spec: ComponentSpec,
  values: readonly (string | number)[],
  limit?: number,
): Promise<{ section_id: number; value: string }[]> {
  const items_ = `CASE WHEN jsonb_typeof(m.${spec.column} -> $3::text) = 'array'
    THEN m.${spec.column} -> $3::text ELSE '[]'::jsonb END`;
  const match =
    spec.kind === 'text'
      ? `jsonb_typeof(i.item -> 'value') = 'string'
         AND lower(btrim(i.item ->> 'value')) = ANY(SELECT lower(v) FROM unnest($4::text[]) AS v)`
      : `jsonb_typeof(i.item -> 'value') = 'number'
         AND (i.item ->> 'value')::numeric = ANY($4::numeric[])`;
  // The records that may hold a value, from the search side tables' indexes (migrations 4 and
  // 16: `value_key` is md5 of the trimmed, lower-cased text; numbers as they are), compared exactly
  // by `match` on the record itself. Without it the check read the whole section's values.
  // One index probe per value (OFFSET 0 keeps the subquery from being flattened into a join):
  // with `= ANY(...)` and the statistics of a table an import is filling, the planner read every
  // value of the component through the index's first two columns (168 s of a 100k import).
  const candidates =
    spec.kind === 'text'
      ? `SELECT c.section_id FROM unnest($4::text[]) AS v(v), LATERAL (
           SELECT s.section_id FROM matrix_string_search s
           WHERE s.section_tipo = $1::text AND s.component_tipo = $3::text
             AND s.value_key = md5(lower(v.v)) OFFSET 0) AS c`
      : `SELECT c.section_id FROM unnest($4::numeric[]) AS v(v), LATERAL (
           SELECT n.section_id FROM matrix_number_search n
           WHERE n.component_tipo = $3::text AND n.value = v.v AND n.section_tipo = $1::text OFFSET 0) AS c`;
  // Every matrix table feeds the number side table, all but the activity log the string one
  // (search/string-search-tables.ts); passwords are never copied.
  const indexed = spec.kind === 'number' || (inStringSearch(table) && spec.tipo !== PASSWORD_TIPO);
  const probe = indexed ? `AND m.section_id IN (${candidates})` : '';
  const { rows } = await tx.query<{ section_id: number; value: string }>(
    `SELECT m.section_id, btrim(i.item ->> 'value') AS value
     FROM ${table} m, jsonb_array_elements(${items_}) AS i(item)
     WHERE m.section_tipo = $1::text AND m.section_id <> $2::integer ${probe} AND ${match}
     ORDER BY m.section_id${limit === undefined ? '' : ` LIMIT ${Number(limit)}`}`,
    [key.section_tipo, key.section_id, spec.tipo, values.map(String)],
  );
  return rows.map((r) => ({ section_id: Number(r.section_id), value: r.value }));
}

/** 409 record.duplicate_value: `value` of `spec` is already held by record `otherId`. */
export function duplicateValueError(
  ontology: Ontology,
  spec: ComponentSpec,
  sectionTipo: string,
  otherId: number,
  value: string,
): WorkError {
  return new WorkError(
    'record.duplicate_value',
    `${describe(ontology, spec)} must be unique: "${value}" is already held by record ${sectionTipo} ${otherId}`,
    undefined,
    {
      section_tipo: sectionTipo,
      section_id: otherId,
      component_tipo: spec.tipo,
      value: spec.kind === 'number' ? Number(value) : value,
    },
  );
}
