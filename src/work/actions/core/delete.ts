/**
 * `dd_core_api.delete`: empties (`delete_data`, the default) or removes (`delete_record`) records
 * of one section, addressed by `source.section_id`, or by `sqo` when no section_id is given (the
 * stock client sends both: the id wins). Checks, in order: a known, writable section (activity
 * dd542 refuses), a valid mode, level >= 2 on the section, then per record its existence and,
 * for non-admins, the project scope. An SQO that selects more than one record is a bulk delete:
 * global admins only, and only over the gated section (`sqo.section_tipo` must be exactly
 * `source.section_tipo`); at most `sqo.limit` records (1000 when not given) go per call.
 * Records with children are skipped under delete_record and listed in one
 * `record.delete_children_refused` notice; the call still succeeds. Everything a call deletes is
 * one transaction (records/delete-records.ts). A non-global admin may not delete root or a global
 * administrator, nor (delete_record) remove a locator from one, nor leave a user holding more
 * than they hold (auth/rights-ceiling.ts). Answers the deleted ids.
 *
 * Ontology sections (ontology/ontology-edit.ts): delete_record of a node record removes the node
 * (the answer's `removed_component_values` counts the records holding values of a removed
 * component: they stay stored, hidden); delete_record of a main record uninstalls its TLD, which
 * `options.confirm_uninstall: true` must confirm while records of its sections exist. The main
 * section refuses delete_data (a TLD is uninstalled by deleting its record).
 */
import { assertCan, assertGlobalAdmin, isGlobalAdmin, type UserAccess } from '../../auth/permissions.js';
import { accountGuard } from '../../auth/rights-ceiling.js';
import type { ActionContext, ActionDefinition } from '../../dispatch/action-registry.js';
import type { Notice } from '../../dispatch/envelope.js';
import { ERROR_REGISTRY, WorkError } from '../../dispatch/error-registry.js';
import {
  afterOntologyWrite,
  beforeOntologyDelete,
  ontologySectionKind,
} from '../../ontology/ontology-edit.js';
import type { OntologyNode } from '../../ontology/ontology-schema.js';
import { DELETE_MODES, type DeleteMode, deleteRecordsIn } from '../../records/delete-records.js';
import { parseSqo, SQO_LIMITS, sectionsReadBy } from '../../search/parse-sqo.js';
import { searchRecords } from '../../search/search-records.js';
import { scopeFor } from '../../search/search-scope.js';
import { objectField, optionalBoolean, optionalObject, optionalString } from '../rqo-fields.js';
import {
  assertRecordAccess,
  assertWritableSection,
  callerAccess,
  requireRecordId,
  requireSection,
} from './record-access.js';

const USERS_SECTION = 'dd128';
const PROFILES_SECTION = 'dd234';
const PROJECTS_SECTION = 'dd153';
const CHILDREN_REFUSED = 'record.delete_children_refused';

function deleteModeOf(source: Record<string, unknown>): DeleteMode {
  const mode = optionalString(source, 'delete_mode', 'source.delete_mode', 32) ?? 'delete_data';
  if (!(DELETE_MODES as readonly string[]).includes(mode)) {
    throw new WorkError('rqo.invalid_field', `source.delete_mode must be one of ${DELETE_MODES.join(', ')}`);
  }
  return mode as DeleteMode;
}

/** `source.section_tipo`, or `source.tipo` when it is absent (older clients). */
function sectionOf(ctx: ActionContext, source: Record<string, unknown>): OntologyNode {
  const given = source.section_tipo !== undefined && source.section_tipo !== null;
  return given || source.tipo === undefined || source.tipo === null
    ? requireSection(ctx, source.section_tipo, 'source.section_tipo')
    : requireSection(ctx, source.tipo, 'source.tipo');
}

/** A record below 1 (root is dd128 -1) is never deleted through the API. */
function deletableId(ctx: ActionContext, value: unknown): number {
  const id = requireRecordId(ctx, value, 'source.section_id');
  if (id < 1) {
    throw new WorkError(
      'rqo.invalid_field',
      `source.section_id must be a record id of 1 or more (${id} cannot be deleted)`,
    );
  }
  return id;
}

/**
 * The records an SQO selects for deletion. Non-admins may delete through an SQO only when it
 * selects a single record (that record's scope is then checked like a by-id delete), so for
 * them two rows are enough to know; global admins get every selected record up to the limit.
 */
async function idsBySqo(
  ctx: ActionContext,
  access: UserAccess,
  section: OntologyNode,
  rawSqo: Record<string, unknown>,
): Promise<number[]> {
  const sqo = parseSqo({ ...rawSqo, section_tipo: rawSqo.section_tipo ?? [section.tipo] }, ctx.ontology, {
    defaultLimit: SQO_LIMITS.maxLimit,
  });
  if (sqo.mode === 'tm' || sqo.mode === 'related') {
    throw new WorkError('search.invalid_sqo', `sqo.mode "${sqo.mode}" cannot select records to delete`);
  }
  if (sqo.section_tipo.length !== 1 || sqo.section_tipo[0] !== section.tipo) {
    throw new WorkError(
      'search.invalid_sqo',
      `sqo.section_tipo must be exactly ["${section.tipo}"] (the section of source.section_tipo)`,
    );
  }
  for (const st of sectionsReadBy(sqo)) assertCan(access, 'read', st);
  if (isGlobalAdmin(access)) {
    const { records } = await searchRecords(ctx.db, ctx.ontology, sqo, scopeFor(ctx.ontology, access));
    return records.map((r) => r.section_id).filter((id) => id >= 1);
  }
  // Unscoped on purpose: a record outside the caller's projects is a 403 below, as by id.
  const { records } = await searchRecords(ctx.db, ctx.ontology, { ...sqo, limit: 2 }, () => undefined);
  if (records.length > 1) assertGlobalAdmin(access);
  const ids = records.map((r) => r.section_id).filter((id) => id >= 1);
  for (const id of ids) {
    await assertRecordAccess(ctx, access, 'delete', { section_tipo: section.tipo, section_id: id });
  }
  return ids;
}

/** Permissions cached by this instance that the deletion made stale (other instances see the
 *  version bump of the users and profiles tables). */
function invalidatePermissions(ctx: ActionContext, sectionTipo: string, deleted: readonly number[]): void {
  if (deleted.length === 0) return;
  if (sectionTipo === USERS_SECTION) {
    for (const id of deleted) ctx.permissions.engine.invalidateUser(id);
  } else if (sectionTipo === PROFILES_SECTION || sectionTipo === PROJECTS_SECTION) {
    // Users lost the profile or project: their locators to it were removed (delete_record).
    ctx.permissions.engine.invalidateProfiles();
  }
}

export const deleteAction: ActionDefinition = {
  needsSession: true,
  writes: true,
  handle: async (ctx) => {
    const source = objectField(ctx.rqo, 'source');
    const section = sectionOf(ctx, source);
    assertWritableSection(section);
    const mode = deleteModeOf(source);
    const hasId = source.section_id !== undefined && source.section_id !== null;
    const rawSqo = optionalObject(ctx.rqo.body, 'sqo', 'sqo');
    if (!hasId && !rawSqo) {
      throw new WorkError(
        'rqo.invalid_field',
        'source.section_id is required (or an sqo selecting the records)',
      );
    }
    const byId = hasId ? deletableId(ctx, source.section_id) : undefined;
    const access = await callerAccess(ctx);
    assertCan(access, 'delete', section.tipo);

    let ids: number[];
    if (byId !== undefined) {
      await assertRecordAccess(ctx, access, 'delete', { section_tipo: section.tipo, section_id: byId });
      ids = [byId];
    } else {
      ids = await idsBySqo(ctx, access, section, rawSqo!);
    }

    const ontologyKind = ontologySectionKind(ctx.ontology, section.tipo);
    if (ontologyKind === 'main' && mode !== 'delete_record') {
      throw new WorkError(
        'rqo.invalid_field',
        'source.delete_mode must be delete_record for a TLD record (deleting it uninstalls the TLD)',
      );
    }
    const options = optionalObject(ctx.rqo.body, 'options', 'options');
    const confirmUninstall =
      (options && optionalBoolean(options, 'confirm_uninstall', 'options.confirm_uninstall')) === true;
    const { outcome, report } = await ctx.db.transaction(async (tx) => {
      const report = ontologyKind
        ? await beforeOntologyDelete(tx, ctx.ontology, section.tipo, ids, {
            confirmUninstall,
            userId: access.userId,
            now: ctx.now,
          })
        : {};
      const outcome = await deleteRecordsIn(tx, ctx.ontology, {
        sectionTipo: section.tipo,
        ids,
        mode,
        userId: access.userId,
        now: ctx.now,
        guard: accountGuard(ctx.ontology, access),
      });
      if (ontologyKind) await afterOntologyWrite(tx, ctx.ontology, section.tipo, outcome.deleted);
      return { outcome, report };
    });
    invalidatePermissions(ctx, section.tipo, outcome.deleted);

    const notices: Notice[] = [];
    if (outcome.refusedWithChildren.length > 0) {
      const entry = ERROR_REGISTRY[CHILDREN_REFUSED];
      notices.push({
        code: CHILDREN_REFUSED,
        message: entry.message,
        label_key: entry.label_key,
        retryable: entry.retryable,
        details: { not_deleted: outcome.refusedWithChildren.join(',') },
      });
    }
    return {
      data: outcome.deleted,
      notices,
      ...(Object.keys(report).length > 0 ? { extensions: { ...report } } : {}),
    };
  },
};
