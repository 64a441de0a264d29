/**
 * "Nothing lost": a save may name the version of the component it edits (`data.version`, as a
 * read answered it). When the component has changed since (its version is another), the save is
 * refused with 409 `record.stale_write` instead of silently overwriting newer work; the refusal
 * says who changed it and when and carries the current value, so the client can show both and
 * let the person decide. A save naming no version (the stock client) is not checked: it keeps
 * last-write-wins.
 *
 * The check runs on the row the save's transaction has locked (SELECT ... FOR UPDATE), so of two
 * savers naming the same version the second sees the first's committed version and is refused.
 */
import { WorkError } from '../dispatch/error-registry.js';
import type { DataItem } from '../read/read-types.js';
import type { HistoryAuthor } from '../store/history.js';
import type { MatrixRow } from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';

/**
 * Thrown inside the save's transaction when the versions differ; the action turns it into the
 * `record.stale_write` refusal (it reads the current value, which needs the caller's access).
 */
export class StaleVersion extends Error {
  constructor(
    /** The locked row, as it stands. */
    readonly row: MatrixRow,
    readonly key: RecordKey,
    readonly tipo: string,
    readonly yourVersion: number,
    readonly currentVersion: number,
  ) {
    super(
      `${tipo} of ${key.section_tipo} ${key.section_id} is at version ${currentVersion}, not ${yourVersion}`,
    );
    this.name = 'StaleVersion';
  }
}

function who(author: HistoryAuthor | undefined): string {
  if (!author) return 'someone';
  if (author.full_username) return `${author.full_username}${author.username ? ` (${author.username})` : ''}`;
  return author.username ?? (author.user_id === null ? 'someone' : `user ${author.user_id}`);
}

/**
 * The refusal. `author` is the history row the current version names (undefined for version 0,
 * or a history row an operator removed); `currentValue` the component's data item as a read
 * `get_data` answers it for the save's language.
 */
export function staleWriteError(
  stale: StaleVersion,
  lang: string,
  author: HistoryAuthor | undefined,
  currentValue: DataItem | undefined,
): WorkError {
  const { key, tipo, yourVersion, currentVersion } = stale;
  const when = author ? ` at ${author.created_at}` : '';
  const message = `${tipo} of ${key.section_tipo} ${key.section_id} was changed by ${who(author)}${when} after the version you edited (${yourVersion}); current version ${currentVersion}`;
  return new WorkError('record.stale_write', message, undefined, {
    section_tipo: key.section_tipo,
    section_id: key.section_id,
    tipo,
    lang,
    your_version: yourVersion,
    current_version: currentVersion,
    changed_by: {
      user_id: author?.user_id ?? null,
      username: author?.username ?? null,
      full_username: author?.full_username ?? null,
    },
    changed_at: author?.created_at ?? null,
    current_value: currentValue ?? null,
  });
}
