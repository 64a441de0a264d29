/**
 * Related records by name: the ids that relation cells hold, looked up in their tables through the
 * records operation (one request per table and 200 ids), each shown by its title, name or term in
 * the page's language (another language when the record has none in it: `fallbackLang` says
 * which), and with its picture when the related record is an image.
 */
import { rowObjects } from '../db/raw-json.js';
import type { DatabaseSchema, TableInfo } from '../db/types.js';
import type { Envelope, Operation, OperationAnswer } from '../operations/operation.js';
import { listRecordsOperation, type PageBody } from '../operations/records.js';
import type { QueryParams } from '../query/query-string.js';
import type { PublicationContext } from '../services/context.js';
import { cellEntries, entryValue } from '../services/relation-cells.js';
import type { PublicationMaps } from '../services/section-tables.js';

export interface RelatedRecord {
  table: string;
  id: number;
  /** The record's name; undefined when its table has no naming column (the page says "table no. id"). */
  label?: string;
  /** The language the label is in when it is not the page's. */
  fallbackLang?: string;
  /** The language version the name was read from. */
  lang?: string;
  /** A media path (images): shown as a picture. */
  image?: string;
}

/** Columns that name a record, best first; `name` takes `surname` along. */
const NAME_COLUMNS = ['title', 'name', 'term', 'code'];
const IMAGE_PATH = /\.(jpe?g|png|gif|webp|avif|svg)$/i;
const CHUNK = 200;

function nameColumn(table: TableInfo): string | undefined {
  return NAME_COLUMNS.find((c) => table.columnsByName.has(c));
}

/** The related table of a column (a table of the database named like it, with section ids). */
export function relationTarget(schema: DatabaseSchema, column: string): TableInfo | undefined {
  const target = schema.tables.get(column);
  return target?.columnsByName.has('section_id') ? target : undefined;
}

/**
 * The (table, id) pairs a cell refers to: ids under a column named after a table (or mapped to
 * one by publication_schema), links `{"table","section_id"}`, or locators
 * `{"section_tipo","section_id"}` of a section publication_schema maps to a table.
 */
export function relationRefs(
  value: unknown,
  column: string,
  schema: DatabaseSchema,
  maps?: PublicationMaps,
): { table: string; id: number }[] | undefined {
  const entries = cellEntries(value);
  if (!entries || entries.length === 0) return undefined;
  const refs: { table: string; id: number }[] = [];
  const mapped = maps?.columns.get(column);
  const target = relationTarget(schema, mapped ?? column);
  for (const entry of entries) {
    const object =
      entry && typeof entry === 'object' && !Array.isArray(entry)
        ? (entry as Record<string, unknown>)
        : undefined;
    const linkTable =
      typeof object?.table === 'string'
        ? object.table
        : typeof object?.section_tipo === 'string'
          ? maps?.sections.get(object.section_tipo)
          : undefined;
    const table = linkTable ?? target?.name;
    const raw = entryValue(entry);
    const id =
      typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
    if (!table || !relationTarget(schema, table) || !Number.isSafeInteger(id) || id < 1) return undefined;
    refs.push({ table, id });
  }
  return refs;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== ''
    ? value.trim()
    : typeof value === 'number'
      ? String(value)
      : undefined;
}

/**
 * Names (and pictures) of the records `refs` point at, keyed `table:id`, read in the page's
 * language `preferred[0]` when the table is multilingual, else the first of `preferred` the record
 * has, else any.
 */
export async function lookUpRelated(
  ctx: PublicationContext,
  db: string,
  schema: DatabaseSchema,
  refs: Iterable<{ table: string; id: number }>,
  preferred: readonly string[],
): Promise<Map<string, RelatedRecord>> {
  const byTable = new Map<string, Set<number>>();
  for (const r of refs) {
    const ids = byTable.get(r.table) ?? new Set<number>();
    ids.add(r.id);
    byTable.set(r.table, ids);
  }
  const found = new Map<string, RelatedRecord>();
  for (const [tableName, idSet] of byTable) {
    const table = schema.tables.get(tableName)!;
    const name = nameColumn(table);
    // A record of a table of pictures is shown as its picture; people (a `name`) by their name.
    const imageColumn =
      table.columnsByName.has('image') && !table.columnsByName.has('name') ? 'image' : undefined;
    const fields = [
      'section_id',
      name,
      name === 'name' && table.columnsByName.has('surname') ? 'surname' : undefined,
      imageColumn,
      table.hasLang ? 'lang' : undefined,
    ].filter((c): c is string => c !== undefined);
    const ids = [...idSet];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const query: QueryParams = new Map([
        ['fields', [fields.join(',')]],
        [`filter[section_id][in]`, [chunk.join('|')]],
        ['limit', ['1000']],
      ]);
      const answer = (await (listRecordsOperation as Operation<Envelope | undefined>).run(ctx, {
        params: { db, table: table.name },
        query: () => query,
      })) as OperationAnswer<PageBody>;
      for (const row of rowObjects(answer.body.data)) {
        const id = Number(row.section_id);
        const key = `${table.name}:${id}`;
        const lang = typeof row.lang === 'string' ? row.lang : undefined;
        const prior = found.get(key);
        const rank = (l: string | undefined) => {
          const i = l === undefined ? -1 : preferred.indexOf(l);
          return i < 0 ? preferred.length : i;
        };
        // The page's language wins; otherwise the first variant read (lang order) stays.
        if (prior && rank(prior.lang) <= rank(lang)) continue;
        const label = name
          ? [text(row[name]), name === 'name' ? text(row.surname) : undefined].filter(Boolean).join(' ') ||
            undefined
          : undefined;
        const image = imageColumn ? text(row[imageColumn]) : undefined;
        found.set(key, {
          table: table.name,
          id,
          label,
          fallbackLang: lang !== undefined && lang !== preferred[0] && label !== undefined ? lang : undefined,
          lang,
          image: image && IMAGE_PATH.test(image) ? image : undefined,
        });
      }
    }
  }
  return found;
}
