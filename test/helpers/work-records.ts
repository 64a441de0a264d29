/**
 * Writes records with component values straight through the store (no save path needed), in the
 * shapes docs/ontology.md describes: each component's items go to its typed column, `meta` gets each
 * component's highest item id, and `projects` fills the section's project filter component.
 * Small builders make the items: text(), number(), date(), locator().
 */
import { projectFilterTipoOf } from '../../src/work/auth/permissions-store.js';
import type { Ontology } from '../../src/work/ontology/load-ontology.js';
import { dateTime } from '../../src/work/search/date-time.js';
import { isMatrixTable } from '../../src/work/store/matrix-tables.js';
import { insertRecord, type RecordColumns } from '../../src/work/store/records.js';
import type { SqlQueryable } from '../../src/work/store/sql-client.js';

/** Component tipo -> its items. */
export type ComponentValues = Record<string, unknown[]>;

/** A literal item; `lang` defaults to lg-nolan. */
export const text = (value: string, lang = 'lg-nolan', id = 1) => ({ id, lang, value });

export const number = (value: number, id = 1) => ({ id, lang: 'lg-nolan', value });

/** A date item whose start.time is computed as the save path does. */
export const date = (year: number, month?: number, day?: number, id = 1) => {
  const start: Record<string, number> = { year };
  if (month !== undefined) start.month = month;
  if (day !== undefined) start.day = day;
  start.time = dateTime({ year, month, day });
  return { id, lang: 'lg-nolan', start };
};

export const locator = (
  fromComponentTipo: string,
  sectionTipo: string,
  sectionId: number | string,
  type = 'dd151',
) => ({ type, section_tipo: sectionTipo, section_id: sectionId, from_component_tipo: fromComponentTipo });

/**
 * Inserts record (sectionTipo, sectionId) holding `values`; `projects` (dd153 section ids) go to
 * the section's project filter component as dd675 locators.
 */
export async function insertRecordValues(
  db: SqlQueryable,
  ontology: Ontology,
  sectionTipo: string,
  sectionId: number,
  values: ComponentValues,
  projects?: (number | string)[],
): Promise<void> {
  const table = ontology.tableOf(sectionTipo);
  if (!table || !isMatrixTable(table)) throw new Error(`${sectionTipo} is not a section`);
  const columns: RecordColumns = {};
  const meta: Record<string, number> = {};
  const all: ComponentValues = { ...values };
  if (projects !== undefined) {
    const filterTipo = projectFilterTipoOf(ontology, sectionTipo);
    if (!filterTipo) throw new Error(`${sectionTipo} has no project filter component`);
    all[filterTipo] = projects.map((p) => locator(filterTipo, 'dd153', p, 'dd675'));
  }
  for (const [tipo, items] of Object.entries(all)) {
    const column = ontology.dataColumnOf(tipo);
    if (!column) throw new Error(`${tipo} is not a component`);
    const group = columns[column] ?? {};
    group[tipo] = items;
    columns[column] = group;
    const ids = items
      .map((i) => (typeof i === 'object' && i !== null ? (i as { id?: unknown }).id : undefined))
      .filter((id): id is number => typeof id === 'number');
    if (ids.length > 0) meta[tipo] = Math.max(...ids);
  }
  await insertRecord(db, table, { section_tipo: sectionTipo, section_id: sectionId }, columns, meta, -1);
}
