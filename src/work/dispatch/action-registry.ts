/**
 * The explicit registry of callable actions, per API class. Lookups go through Maps, so names
 * like `constructor`, `__proto__` or `toString` are simply absent (an unregistered action is a
 * 404 envelope, never a 5xx). An action declares whether it needs a session; the dispatcher
 * enforces that before the handler runs.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Ontology } from '../ontology/load-ontology.js';
import type { SqlClient } from '../store/sql-client.js';
import type { Notice } from './envelope.js';
import type { Rqo } from './parse-rqo.js';

/** What a handler is given: the parsed RQO and the shared resources, nothing global. */
export interface ActionContext {
  rqo: Rqo;
  requestId: string;
  /** The caller's session, or undefined (sessions arrive with the auth slice). */
  session: undefined;
  db: SqlClient;
  ontology: Ontology;
  log: FastifyBaseLogger;
}

export interface ActionResult {
  data: unknown;
  /** Top-level extension keys (`environment`, `table`, `user_id`, `csrf_token`). */
  extensions?: Record<string, unknown>;
  notices?: Notice[];
}

export interface ActionDefinition {
  needsSession: boolean;
  handle(ctx: ActionContext): Promise<ActionResult>;
}

export type ActionRegistry = ReadonlyMap<string, ReadonlyMap<string, ActionDefinition>>;

export function buildActionRegistry(apis: Record<string, Record<string, ActionDefinition>>): ActionRegistry {
  return new Map(
    Object.entries(apis).map(([api, actions]) => [api, new Map(Object.entries(actions))] as const),
  );
}
