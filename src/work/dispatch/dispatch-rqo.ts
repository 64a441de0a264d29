/**
 * Runs one request through the gates in WORK-MODEL.md's order: body parses as an RQO -> dd_api
 * is known -> action is registered -> session if the action needs one -> CSRF header equal to
 * the session's token -> handler (which checks permissions). The session itself was resolved
 * from the cookie before the first gate. Every refusal is a WorkError; the route turns it into
 * the envelope.
 */
import { matchesAnySecret } from '../../common/constant-time.js';
import type { ActionContext, ActionRegistry, ActionResult } from './action-registry.js';
import { WorkError } from './error-registry.js';
import { parseRqo } from './parse-rqo.js';

/** Names echoed in messages are the client's own input: quoted and cut short. */
const quote = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

export async function dispatchRqo(
  registry: ActionRegistry,
  rawBody: string,
  context: Omit<ActionContext, 'rqo'>,
  /** The X-Dedalo-Csrf-Token header as received. */
  csrfHeader: string | undefined,
): Promise<ActionResult> {
  const rqo = parseRqo(rawBody);
  const api = registry.get(rqo.dd_api);
  if (!api) throw new WorkError('rqo.unknown_api', `Unknown dd_api ${quote(rqo.dd_api)}`);
  const action = api.get(rqo.action);
  if (!action) {
    throw new WorkError(
      'rqo.unknown_action',
      `Action ${quote(rqo.action)} is not registered in ${rqo.dd_api}`,
    );
  }
  if (action.needsSession) {
    if (context.session === undefined) throw new WorkError('auth.session_required');
    // Constant time: a mismatch position must not leak through the answer's timing.
    if (csrfHeader === undefined || !matchesAnySecret(csrfHeader, [context.session.csrfToken])) {
      throw new WorkError('auth.csrf_invalid');
    }
  }
  return action.handle({ ...context, rqo });
}
