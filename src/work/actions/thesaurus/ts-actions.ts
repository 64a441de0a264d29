/**
 * `dd_ts_api`: the thesaurus tree for reading (docs/work-api.md). `get_children_data` answers
 * one level (the roots, or a term's children); `search_terms` the terms containing some words,
 * each with its breadcrumb; `get_terms` named terms with their breadcrumbs. Read access to the
 * thesaurus section's term component is needed. Adding, renaming and moving terms are ordinary
 * `dd_core_api` `create` and `save` requests (a move that would make a cycle is refused there).
 */
import { assertCan, type UserAccess } from '../../auth/permissions.js';
import type { ActionContext, ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { NO_LANG } from '../../ontology/load-ontology.js';
import { allowedLang, sessionLang } from '../../read/read-request.js';
import {
  childrenOf,
  searchTerms,
  type ThesaurusShape,
  termsById,
  thesaurusShape,
} from '../../read/thesaurus-tree.js';
import { callerAccess, requireRecordId, requireSection } from '../core/record-access.js';
import { objectField, optionalString } from '../rqo-fields.js';

async function thesaurusOf(
  ctx: ActionContext,
): Promise<{ shape: ThesaurusShape; lang: string; access: UserAccess }> {
  const source = objectField(ctx.rqo, 'source');
  const section = requireSection(ctx, source.section_tipo, 'source.section_tipo');
  const shape = thesaurusShape(ctx.ontology, section.tipo);
  if (!shape) {
    throw new WorkError(
      'rqo.invalid_field',
      `source.section_tipo "${section.tipo}" is not a thesaurus (it needs a term text and a parent component)`,
    );
  }
  const access = await callerAccess(ctx);
  assertCan(access, 'read', section.tipo, shape.termTipo);
  const asked = allowedLang(ctx, optionalString(source, 'lang', 'source.lang', 32), 'source.lang');
  return { shape, lang: asked === undefined || asked === NO_LANG ? sessionLang(ctx) : asked, access };
}

export const getChildrenDataAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const { shape, lang, access } = await thesaurusOf(ctx);
    const source = objectField(ctx.rqo, 'source');
    // What the tree offers this user (the saves and creates refuse the rest anyway).
    const editable = {
      add: access.can('create', shape.sectionTipo) && access.can('save', shape.sectionTipo, shape.parentTipo),
      rename: access.can('save', shape.sectionTipo, shape.termTipo),
      move: access.can('save', shape.sectionTipo, shape.parentTipo),
    };
    const parent =
      source.section_id === undefined || source.section_id === null
        ? undefined
        : requireRecordId(ctx, source.section_id, 'source.section_id');
    const level = await childrenOf(ctx.db, shape, parent, lang);
    return {
      data: {
        section_tipo: shape.sectionTipo,
        parent: parent ?? null,
        lang,
        term_tipo: shape.termTipo,
        parent_tipo: shape.parentTipo,
        editable,
        ...level,
      },
    };
  },
};

export const searchTermsAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const { shape, lang } = await thesaurusOf(ctx);
    const options = objectField(ctx.rqo, 'options');
    const q = (optionalString(options, 'q', 'options.q', 200) ?? '').trim();
    const limit = options.limit;
    if (
      limit !== undefined &&
      (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 50)
    ) {
      throw new WorkError('rqo.invalid_field', 'options.limit must be an integer from 1 to 50');
    }
    const terms =
      q === '' ? [] : await searchTerms(ctx.db, shape, q, lang, (limit as number | undefined) ?? 25);
    return { data: { section_tipo: shape.sectionTipo, q, lang, terms } };
  },
};

export const getTermsAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const { shape, lang } = await thesaurusOf(ctx);
    const options = objectField(ctx.rqo, 'options');
    const raw = options.section_ids;
    if (!Array.isArray(raw) || raw.length > 200) {
      throw new WorkError(
        'rqo.invalid_field',
        'options.section_ids must be an array of at most 200 record ids',
      );
    }
    const ids = raw.map((v, n) => requireRecordId(ctx, v, `options.section_ids[${n}]`));
    const terms = await termsById(ctx.db, shape, ids, lang);
    return { data: { section_tipo: shape.sectionTipo, lang, terms } };
  },
};
