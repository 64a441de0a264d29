/**
 * Existing installations: the default Cataloguer profile created before it could read its value
 * lists and write the terms' indexations gets those rights at the next start, but only while it is
 * still the untouched default: named "Cataloguer" and never saved since the first start (no history
 * row of its own). A profile an administrator edited is never widened; they grant the rights
 * themselves (docs/security-rights.md, "Default profiles"). Only missing items are added, and items
 * below the default's level raised to it, with the history and activity rows of any save, in one
 * transaction; a second start finds nothing to add.
 */
import type { Ontology } from '../ontology/load-ontology.js';
import { NO_LANG } from '../ontology/load-ontology.js';
import { logActivity } from '../store/activity.js';
import { writeVersionedComponent } from '../store/component-write.js';
import { checkedTable, componentItems, lastItemId, readRecord } from '../store/record-rows.js';
import type { SqlClient } from '../store/sql-client.js';
import { type AccessItem, CATALOGUER_PROFILE, cataloguerAdditions } from './default-profiles.js';

const PROFILES = 'dd234';
const NAME = 'dd237';
const ACCESS = 'dd774';
/** Root: the top-up is the installation's own change, as the first start's records are. */
const ROOT = -1;

/** Answers the items added (empty when the profile is missing, edited, or already has them). */
export async function topUpCataloguerProfile(
  db: SqlClient,
  ontology: Ontology,
  now: Date,
): Promise<AccessItem[]> {
  const table = ontology.tableOf(PROFILES);
  const nameColumn = ontology.dataColumnOf(NAME);
  const accessColumn = ontology.dataColumnOf(ACCESS);
  if (!table || !nameColumn || !accessColumn) return [];
  const key = { section_tipo: PROFILES, section_id: CATALOGUER_PROFILE.section_id };
  return db.transaction(async (tx) => {
    const row = await readRecord(tx, checkedTable(table), key, { forUpdate: true });
    if (!row) return [];
    const name = componentItems(row, nameColumn, NAME)
      .map((i) => (i as { value?: unknown }).value)
      .join('');
    if (name !== CATALOGUER_PROFILE.name) return [];
    const { rows } = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM matrix_time_machine WHERE section_tipo = $1 AND section_id = $2`,
      [key.section_tipo, key.section_id],
    );
    if ((rows[0]?.n ?? 0) > 0) return [];
    const items = componentItems(row, accessColumn, ACCESS) as AccessItem[];
    const keyOf = (i: AccessItem) => `${i.section_tipo}\u0000${i.tipo}`;
    const held = new Map(items.map((i) => [keyOf(i), i.value]));
    const missing = cataloguerAdditions(ontology).filter((i) => (held.get(keyOf(i)) ?? -1) < i.value);
    if (missing.length === 0) return [];
    const raised = new Set(missing.map(keyOf));
    await writeVersionedComponent(tx, {
      table: checkedTable(table),
      key,
      column: accessColumn,
      tipo: ACCESS,
      items: [...items.filter((i) => !raised.has(keyOf(i))), ...missing],
      lastId: lastItemId(row, ACCESS),
      lang: NO_LANG,
      userId: ROOT,
      now,
    });
    await logActivity(tx, {
      userId: ROOT,
      what: 'save',
      where: ACCESS,
      when: now,
      data: {
        section_tipo: key.section_tipo,
        section_id: key.section_id,
        reason:
          "default Cataloguer profile: read on the value lists its fields use, write on the terms' indexations",
      },
    });
    return missing;
  });
}
