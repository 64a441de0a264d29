/**
 * Attaches a staged upload to a media component (image, av, pdf): the file moves from the user's
 * staging area to the record's media folder, and the component's value becomes one item
 * `{id, lang: lg-nolan, value: {name, size, key_dir, path}}`, written with its history row and an
 * activity row in one transaction. The move happens first and is undone if the transaction
 * fails, so a refused attach leaves the staged file where it was and the record unchanged.
 */

import { lstat, mkdir, rename } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { AccountGuard } from '../auth/rights-ceiling.js';
import type { ComponentSpec } from '../components/component-values.js';
import { WorkError } from '../dispatch/error-registry.js';
import { lockHeldByOther } from '../locks/component-locks.js';
import { inUseError } from '../locks/in-use-error.js';
import type { Ontology } from '../ontology/load-ontology.js';
import { NO_LANG } from '../ontology/load-ontology.js';
import { logActivity } from '../store/activity.js';
import { writeVersionedComponent } from '../store/component-write.js';
import { checkedTable, lastItemId, type MatrixRow, readRecord } from '../store/record-rows.js';
import type { RecordKey } from '../store/records.js';
import type { SqlClient } from '../store/sql-client.js';
import { UPLOAD_DIR_MODE, type UserStaging } from '../uploads/staging.js';

export interface MediaValue {
  name: string;
  size: number;
  key_dir: string;
  /** Relative to WORK_DATA_DIR/media. */
  path: string;
}

export interface AttachArgs {
  key: RecordKey;
  spec: ComponentSpec;
  staging: UserStaging;
  keyDir: string;
  fileName: string;
  dataDir: string;
  userId: number;
  now: Date;
  /** The caller's project-scope check on the locked row. */
  assertRow: (row: MatrixRow) => void;
  /** The rights ceiling (auth/rights-ceiling.ts), should a user or profile ever hold media. */
  guard?: AccountGuard;
}

/** `<dataDir>/media/<section_tipo>/<section_id>/<tipo>/<name>`: one folder per record and field. */
export function mediaPathOf(key: RecordKey, tipo: string, name: string): string {
  return join(key.section_tipo, String(key.section_id), tipo, name);
}

export async function attachStagedFile(
  db: SqlClient,
  ontology: Ontology,
  args: AttachArgs,
): Promise<MatrixRow> {
  const { key, spec, userId, now } = args;
  const source = args.staging.filePath(args.keyDir, args.fileName);
  const info = await lstat(source).catch(() => undefined);
  if (!info?.isFile()) {
    throw new WorkError(
      'resource.not_found',
      `no uploaded file "${args.fileName}" in your ${args.keyDir} staging area: upload it first`,
    );
  }
  const mediaRoot = resolve(args.dataDir, 'media');
  const relative = mediaPathOf(key, spec.tipo, args.fileName);
  const target = resolve(mediaRoot, relative);
  if (!target.startsWith(mediaRoot + sep)) throw new Error('media path escapes the media folder');
  await mkdir(dirname(target), { recursive: true, mode: UPLOAD_DIR_MODE });
  await rename(source, target);
  const table = checkedTable(ontology.tableOf(key.section_tipo) ?? 'matrix');
  try {
    return await db.transaction(async (tx) => {
      const row = await readRecord(tx, table, key, { forUpdate: true });
      if (!row)
        throw new WorkError('resource.not_found', `${key.section_tipo} ${key.section_id} does not exist`);
      args.assertRow(row);
      args.guard?.beforeChange(row);
      // A media field another user is editing (their live lock) is not replaced under them.
      const lockKey = { ...key, component_tipo: spec.tipo };
      const holder = await lockHeldByOther(tx, lockKey, userId, now);
      if (holder) throw inUseError(lockKey, holder);
      const id = lastItemId(row, spec.tipo) + 1;
      const value: MediaValue = {
        name: args.fileName,
        size: info.size,
        key_dir: args.keyDir,
        path: relative,
      };
      const items = [{ id, lang: NO_LANG, value }];
      const version = await writeVersionedComponent(tx, {
        table,
        key,
        column: spec.column,
        tipo: spec.tipo,
        items,
        lastId: id,
        lang: NO_LANG,
        userId,
        now,
      });
      await args.guard?.afterChange(tx, key);
      await logActivity(tx, {
        userId,
        what: 'upload',
        where: spec.tipo,
        when: now,
        data: { section_tipo: key.section_tipo, section_id: key.section_id, file_name: args.fileName },
      });
      row[spec.column] = { ...row[spec.column], [spec.tipo]: items };
      row.meta = { ...row.meta, [spec.tipo]: id };
      row.versions = { ...row.versions, [spec.tipo]: version };
      return row;
    });
  } catch (err) {
    // Nothing was written: the file goes back to the staging area.
    await rename(target, source).catch(() => {});
    throw err;
  }
}
