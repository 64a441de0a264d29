/**
 * The context an operation runs in for one request: the server's context with `driver`
 * replaced by a view that charges the request's statement budget (db/statement-budget.ts). The
 * budget is opened at the door (edge-hooks.ts), so the deadline counts from the request's
 * arrival; a batch or an MCP message runs all its queries in its one context, so they share it.
 */
import type { FastifyRequest } from 'fastify';
import { RequestDriver, StatementBudget } from '../db/statement-budget.js';
import type { PublicationContext } from '../services/context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Opened by the edge's onRequest hook for every request that passed the door. */
    statementBudget: StatementBudget | null;
  }
}

export function openBudget(request: FastifyRequest, timeoutMs: number, maxStatements: number): void {
  request.statementBudget = StatementBudget.forRequest(timeoutMs, maxStatements);
}

/**
 * The context of `request`'s operations; every statement they run is charged to its budget.
 * `rowsAsJson` for doors that send what they read as JSON and nothing else (context.ts).
 */
export function requestContext(
  request: FastifyRequest,
  options: { rowsAsJson?: boolean } = {},
): PublicationContext {
  const ctx = request.server.ctx;
  const budget =
    request.statementBudget ??
    StatementBudget.forRequest(ctx.config.requestTimeoutMs, ctx.config.requestMaxStatements);
  const scoped: PublicationContext = { ...ctx, driver: new RequestDriver(ctx.driver, budget) };
  if (options.rowsAsJson) scoped.rowsAsJson = true;
  return scoped;
}
