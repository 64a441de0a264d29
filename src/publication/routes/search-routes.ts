/**
 * GET /{db}/tables/{table}/search: boolean full-text search with relevance and highlighted
 * fragments, paged like the records list (operations/search.ts).
 */
import type { FastifyInstance } from 'fastify';
import { searchOperation } from '../operations/search.js';
import { serveOperation } from './operation-route.js';

export async function searchRoutes(app: FastifyInstance): Promise<void> {
  serveOperation(app, searchOperation);
}
