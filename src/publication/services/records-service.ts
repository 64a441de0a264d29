/**
 * Reading records: a page of a table (filters, sort, fields, paging, optional exact count) and
 * one record with all its language variants. The page query asks for one row more than the
 * limit so "is there a next page" needs no COUNT(*). Relation cells the request asks to resolve
 * are replaced last, once per page (relations-service.ts).
 */
import type { RawJson } from '../db/raw-json.js';
import type { Condition, Driver, Row, TableInfo } from '../db/types.js';
import { notFound } from '../problems.js';
import type { RecordListRequest, RecordRequest } from '../query/record-requests.js';
import { withStableOrder } from '../query/sort-and-fields.js';
import { requireTable } from './catalog-service.js';
import { decodeRows, textColumns } from './cell-values.js';
import type { PublicationContext } from './context.js';
import { resolveRowRelations } from './relations-service.js';

export interface RecordPage<R extends Row[] | RawJson = Row[] | RawJson> {
  /** Row objects, or their JSON already written by the engine when the context asked for it. */
  rows: R;
  hasMore: boolean;
  total?: number;
}

/**
 * The engine's selectJson when this read may use it: the context only sends rows as JSON and no
 * relation is to be resolved (that rewrites row objects).
 */
function jsonReader(ctx: PublicationContext, relations: unknown): Driver['selectJson'] {
  return ctx.rowsAsJson && !relations ? ctx.driver.selectJson : undefined;
}

/** The text columns among those selected, for the engine to decode as decodeRows would. */
const decodedAmong = (table: TableInfo, columns: readonly string[]) =>
  textColumns(table).filter((name) => columns.includes(name));

export async function listRecords(
  ctx: PublicationContext,
  db: string,
  tableName: string,
  req: RecordListRequest,
): Promise<RecordPage> {
  const table = await requireTable(ctx, db, tableName);
  const where: Condition[] = [...req.where];
  if (req.lang) where.push({ column: 'lang', op: 'eq', value: req.lang });
  const columns = req.fields ?? table.columns.map((c) => c.name);
  const query = {
    table: table.name,
    columns,
    where,
    orderBy: withStableOrder(req.sort, table),
    limit: req.limit + 1,
    offset: req.offset,
  };
  const total = req.count ? ctx.driver.count(db, { table: table.name, where }) : Promise.resolve(undefined);
  const selectJson = jsonReader(ctx, req.relations);
  if (selectJson && req.limit > 0) {
    const shape = { decode: decodedAmong(table, columns), limit: req.limit };
    const [read, counted] = await Promise.all([selectJson(db, query, shape), total]);
    return { rows: read.json, hasMore: read.count > req.limit, total: counted };
  }
  const [rows, counted] = await Promise.all([
    req.limit === 0 ? Promise.resolve([]) : ctx.driver.select(db, query),
    total,
  ]);
  const hasMore = rows.length > req.limit;
  if (hasMore) rows.length = req.limit;
  const decoded = decodeRows(rows, table);
  await resolveRowRelations(ctx, db, table, decoded, { relations: req.relations, lang: req.lang });
  return { rows: decoded, hasMore, total: counted };
}

export interface SingleRecord {
  /** As RecordPage.rows. */
  rows: Row[] | RawJson;
  /** Every language the record exists in (multilingual tables only). */
  languages?: string[];
}

export async function getRecord(
  ctx: PublicationContext,
  db: string,
  tableName: string,
  id: number,
  req: RecordRequest,
): Promise<SingleRecord> {
  const table = await requireTable(ctx, db, tableName);
  if (!table.columnsByName.has('section_id')) {
    throw notFound(`table "${table.name}" has no section_id column, so its rows cannot be read by id`);
  }
  const requested = req.fields ?? table.columns.map((c) => c.name);
  // lang is always read (to list the variants) and dropped again if the client did not ask for it.
  const columns = table.hasLang && !requested.includes('lang') ? [...requested, 'lang'] : requested;
  const query = {
    table: table.name,
    columns,
    where: [{ column: 'section_id', op: 'eq' as const, value: id }],
    orderBy: table.hasLang ? [{ column: 'lang', desc: false }] : [],
    limit: 1000,
  };
  const missing = () => notFound(`record ${id} does not exist in table "${table.name}"`);
  const noVariant = (languages: string[]) =>
    notFound(
      `record ${id} of "${table.name}" has no ${req.lang} variant; it exists in ${languages.join(', ')}`,
    );
  const selectJson = jsonReader(ctx, req.relations);
  if (selectJson) {
    const read = await selectJson(db, query, {
      decode: decodedAmong(table, requested),
      only: req.lang ? ['lang', req.lang] : undefined,
      omit: columns !== requested ? 'lang' : undefined,
      collect: table.hasLang ? 'lang' : undefined,
    });
    if (read.count === 0) throw missing();
    if (read.json.length === 0) throw noVariant(read.collected ?? []);
    return { rows: read.json, languages: read.collected };
  }
  const rows = await ctx.driver.select(db, query);
  if (rows.length === 0) throw missing();
  const languages = table.hasLang ? rows.map((r) => String(r.lang)) : undefined;
  let variants = rows;
  if (req.lang) {
    variants = rows.filter((r) => r.lang === req.lang);
    if (variants.length === 0) throw noVariant(languages!);
  }
  if (columns !== requested) for (const r of variants) delete r.lang;
  const decoded = decodeRows(variants, table);
  await resolveRowRelations(ctx, db, table, decoded, { relations: req.relations, lang: req.lang });
  return { rows: decoded, languages };
}
