/**
 * `dd_diffusion_api.get_diffusion_info` (a name of the stock Dédalo diffusion API): what can be
 * published, so a client offers Publish only where `diffuse` would accept it. Answers
 * `data: {default_target, targets, sections: [{section_tipo, table, translatable, publishable,
 * may_publish: {record, section}}]}`: the sections of the publication map the caller may read
 * (`publishable` names the yes/no component that gates each record, when the map sets one;
 * `may_publish` what this caller may publish there, auth/publish-rights.ts). Any logged-in user may ask. A map
 * the current ontology no longer fits answers 409 `diffusion.map_invalid`, as `diffuse` does.
 */
import { publishRights } from '../../auth/publish-rights.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { callerAccess } from '../core/record-access.js';
import { publicationMapFor } from './publication-map-for.js';

export const getDiffusionInfoAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const publisher = ctx.publisher;
    if (!publisher) throw new WorkError('diffusion.not_configured');
    const access = await callerAccess(ctx);
    return {
      data: {
        default_target: publisher.defaultTarget,
        targets: publisher.targetNames,
        sections: publicationMapFor(publisher, ctx.ontology)
          .tables.filter((t) => access.can('read', t.section_tipo))
          .map((t) => ({
            section_tipo: t.section_tipo,
            table: t.table,
            translatable: t.translatable,
            publishable: t.publishable ?? null,
            may_publish: publishRights(access, t.section_tipo),
          })),
      },
    };
  },
};
