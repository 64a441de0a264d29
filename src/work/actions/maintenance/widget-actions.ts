/**
 * `dd_area_maintenance_api` `get_widget_value` and `widget_request`: `source.model` names a widget
 * of maintenance/widgets.ts, `source.action` (widget_request) one of its allowlisted methods,
 * `options` its parameters. Access: the maintenance area dd88 at level 1 to read a value, 2 to run
 * a method (global admins always); methods marked so are for global admins only. The checks run
 * in that order: widget, method, access, then the method itself.
 */
import { assertGlobalAdmin, type UserAccess } from '../../auth/permissions.js';
import type { ActionContext, ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { assertMaintenanceAccess } from '../../maintenance/access.js';
import type { MaintenanceWidget, WidgetMethod } from '../../maintenance/widget.js';
import { MAINTENANCE_WIDGETS } from '../../maintenance/widgets.js';
import { callerAccess } from '../core/record-access.js';
import { objectField, requiredString } from '../rqo-fields.js';

const quote = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

function requireWidget(ctx: ActionContext): { source: Record<string, unknown>; widget: MaintenanceWidget } {
  const source = objectField(ctx.rqo, 'source');
  const model = requiredString(source, 'model', 'source.model', 64);
  const widget = MAINTENANCE_WIDGETS.get(model);
  if (!widget) {
    throw new WorkError(
      'maintenance.widget_unknown',
      `source.model ${quote(model)} is not a maintenance widget (known: ${[...MAINTENANCE_WIDGETS.keys()].join(', ')})`,
    );
  }
  return { source, widget };
}

/** Reading a value needs level 1 on dd88, running a method level 2; some methods are global admins'. */
function assertWidgetAccess(access: UserAccess, action: 'read' | 'save', method: WidgetMethod): void {
  if (method.globalAdminOnly) assertGlobalAdmin(access);
  else assertMaintenanceAccess(access, action);
}

export const getWidgetValueAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const { widget } = requireWidget(ctx);
    assertWidgetAccess(await callerAccess(ctx), 'read', widget.value);
    return { data: await widget.value.run(ctx, objectField(ctx.rqo, 'options')) };
  },
};

export const widgetRequestAction: ActionDefinition = {
  needsSession: true,
  // May run past WORK_REQUEST_TIMEOUT_MS (a whole section, a sweep); each statement stays limited.
  longRunning: true,
  writes: true,
  handle: async (ctx) => {
    const { source, widget } = requireWidget(ctx);
    const name = requiredString(source, 'action', 'source.action', 64);
    const method = Object.hasOwn(widget.methods, name) ? widget.methods[name] : undefined;
    if (!method) {
      const known = Object.keys(widget.methods);
      throw new WorkError(
        'maintenance.action_refused',
        `source.action ${quote(name)} is not a method of ${String(source.model)} (${known.length > 0 ? `methods: ${known.join(', ')}` : 'it has no methods; read it with get_widget_value'})`,
      );
    }
    assertWidgetAccess(await callerAccess(ctx), 'save', method);
    return { data: await method.run(ctx, objectField(ctx.rqo, 'options')) };
  },
};
