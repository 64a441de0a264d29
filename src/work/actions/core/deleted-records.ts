/**
 * The deleted records of a section and bringing one back (records/deleted-records.ts):
 * - `dd_core_api.get_deleted_records` (`options: {section_tipo, limit?, offset?}`): the records
 *   removed with `delete_record` whose id is still free, newest deletion first, each with who
 *   deleted it, when, and a line of its texts. Answers `{total, records}`.
 * - `dd_core_api.restore_record` (`source: {section_tipo, section_id}`): puts the record back from
 *   its latest snapshot, in one transaction with its history and activity rows. Answers the
 *   section_id.
 * Both need the level to create records in the section (>= 2; consultation-only sections
 * refuse); a non-admin sees and restores only records whose snapshot names one of their projects.
 * Ontology records are not restored here (their TLD is installed by an ontology import). A user
 * or profile brought back may not hold more than the caller (auth/rights-ceiling.ts).
 */
import { assertCan, isGlobalAdmin, PermissionDenied } from '../../auth/permissions.js';
import { accountGuard } from '../../auth/rights-ceiling.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { ontologySectionKind } from '../../ontology/ontology-edit.js';
import { sessionLang } from '../../read/read-request.js';
import {
  deletedScopeOf,
  latestSnapshot,
  listDeletedRecords,
  restoreRecordIn,
  snapshotInScope,
} from '../../records/deleted-records.js';
import { recordExists } from '../../store/records.js';
import { objectField, optionalObject } from '../rqo-fields.js';
import {
  assertWritableSection,
  callerAccess,
  requireRecordId,
  requireSection,
  tableOf,
} from './record-access.js';

const MAX_LIMIT = 100;

function pageNumber(value: unknown, path: string, fallback: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new WorkError('rqo.invalid_field', `${path} must be an integer from 0 to ${max}`);
  }
  return value;
}

export const getDeletedRecordsAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const options = optionalObject(ctx.rqo.body, 'options', 'options') ?? {};
    const section = requireSection(ctx, options.section_tipo, 'options.section_tipo');
    assertWritableSection(section);
    const access = await callerAccess(ctx);
    assertCan(access, 'create', section.tipo);
    const limit = pageNumber(options.limit, 'options.limit', 25, MAX_LIMIT) || 25;
    const offset = pageNumber(options.offset, 'options.offset', 0, 2_147_483_647);
    const scope = isGlobalAdmin(access)
      ? undefined
      : deletedScopeOf(ctx.ontology, section.tipo, access.projectIds);
    const data = await listDeletedRecords(ctx.db, ctx.ontology, {
      sectionTipo: section.tipo,
      table: tableOf(ctx, section.tipo),
      lang: sessionLang(ctx),
      limit,
      offset,
      ...(scope ? { scope } : {}),
    });
    return { data };
  },
};

export const restoreRecordAction: ActionDefinition = {
  needsSession: true,
  writes: true,
  handle: async (ctx) => {
    const source = objectField(ctx.rqo, 'source');
    const section = requireSection(ctx, source.section_tipo, 'source.section_tipo');
    const sectionId = requireRecordId(ctx, source.section_id, 'source.section_id');
    assertWritableSection(section);
    if (ontologySectionKind(ctx.ontology, section.tipo)) {
      throw new WorkError(
        'rqo.invalid_field',
        `source.section_tipo ${section.tipo} is an ontology section: its records come back by importing the ontology`,
      );
    }
    const access = await callerAccess(ctx);
    assertCan(access, 'create', section.tipo);
    const table = tableOf(ctx, section.tipo);
    const key = { section_tipo: section.tipo, section_id: sectionId };
    await ctx.db.transaction(async (tx) => {
      const snapshot = await latestSnapshot(tx, key);
      const scope = isGlobalAdmin(access)
        ? undefined
        : deletedScopeOf(ctx.ontology, section.tipo, access.projectIds);
      // Level first, then existence (404), then project scope (403), as for a record that exists.
      if (!snapshot || (scope && !snapshotInScope(snapshot.data, scope))) {
        if (snapshot) throw new PermissionDenied(access.userId, 'project_scope', section.tipo);
        throw new WorkError(
          'resource.not_found',
          `${section.tipo} ${sectionId} was never deleted with delete_record`,
        );
      }
      if (await recordExists(tx, table, key)) {
        throw new WorkError(
          'record.restore_id_taken',
          `${section.tipo} ${sectionId} exists: the id is taken (by this record, emptied, or by another one since the deletion); nothing was restored`,
        );
      }
      await restoreRecordIn(tx, ctx.ontology, { key, table, snapshot, userId: access.userId, now: ctx.now });
      // A user or profile brought back may not hold more than the caller.
      await accountGuard(ctx.ontology, access).afterChange(tx, key);
    });
    if (section.tipo === 'dd128') ctx.permissions.engine.invalidateUser(sectionId);
    else if (section.tipo === 'dd234' || section.tipo === 'dd153')
      ctx.permissions.engine.invalidateProfiles();
    return { data: sectionId };
  },
};
