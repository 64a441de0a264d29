/**
 * `dd_core_api.get_element_context`: the context entry of one element (section, component, area
 * or grouper), as an array of one entry, or `[]` when nothing resolves (a tipo the ontology does
 * not have, or a tool: this server has no tools yet). `source.section_tipo` defaults to the tipo
 * (or to the component's section), `mode` to `list`, `lang` to the session's data language.
 * Needs level >= 1 on (section_tipo, tipo).
 */
import { assertCan } from '../../auth/permissions.js';
import { elementContext } from '../../context/element-context.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { isAreaModel } from '../../ontology/component-models.js';
import { TIPO_PATTERN } from '../../ontology/ontology-schema.js';
import { allowedLang, labelLang, MODES, sessionLang } from '../../read/read-request.js';
import { objectField, optionalString } from '../rqo-fields.js';
import { callerAccess } from './record-access.js';

export const getElementContextAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const source = objectField(ctx.rqo, 'source');
    const tipo = optionalString(source, 'tipo', 'source.tipo', 64);
    const model = optionalString(source, 'model', 'source.model', 64);
    const mode = optionalString(source, 'mode', 'source.mode', 32) ?? 'list';
    if (!(MODES as readonly string[]).includes(mode)) {
      throw new WorkError('rqo.invalid_field', `source.mode must be one of ${MODES.join(', ')}`);
    }
    const lang =
      allowedLang(ctx, optionalString(source, 'lang', 'source.lang', 32), 'source.lang') ?? sessionLang(ctx);
    if (tipo === undefined) {
      if (model?.startsWith('tool_')) return { data: [] };
      throw new WorkError('rqo.invalid_field', 'source.tipo is required (only a tool is asked for by model)');
    }
    if (!TIPO_PATTERN.test(tipo))
      throw new WorkError('rqo.invalid_field', 'source.tipo must be a tipo like oh1');
    const node = ctx.ontology.node(tipo);
    if (!node) return { data: [] };
    const sectionTipo =
      optionalString(source, 'section_tipo', 'source.section_tipo', 64) ??
      (node.model === 'section' || isAreaModel(node.model)
        ? tipo
        : (ctx.ontology.sectionOf(tipo)?.tipo ?? tipo));
    if (!ctx.ontology.node(sectionTipo)) return { data: [] };
    const access = await callerAccess(ctx);
    assertCan(access, 'read', sectionTipo, tipo);
    return {
      data: [
        elementContext(ctx.ontology, access, node, {
          sectionTipo,
          mode,
          lang: lang === 'lg-nolan' ? sessionLang(ctx) : lang,
          labelLang: labelLang(ctx),
        }),
      ],
    };
  },
};
