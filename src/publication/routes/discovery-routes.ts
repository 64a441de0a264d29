/**
 * Discovery: the index, the database list, table lists and table schemas, and the favicon
 * browsers ask for (operations/discovery.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestContext } from '../http/request-context.js';
import { type PreparedJson, prepareJson, sendPreparedJson } from '../http/send-json.js';
import { appendVary } from '../http/vary.js';
import {
  databasesOperation,
  faviconOperation,
  indexOperation,
  tableOperation,
  tablesOperation,
  tablesWithSlashOperation,
} from '../operations/discovery.js';
import { BROWSE_PREFIX, browseKit, pageRequest, prefersHtml, sendHtml } from './browse-routes.js';
import { serveOperation } from './operation-route.js';

// Re-exported for the routes that name the API (docs, health).
export { API_NAME, API_VERSION } from '../operations/discovery.js';

/** GET /favicon.ico, under BASE_PATH and at the root: 204, synchronously, like bare Fastify. */
export function faviconHandler(_request: FastifyRequest, reply: FastifyReply): void {
  reply.code(204).send();
}

export async function discoveryRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const bp = ctx.config.basePath;
  // A browser opening the API root gets the browse home page (links to the data and the docs);
  // every other client the JSON index, as before.
  // The JSON index depends on the configuration only: its bytes and ETag are made once, on the
  // first request (the same operation batch runs), instead of serialised and hashed every time.
  let index: PreparedJson | undefined;
  app.get(indexOperation.path, async (request, reply) => {
    appendVary(reply, 'Accept');
    if (prefersHtml(request.headers.accept)) {
      const urls = { browse: `${bp}${BROWSE_PREFIX}`, api: bp };
      const k = await browseKit();
      const page = await k.homePage(requestContext(request), urls, pageRequest(k, request));
      return sendHtml(
        reply,
        k.renderPage('@home', page),
        ctx.config.cacheMaxAge,
        200,
        ctx.config.mediaBaseUrl,
      );
    }
    if (index === undefined) {
      const answer = await indexOperation.run(requestContext(request), {
        params: {},
        query: () => new Map(),
      });
      index = prepareJson(answer.body);
    }
    return sendPreparedJson(request, reply, index, ctx.config.cacheMaxAge);
  });
  // The favicon (an empty answer; batch may name it through faviconOperation) answers at once:
  // no operation, no request context, no promise.
  app.get(faviconOperation.path, faviconHandler);
  for (const operation of [databasesOperation, tablesOperation, tablesWithSlashOperation, tableOperation]) {
    serveOperation(app, operation);
  }
}
