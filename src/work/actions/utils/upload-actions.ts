/**
 * The JSON actions around multipart uploads (the upload itself: src/work/uploads/receive-upload.ts).
 * `list_uploaded_files` lists the caller's staged files of one key_dir and never fails (a missing
 * or unknown key_dir, or a failed scan, is `[]`). `join_chunked_files_uploaded` assembles a
 * chunked upload into its final name.
 */
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import {
  checkInteger,
  checkKeyDir,
  checkUploadId,
  joinChunks,
  listStagedFiles,
  MAX_TOTAL_CHUNKS,
  safeFileName,
  UPLOAD_KEY_DIRS,
  UserStaging,
} from '../../uploads/staging.js';
import { type Fields, objectField, optionalObject } from '../rqo-fields.js';

const own = (object: Fields, name: string) => (Object.hasOwn(object, name) ? object[name] : undefined);

/** The stem of a file name (no directory, no last extension), or undefined if none usable. */
function stemOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const base = value.slice(Math.max(value.lastIndexOf('/'), value.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return stem === '' ? undefined : stem;
}

export const listUploadedFilesAction: ActionDefinition = {
  needsSession: true,
  handle: async ({ rqo, config, session }) => {
    let options: Fields;
    try {
      options = objectField(rqo, 'options');
    } catch {
      return { data: [] };
    }
    const keyDir = own(options, 'key_dir');
    if (typeof keyDir !== 'string' || !UPLOAD_KEY_DIRS.has(keyDir)) return { data: [] };
    const staging = new UserStaging(config.dataDir, session!.userId);
    return { data: await listStagedFiles(staging, keyDir, stemOf(own(options, 'file_name'))) };
  },
};

export const joinChunkedFilesUploadedAction: ActionDefinition = {
  needsSession: true,
  handle: async ({ rqo, config, session }) => {
    const options = objectField(rqo, 'options');
    const fileData = optionalObject(options, 'file_data', 'options.file_data') ?? {};
    const filesChunked = own(options, 'files_chunked');
    if (filesChunked !== undefined && filesChunked !== null && !Array.isArray(filesChunked)) {
      throw new WorkError('rqo.invalid_field', 'options.files_chunked must be an array');
    }
    const keyDir = checkKeyDir(own(options, 'key_dir') ?? own(fileData, 'key_dir'));
    const name = safeFileName(own(options, 'file_name') ?? own(fileData, 'name'), 'options.file_name');
    const uploadId = checkUploadId(own(options, 'upload_id'));
    const total = checkInteger(own(options, 'total_chunks'), 'options.total_chunks', 1, MAX_TOTAL_CHUNKS);
    const staging = new UserStaging(config.dataDir, session!.userId);
    return { data: await joinChunks(staging, keyDir, uploadId, total, name) };
  },
};
