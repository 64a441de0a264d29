/**
 * The matrix tables records live in and the typed JSONB columns a component's data is grouped
 * in. These names are the only table and column identifiers the store ever interpolates into
 * SQL, so they are a closed list checked here, never taken from a request.
 */

export const MATRIX_TABLES = [
  'matrix',
  'matrix_users',
  'matrix_profiles',
  'matrix_projects',
  'matrix_hierarchy',
  'matrix_activity',
  'matrix_ontology',
  'matrix_ontology_main',
] as const;

/**
 * The tables as migrations 1 to 12 created them. Those migrations are released and never edited,
 * so they keep naming this list; tables added later are created by their own migration.
 */
export const MATRIX_TABLES_V1 = [
  'matrix',
  'matrix_users',
  'matrix_profiles',
  'matrix_projects',
  'matrix_hierarchy',
  'matrix_activity',
] as const;

export type MatrixTable = (typeof MATRIX_TABLES)[number];

/** `meta` is not component data: it holds per-component item counters (next item id). */
export const DATA_COLUMNS = ['string', 'relation', 'date', 'number', 'media', 'misc'] as const;

export type DataColumn = (typeof DATA_COLUMNS)[number];

export function isMatrixTable(name: string): name is MatrixTable {
  return (MATRIX_TABLES as readonly string[]).includes(name);
}
