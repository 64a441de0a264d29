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
  const schema = await ctx.schemas.get(db);
  const table = schema.tables.get(SCHEMA_TABLE);
  if (!table?.columnsByName.has('id') || !table.columnsByName.has('data')) return new Map();
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
      return new Map();
    }
  }
  const map = isObject(data) ? data[MAP_KEY] : undefined;
  if (!isObject(map)) return new Map();
  return new Map(Object.entries(map).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** The section_tipos published into `table` (usually one). */
export function tiposOfTable(sectionTables: ReadonlyMap<string, string>, table: string): string[] {
  return [...sectionTables].filter(([, t]) => t === table).map(([tipo]) => tipo);
}
