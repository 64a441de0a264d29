/**
 * `dd_core_api.read_raw`: stored (unrendered) data for exports.
 *
 * `options.section_tipo` (a section) and `options.tipo` are required; `options.type` is
 * - `section` (default): the whole stored rows (section_tipo, section_id, the typed columns,
 *   meta, created/modified stamps);
 * - `component`: per row `{section_tipo, section_id, tipo, value}`, `value` the items stored
 *   under the component `options.tipo` (null when the record has none);
 * - `target_section`: the locators in the rows' relation data whose section_tipo is
 *   `options.tipo`, in row order.
 * An optional `sqo` selects the rows (its section_tipo defaults to `[options.section_tipo]`;
 * default limit 1000, the most allowed); without one, the first 1000 records of the section.
 * Level >= 1 on every target section and on options.section_tipo, else 403; non-admins get
 * only records of their projects. Password values (component_password) never leave: they are
 * removed from raw rows and a component read of one is refused. Answers the array in `data` and
 * the matrix table of options.section_tipo as top-level `table`.
 */
import { assertCan, PermissionDenied } from '../../auth/permissions.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { isComponentModel } from '../../ontology/component-models.js';
import type { Ontology } from '../../ontology/load-ontology.js';
import { TIPO_PATTERN } from '../../ontology/ontology-schema.js';
import { parseSqo, SQO_LIMITS, sectionsReadBy } from '../../search/parse-sqo.js';
import { type RawRecordRow, readRecordRows, searchRecords } from '../../search/search-records.js';
import { scopeFor } from '../../search/search-scope.js';
import { objectField, optionalString, requiredString } from '../rqo-fields.js';

const TYPES = ['section', 'component', 'target_section'] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The components of a section whose values are never returned. */
function secretTipos(ontology: Ontology, sectionTipo: string): string[] {
  return ontology
    .sectionComponents(sectionTipo)
    .filter((c) => c.model === 'component_password')
    .map((c) => c.tipo);
}

function withoutSecrets(ontology: Ontology, row: RawRecordRow): RawRecordRow {
  const secrets = secretTipos(ontology, row.section_tipo);
  if (secrets.length === 0) return row;
  const strip = (column: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(column ?? {}).filter(([tipo]) => !secrets.includes(tipo)));
  return { ...row, string: strip(row.string), meta: row.meta };
}

export const readRawAction: ActionDefinition = {
  needsSession: true,
  handle: async (ctx) => {
    const options = objectField(ctx.rqo, 'options');
    const sectionTipo = requiredString(options, 'section_tipo', 'options.section_tipo', 64);
    if (ctx.ontology.node(sectionTipo)?.model !== 'section') {
      throw new WorkError('rqo.invalid_field', `options.section_tipo ${sectionTipo} is not a known section`);
    }
    const tipo = requiredString(options, 'tipo', 'options.tipo', 64);
    if (!TIPO_PATTERN.test(tipo))
      throw new WorkError('rqo.invalid_field', 'options.tipo must be a tipo like oh14');
    const type = optionalString(options, 'type', 'options.type', 32) ?? 'section';
    if (!(TYPES as readonly string[]).includes(type)) {
      throw new WorkError('rqo.invalid_field', `options.type must be one of ${TYPES.join(', ')}`);
    }
    if (type === 'component') {
      const node = ctx.ontology.node(tipo);
      if (!node || !isComponentModel(node.model)) {
        throw new WorkError('rqo.invalid_field', `options.tipo ${tipo} is not a component`);
      }
      if (node.model === 'component_password') {
        throw new WorkError(
          'rqo.invalid_field',
          `options.tipo ${tipo} is a password: its value is never returned`,
        );
      }
    }

    const rawSqo = Object.hasOwn(ctx.rqo.body, 'sqo') ? ctx.rqo.body.sqo : undefined;
    let sqoInput: unknown = rawSqo ?? {};
    if (isObject(sqoInput)) {
      const st = sqoInput.section_tipo;
      const empty = st === undefined || st === null || (Array.isArray(st) && st.length === 0);
      if (empty) sqoInput = { ...sqoInput, section_tipo: [sectionTipo] };
    }
    const sqo = parseSqo(sqoInput, ctx.ontology, { defaultLimit: SQO_LIMITS.maxLimit });
    if (sqo.mode === 'tm' || sqo.mode === 'related') {
      throw new WorkError('search.invalid_sqo', `sqo.mode ${sqo.mode} is not available in read_raw`);
    }

    const access = await ctx.permissions.forUser(ctx.session!.userId);
    if (!access.active) throw new PermissionDenied(access.userId, 'inactive');
    for (const st of new Set([sectionTipo, ...sqo.section_tipo, ...sectionsReadBy(sqo)])) {
      assertCan(access, 'read', st);
    }

    const { records } = await searchRecords(ctx.db, ctx.ontology, sqo, scopeFor(ctx.ontology, access));
    const rows = await readRecordRows(ctx.db, ctx.ontology, records);
    let data: unknown[];
    if (type === 'section') {
      data = rows.map((row) => withoutSecrets(ctx.ontology, row));
    } else if (type === 'component') {
      const column = ctx.ontology.dataColumnOf(tipo)!;
      data = rows.map((row) => {
        const stored = (row[column] as Record<string, unknown> | null)?.[tipo];
        return { section_tipo: row.section_tipo, section_id: row.section_id, tipo, value: stored ?? null };
      });
    } else {
      data = rows.flatMap((row) =>
        Object.values(row.relation ?? {}).flatMap((items) =>
          (Array.isArray(items) ? items : []).filter((l) => isObject(l) && l.section_tipo === tipo),
        ),
      );
    }
    return { data, extensions: { table: ctx.ontology.tableOf(sectionTipo) } };
  },
};
