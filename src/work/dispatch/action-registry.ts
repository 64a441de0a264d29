/**
 * The explicit registry of callable actions, per API class. Lookups go through Maps, so names
 * like `constructor`, `__proto__` or `toString` are simply absent (an unregistered action is a
 * 404 envelope, never a 5xx). An action declares whether it needs a session; the dispatcher
 * enforces that, and then the CSRF header, before the handler runs.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Publisher } from '../../publish/publisher.js';
import type { RequestPermissions } from '../auth/permissions.js';
import type { Session } from '../auth/sessions.js';
import type { WorkConfig } from '../config.js';
import type { Ontology } from '../ontology/load-ontology.js';
import type { SqlClient } from '../store/sql-client.js';
import type { DeprecationCounter } from './deprecations.js';
import type { Notice } from './envelope.js';
import type { Rqo } from './parse-rqo.js';

/** What a handler is given: the parsed RQO and the shared resources, nothing global. */
export interface ActionContext {
  rqo: Rqo;
  requestId: string;
  /** The caller's live session (resolved from the cookie before the gates), or undefined. */
  session: Session | undefined;
  /** The request's moment, from the app's clock: every expiry and log entry of it uses this. */
  now: Date;
  /** The client's address (TRUST_PROXY aware), for throttling and the activity log. */
  clientAddress: string;
  config: WorkConfig;
  db: SqlClient;
  ontology: Ontology;
  deprecations: DeprecationCounter;
  log: FastifyBaseLogger;
  /**
   * This request's view of the process's permissions engine (each user's access read at most
   * once per request). A refused check throws PermissionDenied; the dispatcher answers 403.
   */
  permissions: RequestPermissions;
  /** Publishing to the publication targets (dd_diffusion_api); absent when not configured. */
  publisher?: Publisher;
  /** The request's Cookie header (login reads the device cookie from it). */
  cookieHeader: string | undefined;
  /** The device cookie's HMAC key (auth/device-cookie.ts). */
  deviceCookieSecret: string;
  /** Lifts the request's deadline (WORK_REQUEST_TIMEOUT_MS); called for `longRunning` actions. */
  unbounded?: () => void;
}

/** What the route hands the dispatcher: everything but the RQO and the request's permissions. */
export type DispatchContext = Omit<ActionContext, 'rqo' | 'permissions'>;

/** What the route does with the session cookie after the action: set a new token or clear it. */
export type SessionCookieChange = { set: string } | { clear: true };

export interface ActionResult {
  data: unknown;
  /** Top-level extension keys (`environment`, `table`, `user_id`, `csrf_token`). */
  extensions?: Record<string, unknown>;
  notices?: Notice[];
  /** Only login and quit use this; the token never goes into the body. */
  sessionCookie?: SessionCookieChange;
  /** Only login: the device cookie to set (auth/device-cookie.ts). */
  deviceCookie?: { name: string; value: string };
}

export interface ActionDefinition {
  /**
   * True: the action needs a live session and, after that, the CSRF header. The protocol allows
   * exactly two actions without either (start and login), so one flag says both.
   */
  needsSession: boolean;
  /**
   * The action changes data: a top-level `idempotency_key` makes a retry with the same key (same
   * session, ten minutes) answer the first answer instead of running again.
   */
  writes?: boolean;
  /**
   * The action may legitimately take longer than WORK_REQUEST_TIMEOUT_MS (publishing a whole
   * section, maintenance widgets): the request's deadline does not apply to it; each of its
   * statements keeps its own limits (store/pg-client.ts).
   */
  longRunning?: boolean;
  handle(ctx: ActionContext): Promise<ActionResult>;
}

export type ActionRegistry = ReadonlyMap<string, ReadonlyMap<string, ActionDefinition>>;

export function buildActionRegistry(apis: Record<string, Record<string, ActionDefinition>>): ActionRegistry {
  return new Map(
    Object.entries(apis).map(([api, actions]) => [api, new Map(Object.entries(actions))] as const),
  );
}
