/**
 * The history read (`sqo.mode: 'tm'`): the time machine's rows shaped like a section read, so
 * the stock client's time-machine list renders them. Each row becomes one `sections` entry
 * (with its `matrix_id`) and three items: `dd201` (when), `dd197` (who: a locator to the user
 * carrying `label`, the full name or else the username, and `username`)
 * and the saved value under the component's tipo; a snapshot taken before `delete_record` comes
 * under the section's own tipo, holding the whole record. Only components the caller may read
 * are listed, passwords never, and a non-admin sees only records inside their projects.
 */

import { isGlobalAdmin, type UserAccess } from '../auth/permissions.js';
import { elementContext } from '../context/element-context.js';
import type { ActionContext } from '../dispatch/action-registry.js';
import { NO_LANG } from '../ontology/load-ontology.js';
import { searchHistory } from '../search/search-records.js';
import type { Sqo } from '../search/sqo-types.js';
import { momentDateValue } from '../store/activity.js';
import { readRecords } from '../store/record-rows.js';
import { rowInScope } from './page-builder.js';
import { labelLang } from './read-request.js';
import type { ContextEntry, DataItem, ReadResult } from './read-types.js';

/** The time machine's own columns, as Dédalo names them (virtual section dd15). */
export const HISTORY_DATE_TIPO = 'dd201';
export const HISTORY_USER_TIPO = 'dd197';

function columnContext(sectionTipo: string, tipo: string, model: string, label: string): ContextEntry {
  return {
    typo: 'ddo',
    type: 'component',
    tipo,
    section_tipo: sectionTipo,
    model,
    label,
    mode: 'tm',
    lang: NO_LANG,
    permissions: 1,
    parent: sectionTipo,
  };
}

function userLabel(row: { username: string | null; full_username: string | null }) {
  const label = row.full_username?.trim() || row.username?.trim();
  return label ? { label, username: row.username } : {};
}

export async function readHistory(
  ctx: ActionContext,
  access: UserAccess,
  request: { sectionTipo: string; lang: string; sqo: Sqo },
): Promise<ReadResult> {
  const { ontology, db } = ctx;
  const { sqo, sectionTipo, lang } = request;
  const rows = (await searchHistory(db, sqo)).filter((row) => {
    if (row.kind === 'snapshot') return true;
    const node = row.tipo ? ontology.node(row.tipo) : undefined;
    return (
      node !== undefined &&
      node.model !== 'component_password' &&
      access.level(row.section_tipo, row.tipo!) >= 1
    );
  });
  // Project scope: the live record decides; a deleted record's history is for global admins.
  let visible = rows;
  if (!isGlobalAdmin(access)) {
    const allowed = new Set<string>();
    const bySection = new Map<string, number[]>();
    for (const r of rows)
      bySection.set(r.section_tipo, [...(bySection.get(r.section_tipo) ?? []), r.section_id]);
    for (const [st, ids] of bySection) {
      const table = ontology.tableOf(st);
      if (!table) continue;
      for (const live of await readRecords(db, table, st, [...new Set(ids)])) {
        if (rowInScope(ontology, access, live)) allowed.add(`${st}\u0000${live.section_id}`);
      }
    }
    visible = rows.filter((r) => allowed.has(`${r.section_tipo}\u0000${r.section_id}`));
  }
  const context: ContextEntry[] = [
    elementContext(ontology, access, ontology.node(sectionTipo)!, {
      sectionTipo,
      mode: 'tm',
      lang,
      labelLang: labelLang(ctx),
    }),
    columnContext(sectionTipo, HISTORY_DATE_TIPO, 'component_date', 'Modification date'),
    columnContext(sectionTipo, HISTORY_USER_TIPO, 'component_select', 'Modified by'),
  ];
  const seenContext = new Set<string>();
  const data: DataItem[] = [
    {
      typo: 'sections',
      tipo: sectionTipo,
      section_tipo: sqo.section_tipo,
      entries: visible.map((r, i) => ({
        section_tipo: r.section_tipo,
        section_id: r.section_id,
        matrix_id: r.id,
        paginated_key: sqo.offset + i,
      })),
      limit: sqo.limit,
      offset: sqo.offset,
    },
  ];
  for (const r of visible) {
    const base = { section_tipo: r.section_tipo, section_id: r.section_id, mode: 'tm', matrix_id: r.id };
    data.push({
      ...base,
      tipo: HISTORY_DATE_TIPO,
      lang: NO_LANG,
      entries: [{ id: 1, lang: NO_LANG, ...momentDateValue(new Date(r.created_at)) }],
    });
    data.push({
      ...base,
      tipo: HISTORY_USER_TIPO,
      lang: NO_LANG,
      entries:
        r.user_id === null
          ? []
          : [
              {
                type: 'dd151',
                section_tipo: 'dd128',
                section_id: r.user_id,
                from_component_tipo: HISTORY_USER_TIPO,
                // Who, readable: the full name, else the username (absent for a deleted user).
                ...userLabel(r),
              },
            ],
    });
    const tipo = r.kind === 'snapshot' ? r.section_tipo : r.tipo!;
    const node = ontology.node(tipo);
    const items = Array.isArray(r.data) ? r.data : [r.data];
    const translatable = node?.translatable === true && r.kind !== 'snapshot';
    data.push({
      ...base,
      tipo,
      lang: translatable ? lang : NO_LANG,
      kind: r.kind,
      // "Imported from FILE" (or "undo of the import of FILE"): who and when are the row's own.
      ...(r.import ? { import: r.import } : {}),
      entries: translatable ? items.filter((i) => (i as { lang?: unknown })?.lang === lang) : items,
    });
    if (node && !seenContext.has(tipo)) {
      seenContext.add(tipo);
      if (r.kind !== 'snapshot') {
        context.push(
          elementContext(ontology, access, node, {
            sectionTipo: r.section_tipo,
            mode: 'tm',
            lang,
            labelLang: labelLang(ctx),
          }),
        );
      }
    }
  }
  return { context, data };
}
