/**
 * publication_schema's `dd_relations` map (section_tipo -> table, row id 1, column data): which
 * table a section_tipo was published into. The audiovisual routes use it to find the record a
 * locator names, and to tell whether a person tag points at an informant. A missing or damaged
 * schema row is an empty map here; callers that need an entry say so in their own terms.
 */
import type { PublicationContext } from './context.js';

const SCHEMA_TABLE = 'publication_schema';
const MAP_KEY = 'dd_relations';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function readSectionTables(ctx: PublicationContext, db: string): Promise<Map<string, string>> {
  return (await readPublicationMaps(ctx, db)).sections;
}

export interface PublicationMaps {
  /** section_tipo -> table (`dd_relations`). */
  sections: Map<string, string>;
  /** relation column -> the table its ids point into (the other string entries, `"children": "ts_themes"`). */
  columns: Map<string, string>;
}

/** Both maps of publication_schema's row 1 (empty when the table or the row is missing). */
export async function readPublicationMaps(ctx: PublicationContext, db: string): Promise<PublicationMaps> {
  const empty = { sections: new Map<string, string>(), columns: new Map<string, string>() };
  const schema = await ctx.schemas.get(db);
  const table = schema.tables.get(SCHEMA_TABLE);
  if (!table?.columnsByName.has('id') || !table.columnsByName.has('data')) return empty;
  const rows = await ctx.driver.select(db, {
    table: table.name,
    columns: ['data'],
    where: [{ column: 'id', op: 'eq', value: 1 }],
    orderBy: [],
    limit: 1,
  });
  let data = rows[0]?.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return empty;
    }
  }
  if (!isObject(data)) return empty;
  const strings = (o: Record<string, unknown>) =>
    new Map(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const map = data[MAP_KEY];
  return { sections: isObject(map) ? strings(map) : new Map(), columns: strings(data) };
}

/** The section_tipos published into `table` (usually one). */
export function tiposOfTable(sectionTables: ReadonlyMap<string, string>, table: string): string[] {
  return [...sectionTables].filter(([, t]) => t === table).map(([tipo]) => tipo);
}
