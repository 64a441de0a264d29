/**
 * Migration 4: what lets an SQO filter avoid scanning every record.
 *
 * - `matrix_string_search`: one row per literal string value (input_text, text_area, email ...)
 *   of every record of every matrix table, normalised as lower(unaccent(value)), with a GIN
 *   trigram index, so "contains", "begins with", "ends with" and "exact" (LIKE patterns) are
 *   answered from the index. A row trigger on each matrix table keeps it in step with the
 *   `string` column inside the writing transaction; passwords (dd133) are never copied.
 * - `work_jsonb_numeric` and `work_date_time`: the safe casts number and date filters use
 *   (a malformed stored value is NULL, never an error), IMMUTABLE so they are plannable.
 * - Membership in relation components uses the existing `relation jsonb_path_ops` GIN index of
 *   each matrix table (containment `@>`), so it needs nothing new here.
 */
import { MATRIX_TABLES } from '../store/matrix-tables.js';
import type { Migration } from '../store/migrations.js';

/** The component whose values are never indexed (component_password, WORK-MODEL.md). */
const PASSWORD_TIPO = 'dd133';

/** The rows of one record's `string` column, as the side table stores them. */
const stringRowsOf = (record: string) => `
  SELECT ${record}.section_tipo, ${record}.section_id, c.key,
         COALESCE(NULLIF(i.item ->> 'lang', ''), 'lg-nolan'), lower(unaccent(i.item ->> 'value'))
  FROM jsonb_each(CASE WHEN jsonb_typeof(${record}.string) = 'object'
                       THEN ${record}.string ELSE '{}'::jsonb END) AS c
  CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(c.value) = 'array'
                                               THEN c.value ELSE '[]'::jsonb END) AS i(item)
  WHERE c.key <> '${PASSWORD_TIPO}' AND jsonb_typeof(i.item -> 'value') = 'string'`;

export const SEARCH_INDEX_MIGRATION: Migration = {
  version: 4,
  name: 'search indexes: normalised string side table with trigram index, safe casts',
  statements: [
    `CREATE TABLE matrix_string_search (
      section_tipo text NOT NULL,
      section_id integer NOT NULL,
      component_tipo text NOT NULL,
      lang text NOT NULL,
      value_norm text NOT NULL
    )`,
    `CREATE INDEX matrix_string_search_record ON matrix_string_search
      (section_tipo, section_id, component_tipo)`,
    // fastupdate off: entries go straight into the index instead of a pending list, which
    // searches would scan whole (and the planner prices as such, so it would avoid the index).
    `CREATE INDEX matrix_string_search_trgm ON matrix_string_search
      USING gin (value_norm gin_trgm_ops) WITH (fastupdate = off)`,
    // The same for the relation indexes of migration 1 (membership filters, related mode).
    ...MATRIX_TABLES.map((t) => `ALTER INDEX ${t}_relation_gin SET (fastupdate = off)`),
    `CREATE FUNCTION matrix_string_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' OR TG_OP = 'DELETE' THEN
        DELETE FROM matrix_string_search
          WHERE section_tipo = OLD.section_tipo AND section_id = OLD.section_id;
      END IF;
      IF TG_OP = 'UPDATE' OR TG_OP = 'INSERT' THEN
        INSERT INTO matrix_string_search (section_tipo, section_id, component_tipo, lang, value_norm)
        ${stringRowsOf('NEW')};
      END IF;
      RETURN NULL;
    END
    $$`,
    // A TRUNCATE fires no row trigger: drop what no matrix table holds any more.
    `CREATE FUNCTION matrix_string_search_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM matrix_string_search s WHERE ${MATRIX_TABLES.map(
        (t) =>
          `NOT EXISTS (SELECT 1 FROM ${t} m WHERE m.section_tipo = s.section_tipo AND m.section_id = s.section_id)`,
      ).join(' AND ')};
      RETURN NULL;
    END
    $$`,
    ...MATRIX_TABLES.flatMap((t) => [
      `CREATE TRIGGER ${t}_string_search
        AFTER INSERT OR DELETE OR UPDATE OF string, section_tipo, section_id ON ${t}
        FOR EACH ROW EXECUTE FUNCTION matrix_string_search_sync()`,
      `CREATE TRIGGER ${t}_string_search_truncate
        AFTER TRUNCATE ON ${t}
        FOR EACH STATEMENT EXECUTE FUNCTION matrix_string_search_truncate()`,
      // Records written before this migration.
      `INSERT INTO matrix_string_search (section_tipo, section_id, component_tipo, lang, value_norm)
        ${stringRowsOf('r').replace('FROM jsonb_each', `FROM ${t} AS r CROSS JOIN LATERAL jsonb_each`)}`,
    ]),
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
  ],
};
