/**
 * `dd_core_api.read`: the one read action, branching as the stock client expects
 * (docs/work-api.md):
 * - `sqo.mode: 'tm'` (or `source.mode: 'tm'`): the history of records or components;
 * - `source.action: 'get_relation_list'`: the records that point at `source.section_id`;
 * - a component (`source.model` starting with `component_`, `source.tipo` a component, or
 *   `source.action` `get_data` / `resolve_data`): that component of one record;
 * - otherwise a section page (list, or edit with `section_id`), from the SQO.
 *
 * Permissions before any data is read: level >= 1 on (section_tipo, tipo) and on every section
 * the SQO targets or filters through; non-admins see only records inside their projects.
 * An edit read of one record logs a `load` activity row.
 */
import { assertCan, type UserAccess } from '../../auth/permissions.js';
import type { ActionContext, ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { isComponentModel } from '../../ontology/component-models.js';
import { readComponent } from '../../read/component-read.js';
import { readHistory } from '../../read/history-read.js';
import { parseReadRequest, type ReadRequest } from '../../read/read-request.js';
import { readRelationList } from '../../read/relation-list.js';
import { readSection } from '../../read/section-read.js';
import { parseSqo, sectionsReadBy } from '../../search/parse-sqo.js';
import type { Sqo } from '../../search/sqo-types.js';
import { logActivity } from '../../store/activity.js';
import { optionalObject } from '../rqo-fields.js';
import { callerAccess, requireComponent, requireSection } from './record-access.js';

/** The client's sqo, or one built from the source (an edit read: the record by locator). */
function sqoOf(ctx: ActionContext, request: ReadRequest, defaultLimit: number): Sqo {
  const raw = optionalObject(ctx.rqo.body, 'sqo', 'sqo');
  const sqo =
    raw ??
    ({
      section_tipo: [request.sectionTipo],
      ...(request.sectionId !== undefined
        ? { filter_by_locators: [{ section_tipo: request.sectionTipo, section_id: request.sectionId }] }
        : {}),
    } as Record<string, unknown>);
  if (
    raw &&
    request.mode === 'edit' &&
    request.sectionId !== undefined &&
    raw.filter_by_locators === undefined
  ) {
    sqo.filter_by_locators = [{ section_tipo: request.sectionTipo, section_id: request.sectionId }];
  }
  if (sqo.section_tipo === undefined || sqo.section_tipo === null) sqo.section_tipo = [request.sectionTipo];
  return parseSqo(sqo, ctx.ontology, { defaultLimit, lang: request.lang });
}

/** Level >= 1 on every section the SQO reads (targets and filter/order paths). */
function assertSqoReadable(access: UserAccess, sqo: Sqo): void {
  for (const st of [...sqo.section_tipo, ...sectionsReadBy(sqo)]) {
    if (st !== 'all') assertCan(access, 'read', st);
  }
}

async function readComponentBranch(ctx: ActionContext, access: UserAccess, request: ReadRequest) {
  const section = requireSection(ctx, request.sectionTipo, 'source.section_tipo');
  const component = requireComponent(ctx, section, request.tipo, 'source.tipo');
  if (request.sectionId === undefined) {
    throw new WorkError('rqo.invalid_field', 'source.section_id is required to read a component');
  }
  assertCan(access, 'read', section.tipo, component.tipo);
  let pagination: { limit: number; offset: number } | undefined;
  const rawSqo = optionalObject(ctx.rqo.body, 'sqo', 'sqo');
  if (rawSqo) {
    const sqo = parseSqo(
      { ...rawSqo, section_tipo: rawSqo.section_tipo ?? component.target_section_tipo ?? [section.tipo] },
      ctx.ontology,
      { defaultLimit: 10, lang: request.lang },
    );
    assertSqoReadable(access, sqo);
    pagination = { limit: sqo.limit, offset: sqo.offset };
  }
  let value: unknown[] | undefined;
  if (request.action === 'resolve_data') {
    const given = request.source.value;
    if (!Array.isArray(given) || given.length > 1000) {
      throw new WorkError('rqo.invalid_field', 'source.value must be an array of at most 1000 locators');
    }
    value = given;
  }
  const record = { section_tipo: section.tipo, section_id: request.sectionId };
  await ctx.permissions.assertRecordInScope(access, record);
  return readComponent(ctx, access, {
    sectionTipo: section.tipo,
    sectionId: request.sectionId,
    tipo: component.tipo,
    mode: request.mode,
    lang: request.lang,
    ...(pagination ? { pagination } : {}),
    ...(request.ddoMap ? { ddoMap: request.ddoMap } : {}),
    ...(value ? { value } : {}),
  });
}

export const readAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const request = parseReadRequest(ctx);
    const access = await callerAccess(ctx);
    const rawSqo = optionalObject(ctx.rqo.body, 'sqo', 'sqo');
    const section = requireSection(ctx, request.sectionTipo, 'source.section_tipo');

    if (rawSqo?.mode === 'tm' || request.mode === 'tm') {
      assertCan(access, 'read', section.tipo);
      const sqo = parseSqo(
        { ...rawSqo, mode: 'tm', section_tipo: rawSqo?.section_tipo ?? [section.tipo] },
        ctx.ontology,
        {
          defaultLimit: 10,
          lang: request.lang,
        },
      );
      assertSqoReadable(access, sqo);
      return { data: await readHistory(ctx, access, { sectionTipo: section.tipo, lang: request.lang, sqo }) };
    }

    if (request.action === 'get_relation_list') {
      assertCan(access, 'read', section.tipo);
      if (request.sectionId === undefined) {
        throw new WorkError('rqo.invalid_field', 'source.section_id is required for get_relation_list');
      }
      return {
        data: await readRelationList(ctx, access, {
          section_tipo: section.tipo,
          section_id: request.sectionId,
        }),
      };
    }

    const node = ctx.ontology.node(request.tipo);
    const componentRead =
      request.model?.startsWith('component_') ||
      (node !== undefined && isComponentModel(node.model)) ||
      request.action === 'get_data' ||
      request.action === 'resolve_data';
    if (componentRead) return { data: await readComponentBranch(ctx, access, request) };

    if (request.tipo !== section.tipo) {
      throw new WorkError(
        'rqo.invalid_field',
        `source.tipo "${request.tipo}" is neither ${section.tipo} nor one of its components`,
      );
    }
    assertCan(access, 'read', section.tipo);
    const edit = request.mode === 'edit';
    const sqo = sqoOf(ctx, request, edit ? 1 : 10);
    assertSqoReadable(access, sqo);
    const result = await readSection(ctx, access, {
      sectionTipo: section.tipo,
      mode: request.mode,
      lang: request.lang,
      sqo,
      ...(request.ddoMap ? { ddoMap: request.ddoMap } : {}),
      ...(request.sectionId !== undefined ? { sectionId: request.sectionId } : {}),
    });
    if (edit && request.sectionId !== undefined && !section.read_only) {
      await logActivity(ctx.db, {
        userId: access.userId,
        what: 'load',
        where: section.tipo,
        when: ctx.now,
        data: { section_tipo: section.tipo, section_id: request.sectionId, mode: 'edit' },
      });
    }
    return { data: result };
  },
};
