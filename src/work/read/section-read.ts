/**
 * A section read (list or edit): the SQO's page of records, then `{context, data}` with a leading
 * `typo: 'sections'` item listing the page's records in result order (`paginated_key` = row
 * index + offset), the section's context, and the items of every shown component. The statements
 * are fixed per page: the search, one read per section of the page, one per portal target
 * section and one per value list.
 */

import type { UserAccess } from '../auth/permissions.js';
import { defaultDdoMap, elementContext } from '../context/element-context.js';
import type { ActionContext } from '../dispatch/action-registry.js';
import { searchRecords } from '../search/search-records.js';
import { scopeFor } from '../search/search-scope.js';
import type { Sqo } from '../search/sqo-types.js';
import { readShownRecords } from '../store/record-rows.js';
import { PageBuilder, shownColumns } from './page-builder.js';
import { labelLang } from './read-request.js';
import type { DataItem, Ddo, ReadResult } from './read-types.js';

export interface SectionReadRequest {
  sectionTipo: string;
  mode: string;
  lang: string;
  sqo: Sqo;
  ddoMap?: readonly Ddo[];
  sectionId?: number;
}

export async function readSection(
  ctx: ActionContext,
  access: UserAccess,
  request: SectionReadRequest,
): Promise<ReadResult> {
  const { ontology, db } = ctx;
  const { sqo, mode, lang } = request;
  const found = await searchRecords(db, ontology, sqo, scopeFor(ontology, access));
  const page = new PageBuilder(db, ontology, access, { mode, lang, labelLang: labelLang(ctx) });
  const sectionNode = ontology.node(request.sectionTipo)!;
  page.addContext(
    elementContext(ontology, access, sectionNode, {
      sectionTipo: request.sectionTipo,
      mode,
      lang,
      labelLang: labelLang(ctx),
      ...(request.sectionId !== undefined ? { sectionId: request.sectionId } : {}),
    }),
  );
  const bySection = new Map<string, number[]>();
  for (const r of found.records) {
    const ids = bySection.get(r.section_tipo) ?? [];
    ids.push(r.section_id);
    bySection.set(r.section_tipo, ids);
  }
  for (const [st, ids] of bySection) {
    const table = ontology.tableOf(st);
    if (!table) continue;
    const ddoMap = request.ddoMap ?? defaultDdoMap(ontology, st, mode);
    const rows = await readShownRecords(db, table, st, ids, shownColumns(ontology, st, ddoMap));
    await page.addRecords(st, rows, ddoMap);
  }
  const sections: DataItem = {
    typo: 'sections',
    tipo: request.sectionTipo,
    section_tipo: sqo.section_tipo,
    entries: found.records.map((r, i) => ({
      section_tipo: r.section_tipo,
      section_id: r.section_id,
      paginated_key: sqo.offset + i,
    })),
    limit: sqo.limit,
    offset: sqo.offset,
    ...(found.total !== undefined ? { total: found.total } : {}),
  };
  const result = page.result();
  return { context: result.context, data: [sections, ...result.data] };
}
