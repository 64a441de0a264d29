/**
 * The maintenance API's gate (docs/work-api.md): the maintenance area dd88, which
 * only global admins (and profiles an admin gave it to) have; level 1 reads a maintenance value,
 * level 2 runs anything. Methods that only global admins may run check that on top.
 */
import { assertCan, type UserAccess } from '../auth/permissions.js';

export const MAINTENANCE_AREA = 'dd88';

export function assertMaintenanceAccess(access: UserAccess, action: 'read' | 'save' = 'save'): void {
  assertCan(access, action, MAINTENANCE_AREA, MAINTENANCE_AREA);
}
