/**
 * Discovery: which databases are public, which tables they hold, and the checks that turn an
 * unknown database or table into a 404 before any SQL is written for it.
 */
import type { TableInfo } from '../db/types.js';
import { notFound, ValidationError } from '../problems.js';
import { TABLE_NAME_PATTERN } from '../query/bounds.js';
import type { PublicationContext } from './context.js';

export function requireDatabase(ctx: PublicationContext, db: string): void {
  // Only the allowlist counts: a database that exists on the server but is not listed is hidden.
  if (!ctx.config.dbNames.includes(db)) throw notFound(`database "${db}" is not published here`);
}

export async function requireTable(ctx: PublicationContext, db: string, table: string): Promise<TableInfo> {
  requireDatabase(ctx, db);
  if (!TABLE_NAME_PATTERN.test(table) || table.length > 64) {
    throw new ValidationError([
      {
        name: 'table',
        in: 'path',
        detail: `table name must match ${TABLE_NAME_PATTERN.source} (at most 64 characters)`,
      },
    ]);
  }
  const schema = await ctx.schemas.get(db);
  const info = schema.tables.get(table);
  if (!info) throw notFound(`table "${table}" does not exist in database "${db}"`);
  return info;
}

export function listDatabases(ctx: PublicationContext): string[] {
  return ctx.config.dbNames;
}

export async function listTables(ctx: PublicationContext, db: string) {
  requireDatabase(ctx, db);
  const schema = await ctx.schemas.get(db);
  return [...schema.tables.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t) => ({ name: t.name, row_count: t.rowEstimate, column_count: t.columns.length }));
}

export async function describeTable(ctx: PublicationContext, db: string, table: string) {
  const info = await requireTable(ctx, db, table);
  const rowCount = await ctx.driver.count(db, { table: info.name, where: [] });
  return {
    name: info.name,
    row_count: rowCount,
    columns: info.columns.map((c) => ({ name: c.name, type: c.type })),
  };
}
