/**
 * The activity log (dd542 in matrix_activity): who (dd543, a locator to the user), what (dd545),
 * where (dd546), when (dd547) and details (dd551). Rows are written here only; the section is
 * read-only through the API. Call inside the transaction of the change being logged.
 */
import type { SqlQueryable } from './sql-client.js';

export const ACTIVITY_SECTION = 'dd542';
/** Where activity section ids come from (migration 5). */
export const ACTIVITY_SEQUENCE = 'matrix_activity_section_id_seq';
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

/**
 * Dédalo's codes of the kinds of event: records of its list dd42, which its `dd` TLD makes the
 * "what" dd545 point into (a component_select). The default content has dd545 as text; each row
 * carries both, so the log reads the same whichever `dd` the archive runs on.
 */
const DEDALO_WHAT: Record<string, number> = {
  login: 1,
  logout: 2,
  new: 3,
  delete: 4,
  save: 5,
  load: 6,
  upload: 9,
};
const WHAT_LIST = 'dd42';

/** The stored columns of one activity row (string, relation, date, misc, meta), as JSON texts. */
function activityColumns(entry: ActivityEntry): [string, string, string, string, string] {
  const item = (value: unknown) => [{ id: 1, lang: NO_LANG, value }];
  return [
    JSON.stringify({ dd545: item(entry.what), dd546: item(entry.where) }),
    JSON.stringify({
      dd543: [
        { type: 'dd151', section_tipo: 'dd128', section_id: entry.userId, from_component_tipo: 'dd543' },
      ],
      ...(DEDALO_WHAT[entry.what] !== undefined
        ? {
            dd545: [
              {
                type: 'dd151',
                section_tipo: WHAT_LIST,
                section_id: DEDALO_WHAT[entry.what],
                from_component_tipo: 'dd545',
              },
            ],
          }
        : {}),
    }),
    // A date item as every date component stores it ({id, lang, start}), so date filters and
    // the date component's reader work on the log as on any section.
    JSON.stringify({ dd547: [{ id: 1, lang: NO_LANG, ...momentDateValue(entry.when) }] }),
    JSON.stringify({ dd551: item(entry.data ?? {}) }),
    JSON.stringify({ dd545: 1, dd546: 1, dd547: 1, dd551: 1 }),
  ];
}

export async function logActivity(tx: SqlQueryable, entry: ActivityEntry): Promise<number> {
  // The id comes from a sequence (migration 5), as upstream does for the activity log: a counter
  // row would hold a lock until commit and make every write in the system wait for the one
  // before it. Gaps left by rolled-back transactions do not matter in a log.
  const { rows } = await tx.query<{ section_id: number }>(
    `INSERT INTO matrix_activity
       (section_tipo, section_id, string, relation, date, misc, meta, created_by)
     VALUES ($1, nextval('${ACTIVITY_SEQUENCE}')::integer, $2::jsonb, $3::jsonb, $4::jsonb, $5::jsonb, $6::jsonb, $7)
     RETURNING section_id`,
    [ACTIVITY_SECTION, ...activityColumns(entry), entry.userId],
  );
  return rows[0]!.section_id;
}

/**
 * Many activity rows in one statement (an import's batch), numbered from the sequence in the
 * order given, exactly as logActivity would write them one by one.
 */
export async function logActivities(tx: SqlQueryable, entries: readonly ActivityEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.query(
    `INSERT INTO matrix_activity
       (section_tipo, section_id, string, relation, date, misc, meta, created_by)
     SELECT $1, nextval('${ACTIVITY_SEQUENCE}')::integer, (e->>0)::jsonb, (e->>1)::jsonb, (e->>2)::jsonb,
       (e->>3)::jsonb, (e->>4)::jsonb, (e->>5)::integer
     FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS a(e, n)
     ORDER BY n`,
    [ACTIVITY_SECTION, JSON.stringify(entries.map((e) => [...activityColumns(e), String(e.userId)]))],
  );
}
