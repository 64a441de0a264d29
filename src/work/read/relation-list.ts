/**
 * `get_relation_list`: the records that hold a locator pointing at one record ("who links
 * here"), across every matrix table, one statement per table (served by the GIN index on
 * `relation`). Only sections the caller may read and records inside their projects are listed.
 */
import type { UserAccess } from '../auth/permissions.js';
import type { ActionContext } from '../dispatch/action-registry.js';
import { COMPONENT_MODELS, isComponentModel } from '../ontology/component-models.js';
import { MATRIX_TABLES } from '../store/matrix-tables.js';
import { recordsPointingAt } from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';
import { rowInScope } from './page-builder.js';
import type { ReadResult } from './read-types.js';

export async function readRelationList(
  ctx: ActionContext,
  access: UserAccess,
  target: RecordKey,
): Promise<ReadResult> {
  const entries: { section_tipo: string; section_id: number; from_component_tipo: string }[] = [];
  for (const table of MATRIX_TABLES) {
    const tipos = ctx.ontology.relationComponentsInto(table, target.section_tipo);
    for (const row of await recordsPointingAt(ctx.db, table, target, tipos)) {
      if (access.level(row.section_tipo, row.section_tipo) < 1 || !rowInScope(ctx.ontology, access, row))
        continue;
      for (const [tipo, items] of Object.entries(row.relation ?? {})) {
        const node = ctx.ontology.node(tipo);
        if (!node || !isComponentModel(node.model) || !COMPONENT_MODELS[node.model].relation) continue;
        const points = (Array.isArray(items) ? items : []).some((l) => {
          const loc = l as { section_tipo?: unknown; section_id?: unknown };
          return (
            loc.section_tipo === target.section_tipo && String(loc.section_id) === String(target.section_id)
          );
        });
        if (points)
          entries.push({
            section_tipo: row.section_tipo,
            section_id: Number(row.section_id),
            from_component_tipo: tipo,
          });
      }
    }
  }
  return {
    context: [],
    data: [
      {
        typo: 'sections',
        tipo: target.section_tipo,
        section_tipo: target.section_tipo,
        section_id: target.section_id,
        entries,
      },
    ],
  };
}
