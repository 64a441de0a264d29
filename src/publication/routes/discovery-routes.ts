/**
 * Discovery: the index, the database list, table lists and table schemas, and the favicon
 * browsers ask for (operations/discovery.ts).
 */
import type { FastifyInstance } from 'fastify';
import {
  databasesOperation,
  faviconOperation,
  indexOperation,
  tableOperation,
  tablesOperation,
} from '../operations/discovery.js';
import { serveOperation } from './operation-route.js';

// Re-exported for the routes that name the API (docs, health).
export { API_NAME, API_VERSION } from '../operations/discovery.js';

export async function discoveryRoutes(app: FastifyInstance): Promise<void> {
  for (const operation of [
    indexOperation,
    faviconOperation,
    databasesOperation,
    tablesOperation,
    tableOperation,
  ]) {
    serveOperation(app, operation);
  }
}
