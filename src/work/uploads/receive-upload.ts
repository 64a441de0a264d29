/**
 * The multipart upload, posted to the same path as RQOs. Gates as for any state-changing action
 * (session, then the CSRF header), then the form is streamed: the one file part
 * (`file_to_upload`) goes to a temporary file in the user's staging area, cut off as soon as it
 * passes UPLOAD_MAX_BYTES; the text fields (`key_dir`, `file_name`, `chunked`, `chunk_index`,
 * `total_chunks`, `upload_id`) may come before or after it. Only when the whole form is read
 * and valid is the temporary file renamed into place: `<key_dir>/<file_name>` for a whole file,
 * `<key_dir>/<upload_id>/<chunk_index>` for a chunk. Any refusal removes the temporary file.
 */

import { open } from 'node:fs/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { matchesAnySecret } from '../../common/constant-time.js';
import type { Session } from '../auth/sessions.js';
import type { ActionResult } from '../dispatch/action-registry.js';
import { WorkError } from '../dispatch/error-registry.js';
import {
  checkInteger,
  checkKeyDir,
  checkUploadId,
  MAX_TOTAL_CHUNKS,
  publishFile,
  publishNewFile,
  removeQuietly,
  safeFileName,
  storedFile,
  UPLOAD_FILE_MODE,
  UserStaging,
} from './staging.js';

const FILE_FIELD = 'file_to_upload';
const TEXT_FIELDS: ReadonlySet<string> = new Set([
  'key_dir',
  'file_name',
  'chunked',
  'chunk_index',
  'total_chunks',
  'upload_id',
]);

/** Busboy limits besides the file size: one file, a few short fields. */
export function multipartLimits(uploadMaxBytes: number) {
  return { fileSize: uploadMaxBytes, files: 1, fields: 32, fieldSize: 4096, parts: 40, headerPairs: 100 };
}

interface Staged {
  path: string;
  size: number;
  clientName: string;
}

async function streamToTemp(staging: UserStaging, part: MultipartFile): Promise<Staged> {
  const path = await staging.newTempPath();
  let size = 0;
  try {
    const out = await open(path, 'wx', UPLOAD_FILE_MODE);
    try {
      for await (const chunk of part.file) {
        // Busboy stops delivering at the limit and flags the stream: stop reading right there.
        if (part.file.truncated) throw new WorkError('upload.too_large');
        size += (chunk as Buffer).length;
        await out.write(chunk as Buffer);
      }
      if (part.file.truncated) throw new WorkError('upload.too_large');
    } finally {
      await out.close();
    }
    return { path, size, clientName: part.filename };
  } catch (err) {
    await removeQuietly(path);
    throw err;
  }
}

/** Errors of the multipart reader (limits, malformed bodies) as registered refusals. */
function asWorkError(err: unknown): unknown {
  if (err instanceof WorkError) return err;
  const code = (err as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new WorkError('upload.too_large');
  if (code === 'FST_FILES_LIMIT') return new WorkError('upload.malformed', 'Send one file_to_upload part');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new WorkError('upload.malformed', 'The form has too many parts');
  }
  if (code === 'FST_PROTO_VIOLATION') return new WorkError('upload.malformed', 'Forbidden field name');
  if (typeof code === 'string' && code.startsWith('FST_')) return new WorkError('upload.malformed');
  // Busboy's own parse errors are plain Errors ("Unexpected end of multipart data", ...).
  if (err instanceof Error && BUSBOY_PARSE_ERROR.test(err.message)) return new WorkError('upload.malformed');
  return err;
}

const BUSBOY_PARSE_ERROR = /multipart|part header|boundary|end of form|content.type/i;

const isTrue = (value: string | undefined) => value === 'true' || value === '1';

export async function receiveUpload(
  request: FastifyRequest,
  ctx: { session: Session | undefined; dataDir: string; uploadMaxBytes: number },
  csrfHeader: string | undefined,
): Promise<ActionResult> {
  const { session } = ctx;
  if (session === undefined) throw new WorkError('auth.not_logged');
  if (csrfHeader === undefined || !matchesAnySecret(csrfHeader, [session.csrfToken])) {
    throw new WorkError('auth.csrf_failed');
  }
  const staging = new UserStaging(ctx.dataDir, session.userId);
  const fields = new Map<string, string>();
  let staged: Staged | undefined;
  try {
    try {
      for await (const part of request.parts({ limits: multipartLimits(ctx.uploadMaxBytes) })) {
        if (part.type === 'file') {
          if (part.fieldname !== FILE_FIELD || staged !== undefined) {
            throw new WorkError('upload.malformed', `The only file part is ${FILE_FIELD}`);
          }
          staged = await streamToTemp(staging, part);
        } else if (TEXT_FIELDS.has(part.fieldname)) {
          if (part.valueTruncated || part.fieldnameTruncated || typeof part.value !== 'string') {
            throw new WorkError('upload.malformed', `Field ${part.fieldname} is too long`);
          }
          if (fields.has(part.fieldname)) {
            throw new WorkError('upload.malformed', `Field ${part.fieldname} is given twice`);
          }
          fields.set(part.fieldname, part.value);
        }
        // Other fields (a client's `mode`, `start`, `end`...) are ignored.
      }
    } catch (err) {
      throw asWorkError(err);
    }
    if (staged === undefined) throw new WorkError('upload.malformed', `${FILE_FIELD} is missing`);
    const keyDir = checkKeyDir(fields.get('key_dir'));
    if (isTrue(fields.get('chunked'))) {
      const uploadId = checkUploadId(fields.get('upload_id'));
      const total = checkInteger(fields.get('total_chunks'), 'total_chunks', 1, MAX_TOTAL_CHUNKS);
      const index = checkInteger(fields.get('chunk_index'), 'chunk_index', 0, total - 1);
      await publishFile(staged.path, staging.chunkPath(keyDir, uploadId, index));
      return {
        data: {
          chunked: true,
          upload_id: uploadId,
          chunk_index: index,
          total_chunks: total,
          size: staged.size,
        },
      };
    }
    const name = safeFileName(fields.get('file_name') ?? staged.clientName);
    const stored = await publishNewFile(staged.path, staging, keyDir, name);
    return { data: storedFile(stored, staged.size) };
  } finally {
    // Renamed away on success; on any refusal the partial file goes.
    await removeQuietly(staged?.path);
  }
}
