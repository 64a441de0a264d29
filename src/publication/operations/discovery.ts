/**
 * Discovery operations: the index, the database list, a database's tables and one table's
 * schema, plus the favicon browsers ask for (an empty answer, so a batch may name it too).
 */
import { describeTable, listDatabases, listTables } from '../services/catalog-service.js';
import { defineOperation, type OperationAnswer, paramOf } from './operation.js';

export const API_VERSION = '2.1.0';
export const API_NAME = 'Dédalo publication API';

export interface DataBody<D> {
  [key: string]: unknown;
  data: D;
  meta: Record<string, unknown>;
}

export type TableList = Awaited<ReturnType<typeof listTables>>;
export type TableDescription = Awaited<ReturnType<typeof describeTable>>;

export const indexOperation = defineOperation({
  name: 'index',
  path: '/',
  input: () => undefined,
  execute: (ctx) => {
    const bp = ctx.config.basePath;
    return {
      body: {
        name: API_NAME,
        version: API_VERSION,
        links: {
          databases: `${bp}/databases`,
          docs: `${bp}/docs`,
          openapi: `${bp}/openapi.yaml`,
          health: `${bp}/health`,
        },
      },
    };
  },
});

export const faviconOperation = defineOperation({
  name: 'favicon',
  path: '/favicon.ico',
  input: () => undefined,
  execute: (): OperationAnswer<undefined> => ({ body: undefined, status: 204, cacheable: false }),
});

export const databasesOperation = defineOperation({
  name: 'databases',
  path: '/databases',
  input: () => undefined,
  execute: (ctx): OperationAnswer<DataBody<{ name: string; links: { tables: string } }[]>> => {
    const bp = ctx.config.basePath;
    return {
      body: {
        data: listDatabases(ctx).map((name) => ({ name, links: { tables: `${bp}/${name}/tables` } })),
        meta: {},
      },
    };
  },
});

export const tablesOperation = defineOperation({
  name: 'tables',
  path: '/:db/tables',
  input: (_ctx, request) => ({ db: paramOf(request, 'db') }),
  execute: async (ctx, { db }): Promise<OperationAnswer<DataBody<TableList>>> => ({
    body: { data: await listTables(ctx, db), meta: {} },
  }),
});

/**
 * `/{db}/tables/` (a trailing slash) is the table list too: without this path it would reach the
 * table route with an empty name and be refused as a bad table name.
 */
export const tablesWithSlashOperation: typeof tablesOperation = { ...tablesOperation, path: '/:db/tables/' };

export const tableOperation = defineOperation({
  name: 'table',
  path: '/:db/tables/:table',
  input: (_ctx, request) => ({ db: paramOf(request, 'db'), table: paramOf(request, 'table') }),
  execute: async (ctx, { db, table }): Promise<OperationAnswer<DataBody<TableDescription>>> => ({
    body: { data: await describeTable(ctx, db, table), meta: {} },
  }),
});
