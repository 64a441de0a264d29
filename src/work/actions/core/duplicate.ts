/**
 * `dd_core_api.duplicate`: a copy of the record (`source.section_tipo`, `source.section_id`)
 * under a new id (level >= 2; a non-admin only within their projects; consultation-only sections
 * refuse). What is copied and what is not: records/duplicate-record.ts. A copy of a user or
 * profile that would hold more than the caller is refused (auth/rights-ceiling.ts). Answers the
 * new section_id as an integer.
 */
import { accountGuard } from '../../auth/rights-ceiling.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { afterOntologyWrite } from '../../ontology/ontology-edit.js';
import { duplicateRecordIn } from '../../records/duplicate-record.js';
import { objectField } from '../rqo-fields.js';
import {
  assertRecordAccess,
  assertWritableSection,
  callerAccess,
  requireRecordId,
  requireSection,
} from './record-access.js';

export const duplicateAction: ActionDefinition = {
  needsSession: true,
  writes: true,
  handle: async (ctx) => {
    const source = objectField(ctx.rqo, 'source');
    const section = requireSection(ctx, source.section_tipo, 'source.section_tipo');
    const sourceId = requireRecordId(ctx, source.section_id, 'source.section_id');
    assertWritableSection(section);
    const access = await callerAccess(ctx);
    await assertRecordAccess(ctx, access, 'duplicate', {
      section_tipo: section.tipo,
      section_id: sourceId,
    });
    const sectionId = await ctx.db.transaction(async (tx) => {
      const id = await duplicateRecordIn(tx, ctx.ontology, {
        sectionTipo: section.tipo,
        sourceId,
        userId: access.userId,
        now: ctx.now,
      });
      // A copied user or profile may not hold more than the caller (a copy of root, of a global
      // admin, of a profile above the caller's levels): refused before the commit.
      await accountGuard(ctx.ontology, access).afterChange(tx, {
        section_tipo: section.tipo,
        section_id: id,
      });
      // A copied ontology record is a new node (or TLD): checked like any edit of the ontology.
      await afterOntologyWrite(tx, ctx.ontology, section.tipo, [id], { created: true });
      return id;
    });
    return { data: sectionId };
  },
};
