/**
 * Fragments of records: highlighted text excerpts (`.../fragments`), the same over the
 * transcription with media windows and speakers (`.../av-fragments`), and the passage an
 * indexation locator points at (`/{db}/av-indexation-fragment`); see operations/fragments.ts.
 */
import type { FastifyInstance } from 'fastify';
import {
  avFragmentsOperation,
  indexationFragmentOperation,
  textFragmentsOperation,
} from '../operations/fragments.js';
import { serveOperation } from './operation-route.js';

export async function fragmentsRoutes(app: FastifyInstance): Promise<void> {
  serveOperation(app, textFragmentsOperation);
  serveOperation(app, avFragmentsOperation);
  serveOperation(app, indexationFragmentOperation);
}
