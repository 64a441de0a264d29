/**
 * The record scope of a user as the search layer takes it: for a non-admin, each section that
 * has a project filter component (component_filter) is limited to records whose filter names one
 * of the user's projects (dd170); an inactive user or one without projects sees no record there.
 * Global admins and sections without a project filter are not limited. Mirrors
 * PermissionsEngine.projectScope, built from the access alone so any action can call it.
 */
import { isGlobalAdmin, type UserAccess } from '../auth/permissions.js';
import { projectFilterCondition, projectFilterTipoOf } from '../auth/permissions-store.js';
import type { Ontology } from '../ontology/load-ontology.js';
import type { ScopeFn } from './sqo-sql.js';

export function scopeFor(ontology: Ontology, access: UserAccess): ScopeFn {
  if (isGlobalAdmin(access)) return () => undefined;
  return (sectionTipo, firstParam, alias) => {
    const filterTipo = projectFilterTipoOf(ontology, sectionTipo);
    if (!filterTipo) return undefined;
    return projectFilterCondition(
      ontology,
      filterTipo,
      access.active ? access.projectIds : [],
      firstParam,
      alias,
    );
  };
}
