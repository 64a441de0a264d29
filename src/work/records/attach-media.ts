/**
 * Attaches a staged upload to a media component (image, av, pdf): the file moves from the user's
 * staging area to the record's media folder, and the component's value becomes one item
 * `{id, lang: lg-nolan, value: {name, size, key_dir, path}}`, written with its history row and an
 * activity row in one transaction. The move happens first and is undone if the transaction
 * fails, so a refused attach leaves the staged file where it was and the record unchanged. An
 * audiovisual file's running time, when its header tells it (uploads/media-duration.ts), is
 * written to the section's duration field in the same transaction (records/media-duration-field.ts).
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
import { durationItems } from './media-duration-field.js';

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
  /**
   * The duration field to fill from the file (component_av only; the caller checked the user may
   * save it): read from the file once moved, written only when the header tells it.
   */
  duration?: { spec: ComponentSpec; read: (path: string) => Promise<number | undefined> };
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
  const seconds = args.duration ? await args.duration.read(target) : undefined;
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
      const d = args.duration?.spec;
      // Someone typing in the duration field (their live lock) keeps it: the file does not overwrite it.
      const durationFree =
        d !== undefined && !(await lockHeldByOther(tx, { ...key, component_tipo: d.tipo }, userId, now));
      if (seconds !== undefined && d && durationFree) {
        const durationId = lastItemId(row, d.tipo) + 1;
        const durationItemsNow = durationItems(ontology, d.tipo, seconds, durationId);
        const durationVersion = await writeVersionedComponent(tx, {
          table,
          key,
          column: d.column,
          tipo: d.tipo,
          items: durationItemsNow,
          lastId: durationId,
          lang: NO_LANG,
          userId,
          now,
        });
        row[d.column] = { ...row[d.column], [d.tipo]: durationItemsNow };
        row.meta = { ...row.meta, [d.tipo]: durationId };
        row.versions = { ...row.versions, [d.tipo]: durationVersion };
      }
      await args.guard?.afterChange(tx, key);
      await logActivity(tx, {
        userId,
        what: 'upload',
        where: spec.tipo,
        when: now,
        data: {
          section_tipo: key.section_tipo,
          section_id: key.section_id,
          file_name: args.fileName,
          ...(seconds !== undefined && d && durationFree ? { [d.tipo]: seconds } : {}),
        },
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
