/**
 * `dd_area_maintenance_api.lock_components_actions` (docs/work-api.md) with
 * `options.fn_action`:
 * - `get_active_users`: the live component locks, oldest first, as an array of
 *   `{user_id, username, full_username, section_tipo, section_id, component_tipo, date,
 *   expires_at, section_label, component_label, component_model}` (`date`: since when, ISO 8601;
 *   labels in the session's interface language).
 * - `force_unlock_all_components`: global admin only; releases every lock, or only those of
 *   `options.user_id`; answers `{removed}` and writes an activity row in the same transaction.
 * Any other fn_action is a 400 `maintenance.invalid_fn_action`. Like the whole maintenance API,
 * it needs access to the maintenance area dd88.
 */
import { assertGlobalAdmin } from '../../auth/permissions.js';
import { DEFAULT_LANG, labelOf } from '../../context/element-context.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { activeLocks, releaseAllLocks, releaseUserLocks } from '../../locks/component-locks.js';
import { assertMaintenanceAccess, MAINTENANCE_AREA } from '../../maintenance/access.js';
import { logActivity } from '../../store/activity.js';
import { callerAccess } from '../core/record-access.js';
import { objectField, requiredString } from '../rqo-fields.js';

const FN_ACTIONS = ['get_active_users', 'force_unlock_all_components'] as const;

function optionalUserId(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > 2_147_483_647) {
    throw new WorkError('rqo.invalid_field', 'options.user_id must be an integer user id');
  }
  return value;
}

export const lockComponentsActionsAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const options = objectField(ctx.rqo, 'options');
    const fnAction = requiredString(options, 'fn_action', 'options.fn_action', 64);
    const access = await callerAccess(ctx);
    assertMaintenanceAccess(access);

    if (fnAction === 'get_active_users') {
      // Labels in the session's language, as upstream adds them, so a list names what is held.
      const lang = ctx.session!.applicationLang ?? DEFAULT_LANG;
      const label = (tipo: string) => {
        const node = ctx.ontology.node(tipo);
        return node ? labelOf(node, lang) : tipo;
      };
      const locks = await activeLocks(ctx.db, ctx.now);
      return {
        data: locks.map((l) => ({
          ...l,
          section_label: label(l.section_tipo),
          component_label: label(l.component_tipo),
          component_model: ctx.ontology.node(l.component_tipo)?.model ?? null,
        })),
      };
    }

    if (fnAction === 'force_unlock_all_components') {
      assertGlobalAdmin(access);
      const userId = optionalUserId(options.user_id);
      const removed = await ctx.db.transaction(async (tx) => {
        const n = userId === undefined ? await releaseAllLocks(tx) : await releaseUserLocks(tx, userId);
        await logActivity(tx, {
          userId: access.userId,
          what: 'force_unlock_components',
          where: MAINTENANCE_AREA,
          when: ctx.now,
          data: {
            removed: n,
            ...(userId === undefined ? {} : { user_id: userId }),
            request_id: ctx.requestId,
          },
        });
        return n;
      });
      ctx.log.info({ removed, user_id: userId }, 'component locks force-released');
      return { data: { removed } };
    }

    throw new WorkError(
      'maintenance.invalid_fn_action',
      `options.fn_action ${JSON.stringify(fnAction.slice(0, 64))} is not one of ${FN_ACTIONS.join(', ')}`,
    );
  },
};
