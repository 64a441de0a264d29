/**
 * `dd_diffusion_api.diffuse` (the name the stock Dédalo client calls): publishes to a publication
 * target what cataloguers saved (src/publish/).
 *
 * - `options.section_tipo` + `options.section_id`: that record; the caller needs the publish
 *   right on the section (auth/publish-rights.ts: level 3) and the record in their projects. Rows
 *   of a record that is not (or no longer) publishable are removed.
 * - `options.section_tipo` alone: the whole section; global admins only.
 * - `options.target`: a target name from PUBLISH_TARGETS (default PUBLISH_DEFAULT_TARGET).
 *
 * Answers `data: {published, removed, target}` (records written, records whose rows were removed).
 * A section the publication map does not publish is a 400; a target that cannot be reached is a
 * retryable 503 `diffusion.target_unavailable`; another publish run to the same target that does
 * not finish within PUBLISH_LOCK_WAIT_SECONDS is a retryable 409 `diffusion.target_busy`; records
 * that failed to map come back as `failures` (their old rows stay) beside the counts.
 */

import { TargetUnavailable } from '../../../publish/publish-writer.js';
import { PublishRequestError } from '../../../publish/run-publish.js';
import { TargetBusy } from '../../../publish/target-lock.js';
import { assertMayPublish } from '../../auth/publish-rights.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { assertRecordAccess, callerAccess, requireRecordId, requireSection } from '../core/record-access.js';
import { publicationMapFor } from './publication-map-for.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export const diffuseAction: ActionDefinition = {
  needsSession: true,
  // May run past WORK_REQUEST_TIMEOUT_MS (a whole section, a sweep); each statement stays limited.
  longRunning: true,
  handle: async (ctx) => {
    const options = ctx.rqo.body.options;
    if (!isObject(options))
      throw new WorkError('rqo.invalid_field', 'options is required: {section_tipo, section_id}');
    const publisher = ctx.publisher;
    if (!publisher) throw new WorkError('diffusion.not_configured');
    const section = requireSection(ctx, options.section_tipo, 'options.section_tipo');
    // Checked against the request's ontology: a map naming what it lacks is refused here.
    if (!publicationMapFor(publisher, ctx.ontology).tableOf(section.tipo)) {
      throw new WorkError(
        'validation.invalid_value',
        `options.section_tipo: ${section.tipo} is not in the publication map`,
      );
    }
    if (options.target !== undefined && typeof options.target !== 'string') {
      throw new WorkError('rqo.invalid_field', 'options.target must be a target name');
    }
    const access = await callerAccess(ctx);
    let sectionId: number | undefined;
    if (options.section_id === undefined || options.section_id === null) {
      assertMayPublish(access, section.tipo, 'section');
    } else {
      sectionId = requireRecordId(ctx, options.section_id, 'options.section_id');
      assertMayPublish(access, section.tipo, 'record');
      await assertRecordAccess(ctx, access, 'read', { section_tipo: section.tipo, section_id: sectionId });
    }
    try {
      const summary = await publisher.publish(
        ctx.db,
        { sectionTipo: section.tipo, sectionId },
        { target: options.target as string | undefined, ontology: ctx.ontology },
      );
      const data: Record<string, unknown> = {
        published: summary.published,
        removed: summary.removed,
        target: summary.target,
      };
      if (summary.failures.length > 0) data.failures = summary.failures;
      ctx.log.info(
        { target: summary.target, section_tipo: section.tipo, section_id: sectionId, rows: summary.rows },
        'diffuse',
      );
      return { data };
    } catch (err) {
      if (err instanceof TargetUnavailable) {
        ctx.log.warn({ err: err.message }, 'diffuse: target unavailable');
        throw new WorkError('diffusion.target_unavailable', err.message);
      }
      if (err instanceof TargetBusy) throw new WorkError('diffusion.target_busy', err.message);
      if (err instanceof PublishRequestError) throw new WorkError('validation.invalid_value', err.message);
      throw err;
    }
  },
};
