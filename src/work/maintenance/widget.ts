/**
 * What a maintenance widget is: a value (`get_widget_value`) and an allowlist of methods
 * (`widget_request`). Each names whether only a global administrator may call it; everything else
 * needs the maintenance area dd88 (level 1 to read a value, 2 to run a method).
 */

import type { Fields } from '../actions/rqo-fields.js';
import type { ActionContext } from '../dispatch/action-registry.js';

export interface WidgetMethod {
  /** True for global administrators only: modify_counter, and everything about other users' sessions. */
  globalAdminOnly: boolean;
  run(ctx: ActionContext, options: Fields): Promise<unknown>;
}

export interface MaintenanceWidget {
  /** What `get_widget_value` answers. */
  value: WidgetMethod;
  /** The methods `widget_request` may call, by name; nothing else is reachable. */
  methods: Readonly<Record<string, WidgetMethod>>;
}
