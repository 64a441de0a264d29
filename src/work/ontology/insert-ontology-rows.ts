/**
 * Writes many `dd_ontology` rows in one statement (a JSON array turned into rows by
 * jsonb_to_recordset): the default content at first start, the `ontology` TLD added to an older
 * database, and a TLD's import. Fields a row leaves out are NULL (`model_tipo`) or the column's
 * default. `onConflict` says what an existing tipo gets: left as it is, or every column replaced.
 * Returns the number of rows written.
 */
import type { SqlQueryable } from '../store/sql-client.js';

const COLUMNS =
  'tipo, parent, term, model, order_number, relations, tld, properties, model_tipo, is_model, is_translatable';

const RECORDSET = `jsonb_to_recordset($1::text::jsonb) AS r(tipo text, parent text, term jsonb, model text,
  order_number integer, relations jsonb, tld text, properties jsonb, model_tipo text, is_model boolean,
  is_translatable boolean)`;

const ON_CONFLICT = {
  error: '',
  keep: 'ON CONFLICT (tipo) DO NOTHING',
  replace: `ON CONFLICT (tipo) DO UPDATE SET parent = EXCLUDED.parent, term = EXCLUDED.term,
    model = EXCLUDED.model, order_number = EXCLUDED.order_number, relations = EXCLUDED.relations,
    tld = EXCLUDED.tld, properties = EXCLUDED.properties, model_tipo = EXCLUDED.model_tipo,
    is_model = EXCLUDED.is_model, is_translatable = EXCLUDED.is_translatable`,
} as const;

export async function insertOntologyRows(
  tx: SqlQueryable,
  rows: readonly object[],
  onConflict: keyof typeof ON_CONFLICT,
): Promise<number> {
  if (rows.length === 0) return 0;
  const { rowCount } = await tx.query(
    `INSERT INTO dd_ontology (${COLUMNS}) SELECT ${COLUMNS} FROM ${RECORDSET} ${ON_CONFLICT[onConflict]}`,
    [JSON.stringify(rows)],
  );
  return rowCount;
}
