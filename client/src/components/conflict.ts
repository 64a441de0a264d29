/**
 * A save refused because someone else saved the field since it was read (`record.stale_write`,
 * HTTP 409): what the conflict panel shows, from the refusal's `error.details`
 * ({ your_version, current_version, changed_by, changed_at, current_value, ... }).
 */
import { momentOf, t } from '../api/i18n.js';
import type { DataItem } from '../api/read-shapes.js';
import type { ApiError } from '../api/rqo-client.js';
import type { ChangeObject } from './record-store.js';

/** A save refused as stale (`record.stale_write`): both values, and whose the newer one is. */
export interface Conflict {
  mine: ChangeObject[];
  /** The field's value now, as a read answers it (with its version). */
  theirs: DataItem | undefined;
  currentVersion: number | undefined;
  who: string;
  when: string;
}

/** The conflict from a `record.stale_write` refusal's details (who changed it, when, to what). */
export function conflictOf(err: ApiError, mine: ChangeObject[]): Conflict {
  const d = (err.details ?? {}) as {
    current_version?: number;
    changed_by?: { user_id?: number; username?: string | null; full_username?: string | null };
    changed_at?: string;
    current_value?: DataItem;
  };
  const by = d.changed_by;
  const who = by?.full_username
    ? `${by.full_username}${by.username ? ` (${by.username})` : ''}`
    : (by?.username ?? (by?.user_id !== undefined ? `#${by.user_id}` : t('someone')));
  return {
    mine,
    theirs: d.current_value,
    currentVersion:
      typeof d.current_version === 'number'
        ? d.current_version
        : (d.current_value?.version as number | undefined),
    who,
    when: momentOf(d.changed_at),
  };
}
