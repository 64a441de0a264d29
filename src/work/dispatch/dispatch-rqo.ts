/**
 * Runs one request through the gates in WORK-MODEL.md's order: body parses as an RQO -> dd_api
 * is known -> action is registered -> session if the action needs one -> CSRF header equal to
 * the session's token -> handler (which checks permissions). The session itself was resolved
 * from the cookie before the first gate. Every refusal is a WorkError; the route turns it into
 * the envelope. A PermissionDenied thrown by a handler becomes the 403 `permission.denied`.
 */
import { matchesAnySecret } from '../../common/constant-time.js';
import { PermissionDenied, type PermissionsEngine } from '../auth/permissions.js';
import type { ActionRegistry, ActionResult, DispatchContext } from './action-registry.js';
import { WorkError } from './error-registry.js';
import { parseRqo } from './parse-rqo.js';

/** Names echoed in messages are the client's own input: quoted and cut short. */
const quote = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

/** The 403 message: what was refused, never the user's levels. */
function deniedMessage(err: PermissionDenied): string {
  switch (err.reason) {
    case 'inactive':
      return 'This account is inactive';
    case 'global_admin':
      return 'Only a global administrator may do this';
    case 'project_scope':
      return `This record of ${err.sectionTipo ?? 'this section'} is outside your projects`;
    default:
      return err.tipo && err.tipo !== err.sectionTipo
        ? `Your profile gives no access to ${err.tipo} in ${err.sectionTipo}`
        : `Your profile gives no access to ${err.sectionTipo ?? 'this element'}`;
  }
}

export async function dispatchRqo(
  registry: ActionRegistry,
  rawBody: string,
  context: DispatchContext,
  /** The X-Dedalo-Csrf-Token header as received. */
  csrfHeader: string | undefined,
  /** The process's permissions engine; each request gets its own memo from it. */
  permissionsEngine: PermissionsEngine,
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
  const permissions = permissionsEngine.requestScope();
  try {
    return await action.handle({ ...context, rqo, permissions });
  } catch (err) {
    if (!(err instanceof PermissionDenied)) throw err;
    context.log.info(
      { user_id: err.userId, reason: err.reason, section_tipo: err.sectionTipo, tipo: err.tipo },
      'permission denied',
    );
    throw new WorkError('permission.denied', deniedMessage(err));
  }
}
