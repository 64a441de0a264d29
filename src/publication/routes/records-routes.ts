/**
 * Records: a filtered, sorted page of a table (with Link headers) and one record by id with its
 * language variants (operations/records.ts).
 */
import type { FastifyInstance } from 'fastify';
import { getRecordOperation, listRecordsOperation } from '../operations/records.js';
import { serveOperation } from './operation-route.js';

export async function recordsRoutes(app: FastifyInstance): Promise<void> {
  serveOperation(app, listRecordsOperation);
  serveOperation(app, getRecordOperation);
}
