/**
 * The checks every record action makes before touching data, in one place: the caller's access,
 * a known section, a writable section (not consultation-only), an integer record address, the
 * level on (section, tipo), project scope, and existence. Refusals are the registry's codes.
 */
import { assertCan, type PermissionAction, type UserAccess } from '../../auth/permissions.js';
import type { ActionContext } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { isUnimplementedComponent } from '../../ontology/component-models.js';
import type { OntologyNode } from '../../ontology/ontology-schema.js';
import type { MatrixTable } from '../../store/matrix-tables.js';
import { type RecordKey, recordExists } from '../../store/records.js';
import { parseSectionId } from '../section-id.js';

/** The caller's access (the action needs a session: the dispatcher guaranteed one). */
export function callerAccess(ctx: ActionContext): Promise<UserAccess> {
  return ctx.permissions.forUser(ctx.session!.userId);
}

/** A tipo naming a section of the ontology, or a 404 `element.unknown_tipo` / 400 naming the field. */
export function requireSection(ctx: ActionContext, value: unknown, path: string): OntologyNode {
  if (typeof value !== 'string' || value === '')
    throw new WorkError('rqo.invalid_field', `${path} is required`);
  const node = ctx.ontology.node(value);
  if (!node)
    throw new WorkError('element.unknown_tipo', `${path} "${value.slice(0, 64)}" is not in the ontology`);
  if (node.model !== 'section') {
    throw new WorkError('rqo.invalid_field', `${path} "${value}" is a ${node.model}, not a section`);
  }
  return node;
}

/** A component of `section`, or a 4xx naming the field. */
export function requireComponent(
  ctx: ActionContext,
  section: OntologyNode,
  value: unknown,
  path: string,
): OntologyNode {
  if (typeof value !== 'string' || value === '')
    throw new WorkError('rqo.invalid_field', `${path} is required`);
  const node = ctx.ontology.node(value);
  if (!node)
    throw new WorkError('element.unknown_tipo', `${path} "${value.slice(0, 64)}" is not in the ontology`);
  const owner = ctx.ontology.sectionOf(value)?.tipo;
  // A virtual section's components are its real section's.
  const ofSection = owner === section.tipo || owner === ctx.ontology.virtualOf(section.tipo);
  if (ofSection && isUnimplementedComponent(node.model)) {
    throw new WorkError(
      'component.model_not_implemented',
      `${path} "${value}" is a ${node.model}, a model this archive does not implement: it is shown read-only and cannot be changed`,
      undefined,
      { model: node.model },
    );
  }
  if (!ctx.ontology.isComponentOf(value, section.tipo)) {
    throw new WorkError('rqo.invalid_field', `${path} "${value}" is not a component of ${section.tipo}`);
  }
  return node;
}

/** The section's matrix table (every section has one). */
export function tableOf(ctx: ActionContext, sectionTipo: string): MatrixTable {
  const table = ctx.ontology.tableOf(sectionTipo);
  if (!table) throw new Error(`${sectionTipo} has no matrix table`);
  return table;
}

/** Consultation-only sections (activity dd542) refuse every write with 403. */
export function assertWritableSection(section: OntologyNode): void {
  if (section.read_only) {
    throw new WorkError(
      'perm.section_not_writable',
      `${section.tipo} is consultation-only: its records cannot be created, changed or deleted`,
    );
  }
}

/** An integer record address (record actions do not take opaque ids). */
export function requireRecordId(ctx: ActionContext, value: unknown, path: string): number {
  if (value === undefined || value === null) throw new WorkError('rqo.invalid_field', `${path} is required`);
  const id = parseSectionId(value, path, ctx);
  // section_id columns are 32-bit: a larger id would make the database refuse (a 5xx).
  if (typeof id !== 'number' || id > 2_147_483_647 || id < -2_147_483_648)
    throw new WorkError('rqo.invalid_field', `${path} must be an integer record id`);
  return id;
}

/**
 * Level on (section, tipo) for `action`, the record inside the caller's projects, and the
 * record's existence (404 `resource.not_found` only after the level check, so a caller without
 * access learns nothing about which ids exist).
 */
export async function assertRecordAccess(
  ctx: ActionContext,
  access: UserAccess,
  action: PermissionAction,
  key: RecordKey,
  tipo: string = key.section_tipo,
): Promise<void> {
  assertCan(access, action, key.section_tipo, tipo);
  if (!(await recordExists(ctx.db, tableOf(ctx, key.section_tipo), key))) {
    throw new WorkError('resource.not_found', `${key.section_tipo} ${key.section_id} does not exist`);
  }
  await ctx.permissions.assertRecordInScope(access, key);
}
