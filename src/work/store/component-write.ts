/**
 * The one way a component is written: its history row first, then the component with that row's
 * id as its new version. The order matters: the version names the history row, so "who changed
 * it and when" is always the row a version points at, and both commit or roll back together
 * (the caller's transaction).
 */
import { recordComponentHistory } from './history.js';
import type { DataColumn, MatrixTable } from './matrix-tables.js';
import { writeComponent } from './record-rows.js';
import type { RecordKey } from './records.js';
import type { SqlQueryable } from './sql-client.js';

export interface ComponentWrite {
  table: MatrixTable;
  key: RecordKey;
  column: DataColumn;
  tipo: string;
  /** The component's whole new value (every language). */
  items: readonly unknown[];
  /** The component's item counter after the write. */
  lastId: number;
  /** The language the history row records (the change's; lg-nolan for untranslatable ones). */
  lang: string;
  /** What the history row holds, when not `items` (a password's value never leaves the row). */
  historyItems?: readonly unknown[];
  userId: number;
  now: Date;
}

/** Writes the history row and the component; answers the component's new version. */
export async function writeVersionedComponent(db: SqlQueryable, write: ComponentWrite): Promise<number> {
  const version = await recordComponentHistory(db, {
    key: write.key,
    tipo: write.tipo,
    lang: write.lang,
    items: write.historyItems ?? write.items,
    userId: write.userId,
    when: write.now,
  });
  await writeComponent(db, write.table, write.key, write.column, write.tipo, write.items, write.lastId, {
    userId: write.userId,
    now: write.now,
    version,
  });
  return version;
}
