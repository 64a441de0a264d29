/**
 * `dd_core_api.count`: how many records an SQO selects, answered as `data: {total}`.
 *
 * - `sqo` is required (400 `rqo.invalid_field` when missing; a malformed one is 400
 *   `search.invalid_sqo` naming the wrong field).
 * - Sections the caller cannot read (level < 1) count 0: they are dropped from the search
 *   without an error, so a count never tells whether records exist where the caller may not
 *   look. A filter or order path that goes through an unreadable section is a 403, since it
 *   would reveal that section's data.
 * - Non-admins count only the records of their projects (per section, search-scope.ts).
 * - `sqo.mode: 'tm'` counts history rows (matrix_time_machine), `related` the records that
 *   point at `filter_by_locators` (`section_tipo: ['all']` allowed); other modes count records.
 */
import { PermissionDenied } from '../../auth/permissions.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { parseSqo, sectionsReadBy } from '../../search/parse-sqo.js';
import { countHistory, countRecords, countRelated, sectionsOf } from '../../search/search-records.js';
import { scopeFor } from '../../search/search-scope.js';

export const countAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const body = ctx.rqo.body;
    const raw = Object.hasOwn(body, 'sqo') ? body.sqo : undefined;
    if (raw === undefined || raw === null) throw new WorkError('rqo.invalid_field', 'sqo is required');
    const sqo = parseSqo(raw, ctx.ontology);
    const access = await ctx.permissions.forUser(ctx.session!.userId);
    if (!access.active) throw new PermissionDenied(access.userId, 'inactive');
    for (const sectionTipo of sectionsReadBy(sqo)) {
      if (!access.can('read', sectionTipo)) throw new PermissionDenied(access.userId, 'level', sectionTipo);
    }
    const readable = sectionsOf(ctx.ontology, sqo).filter((st) => access.can('read', st));
    if (readable.length === 0) return { data: { total: 0 } };
    const scoped = { ...sqo, section_tipo: readable };
    const scope = scopeFor(ctx.ontology, access);
    let total: number;
    if (sqo.mode === 'tm') total = await countHistory(ctx.db, scoped, { scope, ontology: ctx.ontology });
    else if (sqo.mode === 'related') total = await countRelated(ctx.db, ctx.ontology, scoped, scope);
    else total = await countRecords(ctx.db, ctx.ontology, scoped, scope);
    return { data: { total } };
  },
};
