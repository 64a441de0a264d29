/**
 * Discovery: the index, the database list, table lists and table schemas, and the favicon
 * browsers ask for.
 */
import type { FastifyInstance } from 'fastify';
import { sendJson } from '../http/send-json.js';
import { describeTable, listDatabases, listTables } from '../services/catalog-service.js';

export const API_VERSION = '2.1.0';
export const API_NAME = 'Dédalo publication API';

export async function discoveryRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const bp = ctx.config.basePath;
  const maxAge = ctx.config.cacheMaxAge;

  app.get('/', async (request, reply) =>
    sendJson(
      request,
      reply,
      {
        name: API_NAME,
        version: API_VERSION,
        links: {
          databases: `${bp}/databases`,
          docs: `${bp}/docs`,
          openapi: `${bp}/openapi.yaml`,
          health: `${bp}/health`,
        },
      },
      { maxAge },
    ),
  );

  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());

  app.get('/databases', async (request, reply) =>
    sendJson(
      request,
      reply,
      {
        data: listDatabases(ctx).map((name) => ({ name, links: { tables: `${bp}/${name}/tables` } })),
        meta: {},
      },
      { maxAge },
    ),
  );

  app.get<{ Params: { db: string } }>('/:db/tables', async (request, reply) =>
    sendJson(request, reply, { data: await listTables(ctx, request.params.db), meta: {} }, { maxAge }),
  );

  app.get<{ Params: { db: string; table: string } }>('/:db/tables/:table', async (request, reply) =>
    sendJson(
      request,
      reply,
      { data: await describeTable(ctx, request.params.db, request.params.table), meta: {} },
      { maxAge },
    ),
  );
}
