/**
 * The first gate: the raw body becomes an RQO or a registered refusal. Only the envelope fields
 * every action shares are checked here (an object, a string `action`, an optional string
 * `dd_api`); each action validates its own `source`, `sqo`, `options` and `data`.
 */
import { WorkError } from './error-registry.js';

export const DEFAULT_API = 'dd_core_api';

export interface Rqo {
  dd_api: string;
  action: string;
  /** The whole parsed body, for the action to validate the fields it uses. */
  body: Record<string, unknown>;
}

export function parseRqo(raw: string): Rqo {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new WorkError('request.malformed_body');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new WorkError('request.invalid_rqo', 'The request body must be a JSON object (an RQO)');
  }
  const body = value as Record<string, unknown>;
  // Own properties only: JSON.parse makes "__proto__" an own key, never the prototype.
  const action = Object.hasOwn(body, 'action') ? body.action : undefined;
  if (typeof action !== 'string' || action === '') {
    throw new WorkError('request.invalid_rqo', 'The RQO must name an action (a non-empty string)');
  }
  const api = Object.hasOwn(body, 'dd_api') ? body.dd_api : undefined;
  if (api !== undefined && typeof api !== 'string') {
    throw new WorkError('request.invalid_rqo', 'dd_api must be a string when given');
  }
  return { dd_api: api ?? DEFAULT_API, action, body };
}
