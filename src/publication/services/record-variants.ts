/**
 * Reads the language variants of one record with just the columns a text route needs, in lang
 * order, with the records route's 404s: a missing record, or a record lacking the requested
 * language. Shared by the fragment and audiovisual services.
 */
import type { Row, TableInfo } from '../db/types.js';
import { notFound } from '../problems.js';
import type { PublicationContext } from './context.js';

/** Generous: one row per language; no archive publishes anywhere near this many. */
const MAX_VARIANTS = 1000;

export async function readRecordVariants(
  ctx: PublicationContext,
  db: string,
  table: TableInfo,
  id: number,
  wanted: readonly string[],
  lang?: string,
): Promise<Row[]> {
  if (!table.columnsByName.has('section_id')) {
    throw notFound(`table "${table.name}" has no section_id column, so its rows cannot be read by id`);
  }
  const columns = [...new Set(['section_id', ...(table.hasLang ? ['lang'] : []), ...wanted])].filter((c) =>
    table.columnsByName.has(c),
  );
  const rows = await ctx.driver.select(db, {
    table: table.name,
    columns,
    where: [{ column: 'section_id', op: 'eq', value: id }],
    orderBy: table.hasLang ? [{ column: 'lang', desc: false }] : [],
    limit: MAX_VARIANTS,
  });
  if (rows.length === 0) throw notFound(`record ${id} does not exist in table "${table.name}"`);
  if (lang === undefined || !table.hasLang) return rows;
  const variants = rows.filter((r) => r.lang === lang);
  if (variants.length === 0) {
    const languages = rows.map((r) => String(r.lang)).join(', ');
    throw notFound(`record ${id} of "${table.name}" has no ${lang} variant; it exists in ${languages}`);
  }
  return variants;
}

/** A text cell as a string (NULL and non-text values are empty). */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return '';
}
