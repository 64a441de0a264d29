/**
 * The activity log (dd542 in matrix_activity): who (dd543, a locator to the user), what (dd545),
 * where (dd546), when (dd547) and details (dd551). Rows are written here only; the section is
 * read-only through the API. Call inside the transaction of the change being logged.
 */
import { allocateSectionId } from './counters.js';
import { insertRecord } from './records.js';
import type { SqlQueryable } from './sql-client.js';

export const ACTIVITY_SECTION = 'dd542';
const NO_LANG = 'lg-nolan';

export interface ActivityEntry {
  userId: number;
  /** The kind of event: `login`, `logout`, `new`, `save`, `delete`, `load`. */
  what: string;
  /** The tipo the event happened on (the login element for login and logout). */
  where: string;
  when: Date;
  data?: Record<string, unknown>;
}

/** Dédalo's date value of a moment: its parts, in UTC (activity rows, history rows). */
export function momentDateValue(when: Date) {
  return {
    start: {
      year: when.getUTCFullYear(),
      month: when.getUTCMonth() + 1,
      day: when.getUTCDate(),
      hour: when.getUTCHours(),
      minute: when.getUTCMinutes(),
      second: when.getUTCSeconds(),
    },
  };
}

export async function logActivity(tx: SqlQueryable, entry: ActivityEntry): Promise<number> {
  const sectionId = await allocateSectionId(tx, ACTIVITY_SECTION);
  const item = (value: unknown) => [{ id: 1, lang: NO_LANG, value }];
  await insertRecord(
    tx,
    'matrix_activity',
    { section_tipo: ACTIVITY_SECTION, section_id: sectionId },
    {
      relation: {
        dd543: [
          { type: 'dd151', section_tipo: 'dd128', section_id: entry.userId, from_component_tipo: 'dd543' },
        ],
      },
      string: { dd545: item(entry.what), dd546: item(entry.where) },
      date: { dd547: item(momentDateValue(entry.when)) },
      misc: { dd551: item(entry.data ?? {}) },
    },
    { dd545: 1, dd546: 1, dd547: 1, dd551: 1 },
    entry.userId,
  );
  return sectionId;
}
