/**
 * Opens a statement budget for every request (see db/statement-budget.ts). The queries of a
 * POST /batch run inside the batch request's handler (operations/batch.ts), so they charge this
 * same budget and deadline: a batch cannot multiply the limit by the number of its queries.
 */
import type { FastifyInstance } from 'fastify';
import { budgetStorage, StatementBudget } from '../db/statement-budget.js';

export function installRequestBudget(app: FastifyInstance, timeoutMs: number, maxStatements: number): void {
  app.addHook('onRequest', (_request, _reply, done) => {
    budgetStorage.run(StatementBudget.forRequest(timeoutMs, maxStatements), done);
  });
}
