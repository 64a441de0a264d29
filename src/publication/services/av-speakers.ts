/**
 * Speakers of a passage: the record's informants (its speaker relation column, `name` and
 * `surname` from the speaker table, role `informant`) and the people of the passage's
 * `[person-...]` tags (role `speaker`, named by the tag label). A person tag whose data locator
 * points at one of the listed informants is that informant, so it is not listed twice.
 */
import type { Row } from '../db/types.js';
import type { PassageSpeaker } from '../text/speakers.js';
import type { PublicationContext } from './context.js';
import { relationIds } from './relation-cells.js';

export interface Speaker {
  name: string;
  role: 'informant' | 'speaker';
}

export interface Informant {
  id: number;
  name: string;
}

const MAX_INFORMANTS = 50;

/** The informants the record names, in the order it names them. */
export async function findInformants(ctx: PublicationContext, db: string, record: Row): Promise<Informant[]> {
  const { speakerTable, speakerRelationColumn } = ctx.config.av;
  const ids = [...new Set(relationIds(record[speakerRelationColumn]))].slice(0, MAX_INFORMANTS);
  if (ids.length === 0) return [];
  const table = (await ctx.schemas.get(db)).tables.get(speakerTable);
  if (!table?.columnsByName.has('section_id')) return [];
  const nameColumns = ['name', 'surname'].filter((c) => table.columnsByName.has(c));
  const rows = await ctx.driver.select(db, {
    table: table.name,
    columns: ['section_id', ...nameColumns],
    where: [{ column: 'section_id', op: 'in', value: ids }],
    orderBy: table.hasLang ? [{ column: 'lang', desc: false }] : [],
    limit: MAX_INFORMANTS * 20,
  });
  const names = new Map<number, string>();
  for (const row of rows) {
    const id = Number(row.section_id);
    if (names.has(id)) continue;
    const name = nameColumns
      .map((c) => row[c])
      .filter((v) => typeof v === 'string' && v.trim() !== '')
      .map((v) => (v as string).trim())
      .join(' ');
    names.set(id, name);
  }
  return ids.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! }));
}

function locatorOf(data: unknown): { tipo?: string; id?: number } {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return {};
  const d = data as Record<string, unknown>;
  const id = relationIds([d.section_id])[0];
  return { tipo: typeof d.section_tipo === 'string' ? d.section_tipo : undefined, id };
}

/**
 * Informants first, then the passage's other speakers. `sectionTables` (publication_schema's
 * tipo -> table map) keeps a tag that points at another table's record with the same id apart.
 */
export function mergeSpeakers(
  informants: readonly Informant[],
  passage: readonly PassageSpeaker[],
  sectionTables: ReadonlyMap<string, string>,
  speakerTable: string,
): Speaker[] {
  const informantIds = new Set(informants.map((i) => i.id));
  const out: Speaker[] = informants.map((i) => ({ name: i.name, role: 'informant' }));
  const names = new Set<string>();
  for (const p of passage) {
    const { tipo, id } = locatorOf(p.data);
    const table = tipo === undefined ? undefined : sectionTables.get(tipo);
    const sameTable = table === undefined || table === speakerTable;
    if (id !== undefined && sameTable && informantIds.has(id)) continue;
    if (p.name === '' || names.has(p.name)) continue;
    names.add(p.name);
    out.push({ name: p.name, role: 'speaker' });
  }
  return out;
}
