/**
 * Opens a statement budget for every request (see db/statement-budget.ts). Sub-requests that
 * POST /batch runs in-process carry a per-process secret header and share their parent's
 * budget, so a batch cannot multiply the limit by the number of its queries.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { budgetStorage, StatementBudget } from '../db/statement-budget.js';

export const INTERNAL_HEADER = 'x-publication-internal';

export function installRequestBudget(app: FastifyInstance, timeoutMs: number, maxStatements: number): string {
  const token = randomBytes(24).toString('base64url');
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = budgetStorage.getStore();
    const inherit = parent !== undefined && request.headers[INTERNAL_HEADER] === token;
    budgetStorage.run(inherit ? parent : StatementBudget.forRequest(timeoutMs, maxStatements), done);
  });
  return token;
}
