/**
 * Reading records: a page of a table (filters, sort, fields, paging, optional exact count) and
 * one record with all its language variants. The page query asks for one row more than the
 * limit so "is there a next page" needs no COUNT(*). Relation cells the request asks to resolve
 * are replaced last, once per page (relations-service.ts).
 */
import type { Condition, Row } from '../db/types.js';
import { notFound } from '../problems.js';
import type { RecordListRequest, RecordRequest } from '../query/record-requests.js';
import { withStableOrder } from '../query/sort-and-fields.js';
import { requireTable } from './catalog-service.js';
import { decodeRows } from './cell-values.js';
import type { PublicationContext } from './context.js';
import { resolveRowRelations } from './relations-service.js';

export interface RecordPage {
  rows: Row[];
  hasMore: boolean;
  total?: number;
}

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
  const [rows, total] = await Promise.all([
    req.limit === 0
      ? Promise.resolve([])
      : ctx.driver.select(db, {
          table: table.name,
          columns,
          where,
          orderBy: withStableOrder(req.sort, table),
          limit: req.limit + 1,
          offset: req.offset,
        }),
    req.count ? ctx.driver.count(db, { table: table.name, where }) : Promise.resolve(undefined),
  ]);
  const hasMore = rows.length > req.limit;
  if (hasMore) rows.length = req.limit;
  const decoded = decodeRows(rows, table);
  await resolveRowRelations(ctx, db, table, decoded, { relations: req.relations, lang: req.lang });
  return { rows: decoded, hasMore, total };
}

export interface SingleRecord {
  rows: Row[];
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
  const rows = await ctx.driver.select(db, {
    table: table.name,
    columns,
    where: [{ column: 'section_id', op: 'eq', value: id }],
    orderBy: table.hasLang ? [{ column: 'lang', desc: false }] : [],
    limit: 1000,
  });
  if (rows.length === 0) throw notFound(`record ${id} does not exist in table "${table.name}"`);
  const languages = table.hasLang ? rows.map((r) => String(r.lang)) : undefined;
  let variants = rows;
  if (req.lang) {
    variants = rows.filter((r) => r.lang === req.lang);
    if (variants.length === 0) {
      throw notFound(
        `record ${id} of "${table.name}" has no ${req.lang} variant; it exists in ${languages!.join(', ')}`,
      );
    }
  }
  if (columns !== requested) for (const r of variants) delete r.lang;
  const decoded = decodeRows(variants, table);
  await resolveRowRelations(ctx, db, table, decoded, { relations: req.relations, lang: req.lang });
  return { rows: decoded, languages };
}
