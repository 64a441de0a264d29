/**
 * The records an export writes, page by page in section_id order: the list's search (the SQO's
 * filter and filter_by_locators, the caller's project scope, search/sqo-sql.ts) with keyset
 * pagination (`section_id > last` ... LIMIT), never OFFSET, so every page costs the same however
 * deep the file already is. The SQO's own order, limit and offset do not apply: an export is
 * every matching record, in id order (what a re-import and a diff of two exports expect).
 */
import type { Ontology } from '../ontology/load-ontology.js';
import { normaliseWords } from '../search/search-records.js';
import { buildSearchUnion, type ScopeFn } from '../search/sqo-sql.js';
import type { Sqo } from '../search/sqo-types.js';
import { checkedTable, type MatrixRow, readRecords } from '../store/record-rows.js';
import type { SqlQueryable } from '../store/sql-client.js';

/** Records read per round trip: big enough to amortise it, small enough to keep memory flat. */
export const EXPORT_PAGE_SIZE = 500;

/** Every record of `sqo`'s one section that the search selects, as pages of whole rows. */
export async function* exportPages(
  db: SqlQueryable,
  ontology: Ontology,
  sqo: Sqo,
  scope: ScopeFn,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<MatrixRow[]> {
  const sectionTipo = sqo.section_tipo[0]!;
  const table = checkedTable(ontology.tableOf(sectionTipo) ?? '');
  const unordered: Sqo = { ...sqo, section_tipo: [sectionTipo] };
  delete unordered.order;
  const normalised = await normaliseWords(db, unordered);
  let after = 0;
  for (;;) {
    const built = buildSearchUnion(ontology, unordered, scope, [sectionTipo], { normalised });
    if (!built) return;
    const p = built.builder.params;
    const afterParam = p.add(after, '::integer');
    const limitParam = p.add(pageSize, '::integer');
    const { rows } = await db.query<{ section_id: number }>(
      `SELECT u.section_id FROM (${built.union}) u
       WHERE u.section_id > ${afterParam} ORDER BY u.section_id LIMIT ${limitParam}`,
      p.values,
    );
    if (rows.length === 0) return;
    const ids = rows.map((r) => Number(r.section_id));
    yield await readRecords(db, table, sectionTipo, ids);
    if (ids.length < pageSize) return;
    after = ids[ids.length - 1]!;
  }
}
