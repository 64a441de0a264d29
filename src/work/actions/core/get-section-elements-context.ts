/**
 * `dd_core_api.get_section_elements_context`: the fields of the search panel (and of export
 * column pickers): for each section asked (`options.ar_section_tipo`, or `options.section_tipo`)
 * its groupers and searchable components in ontology order, each with the caller's permissions.
 * Elements the caller cannot read are left out; a client `skip_permissions` is ignored.
 * `options.ar_components_exclude` drops components by tipo.
 */
import { assertCan } from '../../auth/permissions.js';
import { elementContext, isSearchable } from '../../context/element-context.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { isGrouperModel } from '../../ontology/component-models.js';
import { labelLang, sessionLang } from '../../read/read-request.js';
import type { ContextEntry } from '../../read/read-types.js';
import { objectField, optionalString } from '../rqo-fields.js';
import { callerAccess, requireSection } from './record-access.js';

const MAX_SECTIONS = 50;

function stringList(value: unknown, path: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 500 || value.some((v) => typeof v !== 'string')) {
    throw new WorkError('rqo.invalid_field', `${path} must be an array of tipos`);
  }
  return value as string[];
}

export const getSectionElementsContextAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const options = objectField(ctx.rqo, 'options');
    const single = optionalString(options, 'section_tipo', 'options.section_tipo', 64);
    const sections = [
      ...stringList(options.ar_section_tipo, 'options.ar_section_tipo'),
      ...(single ? [single] : []),
    ];
    if (sections.length === 0) {
      throw new WorkError(
        'rqo.invalid_field',
        'options.ar_section_tipo (or options.section_tipo) is required',
      );
    }
    if (sections.length > MAX_SECTIONS) {
      throw new WorkError(
        'rqo.invalid_field',
        `options.ar_section_tipo has more than ${MAX_SECTIONS} sections`,
      );
    }
    const exclude = new Set(stringList(options.ar_components_exclude, 'options.ar_components_exclude'));
    const access = await callerAccess(ctx);
    const lang = sessionLang(ctx);
    const entries: ContextEntry[] = [];
    for (const [i, st] of [...new Set(sections)].entries()) {
      const section = requireSection(ctx, st, `options.ar_section_tipo[${i}]`);
      assertCan(access, 'read', section.tipo);
      const groupers = new Set<string>();
      for (const component of ctx.ontology.sectionComponents(section.tipo)) {
        if (!isSearchable(component) || exclude.has(component.tipo)) continue;
        if (access.level(section.tipo, component.tipo) < 1) continue;
        const grouper = component.parent ? ctx.ontology.node(component.parent) : undefined;
        if (grouper && isGrouperModel(grouper.model) && !groupers.has(grouper.tipo)) {
          groupers.add(grouper.tipo);
          entries.push(
            elementContext(ctx.ontology, access, grouper, {
              sectionTipo: section.tipo,
              mode: 'search',
              lang,
              labelLang: labelLang(ctx),
            }),
          );
        }
        entries.push(
          elementContext(ctx.ontology, access, component, {
            sectionTipo: section.tipo,
            mode: 'search',
            lang,
            labelLang: labelLang(ctx),
            parent: section.tipo,
          }),
        );
      }
    }
    return { data: entries };
  },
};
