/**
 * Records: a filtered, sorted page of a table (with Link headers) and one record by id with its
 * language variants (operations/records.ts); the list also as CSV or NDJSON (operations/exports.ts), and the
 * facets of a table (operations/facets.ts).
 */
import type { FastifyInstance } from 'fastify';
import { exportRecordsOperation } from '../operations/exports.js';
import { facetsOperation } from '../operations/facets.js';
import { getRecordOperation, listRecordsOperation } from '../operations/records.js';
import { serveListOperation, serveOperation } from './operation-route.js';

export async function recordsRoutes(app: FastifyInstance): Promise<void> {
  serveListOperation(app, listRecordsOperation, exportRecordsOperation);
  serveOperation(app, getRecordOperation);
  serveOperation(app, facetsOperation);
}
