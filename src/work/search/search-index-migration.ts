/**
 * Migration 4: what lets an SQO filter avoid scanning every record.
 *
 * - `matrix_string_search`: one row per literal string value (input_text, text_area, email ...)
 *   of every record of every matrix table, normalised as lower(unaccent(value)), with a GIN
 *   trigram index, so "contains", "begins with", "ends with" and "exact" (LIKE patterns) are
 *   answered from the index. Passwords (dd133) are never copied.
 * - `matrix_number_search`: one row per number value (the `number` column) and per date (the
 *   `date` column, its start as virtual-calendar seconds), with a btree on (component, value),
 *   so comparisons and ranges are index range scans.
 * - Row triggers on each matrix table keep both in step with the record inside the writing
 *   transaction (a statement trigger cleans up after TRUNCATE); existing rows are copied in.
 * - `work_jsonb_numeric` and `work_date_time`: the safe casts (a malformed stored value is NULL,
 *   never an error), IMMUTABLE so they are plannable.
 * - Membership in relation components uses the `relation jsonb_path_ops` GIN index of each
 *   matrix table (containment `@>`). GIN indexes are switched to fastupdate = off: entries go
 *   straight into the index instead of a pending list that every search would scan whole (and
 *   the planner prices as such, so it would avoid the index).
 */
import { MATRIX_TABLES, MATRIX_TABLES_V1 } from '../store/matrix-tables.js';
import type { Migration } from '../store/migration.js';

/** The component whose values are never indexed (component_password). */
export const PASSWORD_TIPO = 'dd133';

/** Items of one component value (`c.value`), or none when it is not an array. */
const itemsOf = (value: string) =>
  `jsonb_array_elements(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]'::jsonb END)`;

const objectOf = (column: string) =>
  `jsonb_each(CASE WHEN jsonb_typeof(${column}) = 'object' THEN ${column} ELSE '{}'::jsonb END)`;

/** The side-table rows of one record (`record` is NEW in the trigger, a table alias in the copy). */
const stringRowsOf = (record: string, from = '') => `
  SELECT ${record}.section_tipo, ${record}.section_id, c.key,
         COALESCE(NULLIF(i.item ->> 'lang', ''), 'lg-nolan'), lower(unaccent(i.item ->> 'value'))
  FROM ${from}${objectOf(`${record}.string`)} AS c
  CROSS JOIN LATERAL ${itemsOf('c.value')} AS i(item)
  WHERE c.key <> '${PASSWORD_TIPO}' AND jsonb_typeof(i.item -> 'value') = 'string'`;

const numberRowsOf = (record: string, from = '') => `
  SELECT ${record}.section_tipo, ${record}.section_id, c.key, work_jsonb_numeric(i.item -> 'value')
  FROM ${from}${objectOf(`${record}.number`)} AS c
  CROSS JOIN LATERAL ${itemsOf('c.value')} AS i(item)
  WHERE work_jsonb_numeric(i.item -> 'value') IS NOT NULL
  UNION ALL
  SELECT ${record}.section_tipo, ${record}.section_id, c.key, work_date_time(i.item -> 'start')
  FROM ${from}${objectOf(`${record}.date`)} AS c
  CROSS JOIN LATERAL ${itemsOf('c.value')} AS i(item)
  WHERE work_date_time(i.item -> 'start') IS NOT NULL`;

const STRING_COLUMNS = '(section_tipo, section_id, component_tipo, lang, value_norm)';
const NUMBER_COLUMNS = '(section_tipo, section_id, component_tipo, value)';

/** A row trigger function refreshing one side table from the record's columns. */
const syncFunction = (name: string, table: string, columns: string, rows: string) =>
  `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' OR TG_OP = 'DELETE' THEN
        DELETE FROM ${table} WHERE section_tipo = OLD.section_tipo AND section_id = OLD.section_id;
      END IF;
      IF TG_OP = 'UPDATE' OR TG_OP = 'INSERT' THEN
        INSERT INTO ${table} ${columns}
        ${rows};
      END IF;
      RETURN NULL;
    END
    $$`;

const orphaned = (alias: string, tables: readonly string[] = MATRIX_TABLES_V1) =>
  tables
    .map(
      (t) =>
        `NOT EXISTS (SELECT 1 FROM ${t} m WHERE m.section_tipo = ${alias}.section_tipo AND m.section_id = ${alias}.section_id)`,
    )
    .join(' AND ');

export const SEARCH_INDEX_MIGRATION: Migration = {
  version: 4,
  name: 'search indexes: side tables for strings (trigram) and numbers/dates (btree), safe casts',
  statements: [
    // A JSON number, or a string holding a plain decimal number; anything else NULL.
    `CREATE FUNCTION work_jsonb_numeric(v jsonb) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE
        WHEN jsonb_typeof(v) = 'number' THEN (v #>> '{}')::numeric
        WHEN jsonb_typeof(v) = 'string' AND (v #>> '{}') ~ '^\\s*-?[0-9]{1,30}(\\.[0-9]{1,30})?\\s*$'
          THEN trim(v #>> '{}')::numeric
      END
    $$`,
    // Dédalo's virtual-calendar seconds of a date object {year, month?, day?, hour?, minute?,
    // second?, time?}: its stored time when it is a number, computed from the parts otherwise.
    `CREATE FUNCTION work_date_time(d jsonb) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE
        WHEN jsonb_typeof(d) <> 'object' THEN NULL
        WHEN jsonb_typeof(d -> 'time') = 'number' THEN (d ->> 'time')::numeric
        WHEN work_jsonb_numeric(d -> 'year') IS NULL THEN NULL
        ELSE ((work_jsonb_numeric(d -> 'year') * 372
               + (COALESCE(work_jsonb_numeric(d -> 'month'), 1) - 1) * 31
               + (COALESCE(work_jsonb_numeric(d -> 'day'), 1) - 1)) * 86400
              + COALESCE(work_jsonb_numeric(d -> 'hour'), 0) * 3600
              + COALESCE(work_jsonb_numeric(d -> 'minute'), 0) * 60
              + COALESCE(work_jsonb_numeric(d -> 'second'), 0))
      END
    $$`,
    `CREATE TABLE matrix_string_search (
      section_tipo text NOT NULL,
      section_id integer NOT NULL,
      component_tipo text NOT NULL,
      lang text NOT NULL,
      value_norm text NOT NULL
    )`,
    `CREATE INDEX matrix_string_search_record ON matrix_string_search
      (section_tipo, section_id, component_tipo)`,
    `CREATE INDEX matrix_string_search_trgm ON matrix_string_search
      USING gin (value_norm gin_trgm_ops) WITH (fastupdate = off)`,
    `CREATE TABLE matrix_number_search (
      section_tipo text NOT NULL,
      section_id integer NOT NULL,
      component_tipo text NOT NULL,
      value numeric NOT NULL
    )`,
    'CREATE INDEX matrix_number_search_record ON matrix_number_search (section_tipo, section_id)',
    'CREATE INDEX matrix_number_search_value ON matrix_number_search (component_tipo, value)',
    ...MATRIX_TABLES_V1.map((t) => `ALTER INDEX ${t}_relation_gin SET (fastupdate = off)`),
    syncFunction('matrix_string_search_sync', 'matrix_string_search', STRING_COLUMNS, stringRowsOf('NEW')),
    syncFunction('matrix_number_search_sync', 'matrix_number_search', NUMBER_COLUMNS, numberRowsOf('NEW')),
    // A TRUNCATE fires no row trigger: drop what no matrix table holds any more.
    `CREATE FUNCTION matrix_search_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM matrix_string_search s WHERE ${orphaned('s')};
      DELETE FROM matrix_number_search n WHERE ${orphaned('n')};
      RETURN NULL;
    END
    $$`,
    ...MATRIX_TABLES_V1.flatMap(searchTriggers),
  ],
};

/**
 * The triggers keeping the search side tables in step with one matrix table (a table added by a
 * later migration gets them from there), then its existing rows copied in.
 */
export function searchTriggers(t: string): string[] {
  return [
    `CREATE TRIGGER ${t}_string_search
        AFTER INSERT OR DELETE OR UPDATE OF string, section_tipo, section_id ON ${t}
        FOR EACH ROW EXECUTE FUNCTION matrix_string_search_sync()`,
    `CREATE TRIGGER ${t}_number_search
        AFTER INSERT OR DELETE OR UPDATE OF number, date, section_tipo, section_id ON ${t}
        FOR EACH ROW EXECUTE FUNCTION matrix_number_search_sync()`,
    `CREATE TRIGGER ${t}_search_truncate
        AFTER TRUNCATE ON ${t}
        FOR EACH STATEMENT EXECUTE FUNCTION matrix_search_truncate()`,
    // Records written before this migration.
    `INSERT INTO matrix_string_search ${STRING_COLUMNS} ${stringRowsOf('r', `${t} AS r CROSS JOIN LATERAL `)}`,
    `INSERT INTO matrix_number_search ${NUMBER_COLUMNS} ${numberRowsOf('r', `${t} AS r CROSS JOIN LATERAL `)}`,
  ];
}

/** The TRUNCATE clean-up naming every matrix table (replaced when a table is added). */
export function searchTruncateFunction(): string {
  return `CREATE OR REPLACE FUNCTION matrix_search_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM matrix_string_search s WHERE ${orphaned('s', MATRIX_TABLES)};
      DELETE FROM matrix_number_search n WHERE ${orphaned('n', MATRIX_TABLES)};
      RETURN NULL;
    END
    $$`;
}
