/**
 * The maintenance API's gate (DEDALO-WORK-REFERENCE.md 3.16): level 2 on the maintenance area
 * dd88, which only global admins (and profiles an admin gave it to) have.
 */
import { PermissionDenied, type UserAccess } from '../../auth/permissions.js';

export const MAINTENANCE_AREA = 'dd88';

export function assertMaintenanceAccess(access: UserAccess): void {
  if (access.can('save', MAINTENANCE_AREA, MAINTENANCE_AREA)) return;
  throw new PermissionDenied(access.userId, access.active ? 'level' : 'inactive', MAINTENANCE_AREA);
}
