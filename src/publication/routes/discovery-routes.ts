/**
 * Discovery: the index, the database list, table lists and table schemas, and the favicon
 * browsers ask for (operations/discovery.ts).
 */
import type { FastifyInstance } from 'fastify';
import { homePage } from '../browse/pages.js';
import { renderPage } from '../browse/views.js';
import { requestContext } from '../http/request-context.js';
import { appendVary } from '../http/vary.js';
import {
  databasesOperation,
  faviconOperation,
  indexOperation,
  tableOperation,
  tablesOperation,
  tablesWithSlashOperation,
} from '../operations/discovery.js';
import { BROWSE_PREFIX, pageRequest, prefersHtml, sendHtml } from './browse-routes.js';
import { sendAnswer, serveOperation } from './operation-route.js';

// Re-exported for the routes that name the API (docs, health).
export { API_NAME, API_VERSION } from '../operations/discovery.js';

export async function discoveryRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const bp = ctx.config.basePath;
  // A browser opening the API root gets the browse home page (links to the data and the docs);
  // every other client the JSON index, as before.
  app.get(indexOperation.path, async (request, reply) => {
    appendVary(reply, 'Accept');
    const context = requestContext(request);
    if (prefersHtml(request.headers.accept)) {
      const urls = { browse: `${bp}${BROWSE_PREFIX}`, api: bp };
      const page = await homePage(context, urls, pageRequest(request));
      return sendHtml(reply, renderPage('@home', page), ctx.config.cacheMaxAge, 200, ctx.config.mediaBaseUrl);
    }
    const answer = await indexOperation.run(context, { params: {}, query: () => new Map() });
    return sendAnswer(request, reply, answer, ctx.config.cacheMaxAge);
  });
  for (const operation of [
    faviconOperation,
    databasesOperation,
    tablesOperation,
    tablesWithSlashOperation,
    tableOperation,
  ]) {
    serveOperation(app, operation);
  }
}
