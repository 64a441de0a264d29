/**
 * GET /{db}/tables/{table}/search: boolean full-text search with relevance and highlighted
 * fragments, paged like the records list (operations/search.ts); also as CSV or NDJSON.
 */
import type { FastifyInstance } from 'fastify';
import { exportSearchOperation } from '../operations/exports.js';
import { searchOperation } from '../operations/search.js';
import { serveListOperation } from './operation-route.js';

export async function searchRoutes(app: FastifyInstance): Promise<void> {
  serveListOperation(app, searchOperation, exportSearchOperation);
}
