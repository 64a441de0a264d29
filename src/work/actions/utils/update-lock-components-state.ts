/**
 * `dd_utils_api.update_lock_components_state`, as the stock client sends it (page.js focus,
 * ui.js blur, navigation): `options: {section_tipo, section_id, component_tipo, action}`.
 * - `focus` takes the lock, or renews it (the heartbeat: a lock lapses 150 s after the last
 *   focus). Someone else's live lock refuses it with 409 `record.in_use`, whose message and
 *   `error.details` name the holder (user id, username, full name, since when). It needs the
 *   save level on the component and the record in the caller's projects: a user who cannot
 *   write a field cannot keep others from writing it.
 * - `blur` releases the caller's lock on that component; `delete_user_section_locks` every lock
 *   of the caller in `section_tipo` (the stock client sends `component_tipo` and `section_id`
 *   null), or everywhere when no section is given. Both only ever touch the caller's own locks.
 * Success answers carry the extension `in_use: false`, which the stock client reads.
 */

import type { ActionContext, ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import {
  LOCK_TTL_MS,
  type LockKey,
  releaseLock,
  releaseUserLocks,
  releaseUserSectionLocks,
  takeLock,
} from '../../locks/component-locks.js';
import { inUseError } from '../../locks/in-use-error.js';
import {
  assertRecordAccess,
  assertWritableSection,
  callerAccess,
  requireComponent,
  requireRecordId,
  requireSection,
} from '../core/record-access.js';
import { objectField, requiredString } from '../rqo-fields.js';

/** SQLSTATE of a foreign key violation. */
const FOREIGN_KEY_VIOLATION = '23503';

const LOCK_ACTIONS = ['focus', 'blur', 'delete_user_section_locks'] as const;
type LockAction = (typeof LOCK_ACTIONS)[number];

function lockAction(value: string): LockAction {
  const found = LOCK_ACTIONS.find((a) => a === value);
  if (!found) {
    throw new WorkError(
      'rqo.invalid_field',
      `options.action must be one of ${LOCK_ACTIONS.join(', ')} (got ${JSON.stringify(value.slice(0, 32))})`,
    );
  }
  return found;
}

function lockKey(ctx: ActionContext, options: Record<string, unknown>): LockKey {
  const section = requireSection(ctx, options.section_tipo, 'options.section_tipo');
  const component = requireComponent(ctx, section, options.component_tipo, 'options.component_tipo');
  const sectionId = requireRecordId(ctx, options.section_id, 'options.section_id');
  return { section_tipo: section.tipo, section_id: sectionId, component_tipo: component.tipo };
}

export const updateLockComponentsStateAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const options = objectField(ctx.rqo, 'options');
    const action = lockAction(requiredString(options, 'action', 'options.action', 64));
    const session = ctx.session!;
    const extensions = { in_use: false };

    if (action === 'delete_user_section_locks') {
      const given = options.section_tipo;
      const released =
        given === undefined || given === null
          ? await releaseUserLocks(ctx.db, session.userId)
          : await releaseUserSectionLocks(
              ctx.db,
              session.userId,
              requireSection(ctx, given, 'options.section_tipo').tipo,
            );
      return { data: { released }, extensions };
    }

    const key = lockKey(ctx, options);
    if (action === 'blur') {
      return { data: { released: await releaseLock(ctx.db, key, session.userId) }, extensions };
    }

    // Nobody writes a consultation-only section (the activity log): there is nothing to hold.
    assertWritableSection(requireSection(ctx, key.section_tipo, 'options.section_tipo'));
    const access = await callerAccess(ctx);
    await assertRecordAccess(ctx, access, 'save', key, key.component_tipo);
    const outcome = await takeLock(
      ctx.db,
      key,
      { userId: session.userId, sessionSha256: session.tokenSha256 },
      ctx.now,
    ).catch((err: { code?: string }) => {
      // The session was ended (quit in another tab, an administrator) since this request read
      // it: the lock's foreign key refuses it, and the caller has no session any more.
      if (err?.code === FOREIGN_KEY_VIOLATION) throw new WorkError('auth.not_logged');
      throw err;
    });
    if (!outcome.taken) {
      ctx.log.info({ lock: key, holder: outcome.holder.user_id }, 'component lock refused: in use');
      throw inUseError(key, outcome.holder);
    }
    return {
      data: {
        ...key,
        since: outcome.since,
        expires_at: new Date(ctx.now.getTime() + LOCK_TTL_MS).toISOString(),
      },
      extensions,
    };
  },
};
