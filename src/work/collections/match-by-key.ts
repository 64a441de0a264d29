/**
 * A spreadsheet column matched by key (`match: {by: "key", component}`) names its target records
 * by the text of a key component (an informant's name): each text becomes the one record of the
 * target section whose key component holds it, in any language. The text is trimmed and
 * compared as the search compares words (case and accents ignored: "angela" finds "Àngela");
 * when several records match that way, the one whose text is exactly the cell's wins; none, or
 * several without one exact, refuses the row (a record id in a `match: {by: "id"}` column is
 * the way to name one of several namesakes).
 */
import type { Ontology } from '../ontology/load-ontology.js';
import { checkedTable } from '../store/record-rows.js';
import type { SqlQueryable } from '../store/sql-client.js';
import { CellRefused } from './cell-changes.js';
import type { MatchByKeyChange } from './read-mapped-csv.js';

/** At most this many candidates are read for one text (enough to tell one from several). */
const CANDIDATES = 20;

export async function resolveByKey(
  tx: SqlQueryable,
  ontology: Ontology,
  change: MatchByKeyChange,
): Promise<{ section_tipo: string; section_id: number }[]> {
  const table = checkedTable(ontology.tableOf(change.section_tipo)!);
  const locators: { section_tipo: string; section_id: number }[] = [];
  for (const text of change.texts) {
    const wanted = text.trim();
    const { rows } = await tx.query<{ section_id: number; exact: boolean }>(
      `SELECT m.section_id,
         EXISTS (SELECT 1 FROM jsonb_array_elements(m.string -> $2) i WHERE btrim(i ->> 'value') = $3) AS exact
       FROM ${table} m
       WHERE m.section_tipo = $1 AND m.section_id > 0 AND jsonb_typeof(m.string -> $2) = 'array'
         AND EXISTS (SELECT 1 FROM jsonb_array_elements(m.string -> $2) i
           WHERE lower(unaccent(btrim(i ->> 'value'))) = lower(unaccent($3)))
       ORDER BY m.section_id LIMIT ${CANDIDATES}`,
      [change.section_tipo, change.key_tipo, wanted],
    );
    const exact = rows.filter((r) => r.exact);
    const chosen = rows.length === 1 ? rows : exact.length === 1 ? exact : [];
    const quoted = JSON.stringify(wanted.slice(0, 80));
    if (rows.length === 0) {
      throw new CellRefused(
        'locator_target',
        `no record of ${change.section_tipo} has ${quoted} in ${change.key_tipo}`,
      );
    }
    if (chosen.length === 0) {
      const ids = rows.map((r) => r.section_id).join(', ');
      throw new CellRefused(
        'locator_target',
        `${quoted} is ambiguous: records ${ids}${rows.length === CANDIDATES ? '…' : ''} of ${change.section_tipo} have it in ${change.key_tipo} (name one by its id)`,
      );
    }
    const id = Number(chosen[0]!.section_id);
    if (!locators.some((l) => l.section_id === id)) {
      locators.push({ section_tipo: change.section_tipo, section_id: id });
    }
  }
  return locators;
}
