/**
 * `dd_core_api.create`: a new, empty record of `source.section_tipo` (level >= 2 on the section;
 * consultation-only sections refuse). The record gets the next id of the section's counter, its
 * creation metadata and the creator's project filter, and the activity log a 'new' row, all in
 * one transaction (records/create-record.ts). Answers the new section_id as an integer.
 */
import { assertCan } from '../../auth/permissions.js';
import { accountGuard } from '../../auth/rights-ceiling.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { afterOntologyWrite } from '../../ontology/ontology-edit.js';
import { createRecordIn } from '../../records/create-record.js';
import { objectField } from '../rqo-fields.js';
import { assertWritableSection, callerAccess, requireSection } from './record-access.js';

export const createAction: ActionDefinition = {
  needsSession: true,
  writes: true,
  handle: async (ctx) => {
    const source = objectField(ctx.rqo, 'source');
    const section = requireSection(ctx, source.section_tipo, 'source.section_tipo');
    assertWritableSection(section);
    const access = await callerAccess(ctx);
    assertCan(access, 'create', section.tipo);
    const sectionId = await ctx.db.transaction(async (tx) => {
      const id = await createRecordIn(tx, ctx.ontology, {
        sectionTipo: section.tipo,
        userId: access.userId,
        projectIds: access.projectIds,
        now: ctx.now,
      });
      // A new user or profile starts empty; the rights ceiling judges it all the same, so a
      // future default value cannot hand out more than the creator holds.
      await accountGuard(ctx.ontology, access).afterChange(tx, {
        section_tipo: section.tipo,
        section_id: id,
      });
      await afterOntologyWrite(tx, ctx.ontology, section.tipo, [id], { created: true });
      return id;
    });
    return { data: sectionId };
  },
};
