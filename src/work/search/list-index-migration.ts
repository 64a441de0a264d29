/**
 * Migration 16: what lets a list page sorted by a component, or filtered by a prefix or a whole
 * value, read 50 index entries instead of every record (docs/work-sqo.md "Indexes").
 *
 * - `matrix_sort_key`: one row per record, component and language holding the value the record
 *   is ordered by (docs/work-sqo.md "Order"): for text, lower(unaccent()) of the first non-empty
 *   item of that language (`lang`), and of the first non-empty item whatever its language
 *   (`lang = '*'`, what an untranslatable component is ordered by), its first 256 characters;
 *   for numbers and dates (`lang = '*'`), the first item's number or virtual-calendar seconds.
 *   A btree per kind on (section, component, lang, key, section_id) gives a page in order from
 *   the index: ordering no longer reads the stored JSON of every selected record.
 * - A btree `text_pattern_ops` index on `matrix_string_search (component_tipo, left(value_norm,
 *   200))`:
 *   "begins with" (`abc*`) and "equal" (`==abc`) become range and equality scans. The trigram
 *   index alone read the posting lists of every leading trigram, which every code of a section
 *   shares ("INT-0123*": all 100k codes start with "int", "nt-", "t-0").
 * - `value_key` on matrix_string_search (md5 of the trimmed, lower-cased value) with a btree:
 *   the unique-value check of a save is an index lookup instead of a read of every record.
 * - Row triggers on every matrix table keep the sort keys in step inside the writing
 *   transaction (saves, imports, deletes, restores, duplicates: any statement writing the row),
 *   the TRUNCATE clean-up covers the new table, and existing rows are copied in.
 */
import { MATRIX_TABLES } from '../store/matrix-tables.js';
import type { Migration } from '../store/migration.js';
import { PATTERN_INDEX_CHARS, SORT_KEY_CHARS } from './index-limits.js';
import { PASSWORD_TIPO } from './search-index-migration.js';
import { inStringSearch } from './string-search-tables.js';

const itemsOf = (value: string) =>
  `jsonb_array_elements(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]'::jsonb END) WITH ORDINALITY`;

const objectOf = (column: string) =>
  `jsonb_each(CASE WHEN jsonb_typeof(${column}) = 'object' THEN ${column} ELSE '{}'::jsonb END)`;

/**
 * The sort-key rows of one record (`record` is NEW in the trigger, a table alias in the copy):
 * the first qualifying item per (component, language) by DISTINCT ON over the item order.
 */
const sortRowsOf = (record: string) => `
  SELECT ${record}.section_tipo, ${record}.section_id, k.component_tipo, k.lang, k.text_key, k.num_key
  FROM (
    SELECT * FROM (
      SELECT DISTINCT ON (c.key, l.lang) c.key AS component_tipo, l.lang,
        NULLIF(left(lower(unaccent(i.item ->> 'value')), ${SORT_KEY_CHARS}), '') AS text_key,
        NULL::numeric AS num_key
      FROM ${objectOf(`${record}.string`)} AS c
      CROSS JOIN LATERAL ${itemsOf('c.value')} AS i(item, n)
      CROSS JOIN LATERAL (VALUES ('*'), (i.item ->> 'lang')) AS l(lang)
      WHERE c.key <> '${PASSWORD_TIPO}' AND l.lang IS NOT NULL
        AND jsonb_typeof(i.item -> 'value') = 'string' AND i.item ->> 'value' <> ''
      ORDER BY c.key, l.lang, i.n
    ) t WHERE t.text_key IS NOT NULL
    UNION ALL
    SELECT * FROM (
      SELECT DISTINCT ON (c.key) c.key AS component_tipo, '*' AS lang, NULL::text AS text_key,
        work_jsonb_numeric(i.item -> 'value') AS num_key
      FROM ${objectOf(`${record}.number`)} AS c
      CROSS JOIN LATERAL ${itemsOf('c.value')} AS i(item, n)
      WHERE work_jsonb_numeric(i.item -> 'value') IS NOT NULL
      ORDER BY c.key, i.n
    ) nb
    UNION ALL
    SELECT * FROM (
      SELECT DISTINCT ON (c.key) c.key AS component_tipo, '*' AS lang, NULL::text AS text_key,
        work_date_time(i.item -> 'start') AS num_key
      FROM ${objectOf(`${record}.date`)} AS c
      CROSS JOIN LATERAL ${itemsOf('c.value')} AS i(item, n)
      WHERE work_date_time(i.item -> 'start') IS NOT NULL
      ORDER BY c.key, i.n
    ) dt
  ) k`;

/**
 * Migration 4's string side-table rows plus `value_key`, md5(lower(btrim(value))): the exact
 * comparison of unique components (records/component-rules.ts) as a fixed-size btree key.
 */
const stringRowsOf = (record: string) => `
  SELECT ${record}.section_tipo, ${record}.section_id, c.key,
         COALESCE(NULLIF(i.item ->> 'lang', ''), 'lg-nolan'), lower(unaccent(i.item ->> 'value')),
         md5(lower(btrim(i.item ->> 'value')))
  FROM ${objectOf(`${record}.string`)} AS c
  CROSS JOIN LATERAL ${itemsOf('c.value')} AS i(item, n)
  WHERE c.key <> '${PASSWORD_TIPO}' AND jsonb_typeof(i.item -> 'value') = 'string'`;

const STRING_COLUMNS = '(section_tipo, section_id, component_tipo, lang, value_norm, value_key)';

const SORT_COLUMNS = '(section_tipo, section_id, component_tipo, lang, text_key, num_key)';

/**
 * The row trigger function `<table>_sync` keeping a side table in step with a matrix row: the
 * row's old side rows deleted, its new ones (`rows`, of NEW) inserted.
 */
const rowSyncFunction = (create: string, table: string, columns: string, rows: string) =>
  `${create} FUNCTION ${table}_sync() RETURNS trigger LANGUAGE plpgsql AS $$
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

/** The triggers keeping matrix_sort_key in step with one matrix table, then its rows copied in. */
export function sortKeyTriggers(t: string): string[] {
  return [
    `CREATE TRIGGER ${t}_sort_key
        AFTER INSERT OR DELETE OR UPDATE OF string, number, date, section_tipo, section_id ON ${t}
        FOR EACH ROW EXECUTE FUNCTION matrix_sort_key_sync()`,
    `INSERT INTO matrix_sort_key ${SORT_COLUMNS}
       SELECT s.* FROM ${t} AS r CROSS JOIN LATERAL (${sortRowsOf('r')}) AS s`,
  ];
}

const orphaned = (alias: string) =>
  MATRIX_TABLES.map(
    (t) =>
      `NOT EXISTS (SELECT 1 FROM ${t} m WHERE m.section_tipo = ${alias}.section_tipo AND m.section_id = ${alias}.section_id)`,
  ).join(' AND ');

export const LIST_INDEX_MIGRATION: Migration = {
  version: 16,
  name: 'list pages: sort keys per component, prefix and exact text filters and unique values by btree',
  statements: [
    `CREATE TABLE matrix_sort_key (
      section_tipo text NOT NULL,
      section_id integer NOT NULL,
      component_tipo text NOT NULL,
      lang text NOT NULL,
      text_key text COLLATE "C",
      num_key numeric
    )`,
    // The trigger's delete and the per-record lookups of an order through a relation.
    `CREATE INDEX matrix_sort_key_record ON matrix_sort_key
      (section_tipo, section_id, component_tipo, lang)`,
    `CREATE INDEX matrix_sort_key_text ON matrix_sort_key
      (section_tipo, component_tipo, lang, text_key, section_id) WHERE text_key IS NOT NULL`,
    `CREATE INDEX matrix_sort_key_num ON matrix_sort_key
      (section_tipo, component_tipo, lang, num_key, section_id) WHERE num_key IS NOT NULL`,
    // Unique components were checked by reading the component's JSON in every record of the
    // section (2.3 s at 100k, under a lock that serialises the section's saves): the string
    // side table gets the compared value's hash, refilled by the replaced row function.
    'ALTER TABLE matrix_string_search ADD COLUMN value_key text',
    rowSyncFunction('CREATE OR REPLACE', 'matrix_string_search', STRING_COLUMNS, stringRowsOf('NEW')),
    'TRUNCATE matrix_string_search',
    // Not the activity log: migration 15 took it out of the side table.
    ...MATRIX_TABLES.filter(inStringSearch).map(
      (t) =>
        `INSERT INTO matrix_string_search ${STRING_COLUMNS}
         SELECT s.* FROM ${t} AS r CROSS JOIN LATERAL (${stringRowsOf('r')}) AS s`,
    ),
    `CREATE INDEX matrix_string_search_unique ON matrix_string_search
      (section_tipo, component_tipo, value_key)`,
    // On the value's first characters: a whole transcription would not fit a btree entry.
    `CREATE INDEX matrix_string_search_pattern ON matrix_string_search
      (component_tipo, left(value_norm, ${PATTERN_INDEX_CHARS}) text_pattern_ops)`,
    rowSyncFunction('CREATE', 'matrix_sort_key', SORT_COLUMNS, sortRowsOf('NEW')),
    // Replaces migration 13's clean-up: a TRUNCATE fires no row trigger.
    `CREATE OR REPLACE FUNCTION matrix_search_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM matrix_string_search s WHERE ${orphaned('s')};
      DELETE FROM matrix_number_search n WHERE ${orphaned('n')};
      DELETE FROM matrix_sort_key k WHERE ${orphaned('k')};
      RETURN NULL;
    END
    $$`,
    ...MATRIX_TABLES.flatMap(sortKeyTriggers),
    'ANALYZE matrix_sort_key',
    'ANALYZE matrix_string_search',
  ],
};
