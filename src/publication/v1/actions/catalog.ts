/**
 * The catalogue actions (docs/publication-v1.md): tables_info, publication_schema, table_thesaurus and
 * table_thesaurus_map, answered bare as upstream does.
 */

import { thesaurusMap, thesaurusTables } from '../thesaurus-tables.js';
import { optBool, type V1Call } from '../v1-call.js';
import { readPublicationSchema } from './portals.js';

/**
 * `{table: [columns]}` without `id`; with `full`, SHOW COLUMNS-shaped objects read from the
 * engine's catalogue when the schema is introspected (information_schema.COLUMNS on MariaDB,
 * pragma_table_info / pragma_index_list on SQLite; see db/schema-builder.ts).
 */
export async function tablesInfoAction(call: V1Call): Promise<unknown> {
  const full = optBool(call.options, 'full', false);
  const schema = await call.ctx.schemas.get(call.db);
  const out: Record<string, unknown> = {};
  for (const name of [...schema.tables.keys()].sort()) {
    const columns = schema.tables.get(name)!.columns.filter((c) => c.name !== 'id');
    out[name] = full
      ? columns.map((c) => ({
          Field: c.name,
          Type: c.type,
          Null: c.catalog?.nullable === false ? 'NO' : 'YES',
          Key: c.catalog?.key ?? '',
          Default: c.catalog?.default ?? null,
          Extra: c.catalog?.extra ?? '',
        }))
      : columns.map((c) => c.name);
  }
  return out;
}

export async function publicationSchemaAction(call: V1Call): Promise<unknown> {
  const schema = await readPublicationSchema(call);
  if (schema === undefined) return ['table with publication_schema is not set'];
  if (schema === false) return [false];
  return schema;
}

/** The thesaurus tables as the comma list TABLE_THESAURUS is (derived when not configured). */
export async function tableThesaurusAction(call: V1Call): Promise<unknown> {
  const tables = await thesaurusTables(call);
  return tables.length === 0 ? null : tables.join(',');
}

export async function tableThesaurusMapAction(call: V1Call): Promise<unknown> {
  const map = await thesaurusMap(call);
  return Object.keys(map).length === 0 ? null : map;
}
