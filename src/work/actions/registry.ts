/**
 * Every callable action, by API class. Adding an action means adding it here; nothing else is
 * reachable from a request.
 */
import { type ActionRegistry, buildActionRegistry } from '../dispatch/action-registry.js';
import { startAction } from './core/start.js';

export function workActions(): ActionRegistry {
  return buildActionRegistry({
    dd_core_api: { start: startAction },
    dd_utils_api: {},
    dd_area_maintenance_api: {},
  });
}
