/**
 * Who may publish (docs/security-rights.md, "Publishing"): the records of a section, a user whose
 * profile gives level 3 on that section (editing is level 2: a cataloguer edits and marks records
 * Publishable, an editor with level 3 sends them to the publication); a whole section at once,
 * global administrators only (it reaches records outside anyone's projects). One rule for
 * `dd_diffusion_api.diffuse` (which enforces it) and `get_diffusion_info` (which tells the client
 * what to offer).
 */
import { WorkError } from '../dispatch/error-registry.js';
import { isGlobalAdmin, type UserAccess } from './permissions.js';

/** The level on a section that lets a profile publish its records. */
export const PUBLISH_LEVEL = 3;

export interface PublishRights {
  /** May publish one record of the section (still only records in their projects). */
  record: boolean;
  /** May publish every record of the section at once. */
  section: boolean;
}

export function publishRights(access: UserAccess, sectionTipo: string): PublishRights {
  return {
    record: access.active && access.level(sectionTipo) >= PUBLISH_LEVEL,
    section: isGlobalAdmin(access),
  };
}

/** A 403 that says which right is missing, unless `access` may publish (a record, or the section). */
export function assertMayPublish(access: UserAccess, sectionTipo: string, what: 'record' | 'section'): void {
  const rights = publishRights(access, sectionTipo);
  if (rights[what]) return;
  if (what === 'section')
    throw new WorkError(
      'perm.global_admin_required',
      `Publishing every record of ${sectionTipo} at once is for global administrators only: publish records one by one`,
    );
  throw new WorkError(
    'perm.denied',
    `Your profile does not allow publishing records of ${sectionTipo} (it needs level ${PUBLISH_LEVEL}, publish, on the section)`,
  );
}
