/**
 * One component of one record as a read answers it: its context, its data item (entries in the
 * requested language for translatable literals; locators with `paginated_key` and a
 * `pagination` for relations, and a `datalist` for value lists), and for portals the target
 * records' items and contexts, one level deep. The `get_data` branch of `read` and the echo of
 * `save` both answer this.
 */

import type { UserAccess } from '../auth/permissions.js';
import { PORTAL_LIMIT } from '../context/element-context.js';
import type { ActionContext } from '../dispatch/action-registry.js';
import { WorkError } from '../dispatch/error-registry.js';
import { type MatrixRow, readRecord } from '../store/record-rows.js';
import type { SqlQueryable } from '../store/sql-client.js';
import { PageBuilder } from './page-builder.js';
import { labelLang } from './read-request.js';
import type { Ddo, ReadResult } from './read-types.js';

export interface ComponentReadRequest {
  sectionTipo: string;
  sectionId: number;
  tipo: string;
  mode: string;
  /** The data language; untranslatable components answer `lg-nolan`. */
  lang: string;
  /** Relations: the page of locators to answer (default limit 10, offset 0). */
  pagination?: { limit: number; offset: number };
  /** Portal columns to resolve (a `show.ddo_map`); default: the target section's list columns. */
  ddoMap?: readonly Ddo[];
  /** Replaces the stored value (resolve_data: locators the client holds, resolved without saving). */
  value?: readonly unknown[];
  /** The record as the caller already holds it (a save's echo), instead of reading it again. */
  row?: MatrixRow;
}

/** Reads through `db` when given (a save's transaction), else the pool. */
export async function readComponent(
  ctx: ActionContext,
  access: UserAccess,
  request: ComponentReadRequest,
  db: SqlQueryable = ctx.db,
): Promise<ReadResult> {
  const { ontology } = ctx;
  const table = ontology.tableOf(request.sectionTipo);
  const column = ontology.dataColumnOf(request.tipo);
  if (!table || !column)
    throw new Error(`readComponent: ${request.tipo} of ${request.sectionTipo} is not a component`);
  const key = { section_tipo: request.sectionTipo, section_id: request.sectionId };
  let row = request.row ?? (await readRecord(db, table, key));
  if (!row)
    throw new WorkError('resource.not_found', `${request.sectionTipo} ${request.sectionId} does not exist`);
  if (request.value !== undefined) {
    row = { ...row, [column]: { ...row[column], [request.tipo]: [...request.value] } };
  }
  const page = new PageBuilder(db, ontology, access, {
    mode: request.mode,
    lang: request.lang,
    labelLang: labelLang(ctx),
  });
  const own: Ddo = {
    tipo: request.tipo,
    section_tipo: request.sectionTipo,
    parent: request.sectionTipo,
    mode: request.mode,
  };
  const children = (request.ddoMap ?? []).filter((d) => d.parent === request.tipo);
  await page.addRecords(request.sectionTipo, [row], [own, ...children], {
    pageOf: () => request.pagination ?? { limit: PORTAL_LIMIT, offset: 0 },
  });
  return page.result();
}
