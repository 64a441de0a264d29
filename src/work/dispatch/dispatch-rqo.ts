/**
 * Runs one request through the gates in the order docs/work-api.md gives: body parses as an RQO -> dd_api
 * is known -> action is registered -> session if the action needs one -> CSRF header equal to
 * the session's token -> handler (which checks permissions). The session itself was resolved
 * from the cookie before the first gate. Every refusal is a WorkError; the route turns it into
 * the envelope. A PermissionDenied thrown by a handler becomes the 403 `perm.denied`.
 */
import { matchesAnySecret } from '../../common/constant-time.js';
import { PermissionDenied, type PermissionsEngine } from '../auth/permissions.js';
import { claimIdempotencyKey, releaseIdempotencyKey, storeIdempotentAnswer } from '../store/idempotency.js';
import type { ActionRegistry, ActionResult, DispatchContext } from './action-registry.js';
import { type ErrorCode, WorkError } from './error-registry.js';
import { parseRqo, type Rqo } from './parse-rqo.js';

/** Names echoed in messages are the client's own input: quoted and cut short. */
const quote = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

const DENIED_CODES: Record<PermissionDenied['reason'], ErrorCode> = {
  level: 'perm.denied',
  inactive: 'perm.denied',
  global_admin: 'perm.global_admin_required',
  project_scope: 'perm.out_of_scope',
};

/** The RQO's `idempotency_key`: a short string, or undefined when absent. */
function idempotencyKey(rqo: Rqo): string | undefined {
  const key = Object.hasOwn(rqo.body, 'idempotency_key') ? rqo.body.idempotency_key : undefined;
  if (key === undefined || key === null) return undefined;
  if (typeof key !== 'string' || key.length === 0 || key.length > 128) {
    throw new WorkError('rqo.invalid_field', 'idempotency_key must be a string of 1 to 128 characters');
  }
  return key;
}

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
  if (!api) throw new WorkError('request.unknown_api', `Unknown dd_api ${quote(rqo.dd_api)}`);
  const action = api.get(rqo.action);
  if (!action) {
    throw new WorkError(
      'request.unknown_action',
      `Action ${quote(rqo.action)} is not registered in ${rqo.dd_api}`,
    );
  }
  if (action.needsSession) {
    if (context.session === undefined) throw new WorkError('auth.not_logged');
    // Constant time: a mismatch position must not leak through the answer's timing.
    if (csrfHeader === undefined || !matchesAnySecret(csrfHeader, [context.session.csrfToken])) {
      throw new WorkError('auth.csrf_failed');
    }
  }
  if (action.longRunning) context.unbounded?.();
  const permissions = permissionsEngine.requestScope(context.ontology);
  const run = async (): Promise<ActionResult> => {
    try {
      return await action.handle({ ...context, rqo, permissions });
    } catch (err) {
      if (!(err instanceof PermissionDenied)) throw err;
      context.log.info(
        { user_id: err.userId, reason: err.reason, section_tipo: err.sectionTipo, tipo: err.tipo },
        'permission denied',
      );
      throw new WorkError(DENIED_CODES[err.reason], deniedMessage(err));
    }
  };
  const key = action.writes && context.session ? idempotencyKey(rqo) : undefined;
  if (key === undefined || !context.session) return run();
  const token = context.session.tokenSha256;
  const claim = await claimIdempotencyKey(context.db, token, key, context.now);
  if (!claim.claimed) {
    if (claim.answer === null) throw new WorkError('record.idempotency_in_progress');
    context.log.info({ idempotency_key: key }, 'idempotent replay');
    return claim.answer as ActionResult;
  }
  let result: ActionResult;
  try {
    result = await run();
  } catch (err) {
    // The write did not happen: a retry with the same key may run it.
    await releaseIdempotencyKey(context.db, token, key).catch(() => {});
    throw err;
  }
  const { sessionCookie: _cookie, ...answer } = result;
  await storeIdempotentAnswer(context.db, token, key, answer);
  return result;
}
