/**
 * The upload staging area: `<WORK_DATA_DIR>/uploads/<user_id>/<key_dir>/`. Every path component
 * that comes from a request (key_dir, file name, upload_id, chunk index) is checked here before
 * it touches a path, and every computed path is checked again to lie inside the user's staging
 * directory, so no request can name a file outside it. Files appear under their final name only
 * by an atomic rename from a temporary file in the user's `.tmp/` directory (same file system),
 * so a reader never sees a partial file. Chunks of a chunked upload live in
 * `<key_dir>/<upload_id>/<chunk_index>` until `join_chunked_files_uploaded` assembles them.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, lstat, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { WorkError } from '../dispatch/error-registry.js';

/** The staging sub-directories a client may name. */
export const UPLOAD_KEY_DIRS: ReadonlySet<string> = new Set(['image', 'av', 'pdf', 'document']);

/** Directories: owner rwx, group rx (get_system_info's upload_tmp_perms); files: rw-r-----. */
export const UPLOAD_DIR_MODE = 0o750;
export const UPLOAD_FILE_MODE = 0o640;

/** Names longer than this (in UTF-8 bytes) are refused; most file systems stop at 255. */
export const MAX_FILE_NAME_BYTES = 200;
/** Bounds the join loop and the chunk directory. */
export const MAX_TOTAL_CHUNKS = 10_000;

const UPLOAD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
// Control characters, NUL included, are never part of a stored name.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Client input echoed in messages: quoted and cut short. */
const quote = (value: string) => JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);

export function checkKeyDir(value: unknown): string {
  if (typeof value !== 'string' || !UPLOAD_KEY_DIRS.has(value)) {
    throw new WorkError(
      'upload.key_dir_not_allowed',
      `key_dir must be one of ${[...UPLOAD_KEY_DIRS].join(', ')}${typeof value === 'string' ? `, got ${quote(value)}` : ''}`,
    );
  }
  return value;
}

/**
 * The stored name of an uploaded file: the last segment after any `/` or `\` (a browser may send
 * a client path), then refused if empty, `.` or `..`, starting with a dot, holding a control
 * character (NUL included) or longer than MAX_FILE_NAME_BYTES.
 */
export function safeFileName(value: unknown, field = 'file_name'): string {
  if (typeof value !== 'string') throw new WorkError('upload.invalid_name', `${field} must be a string`);
  const base = value.slice(Math.max(value.lastIndexOf('/'), value.lastIndexOf('\\')) + 1);
  if (
    base === '' ||
    base.startsWith('.') ||
    CONTROL_CHARS.test(base) ||
    Buffer.byteLength(base, 'utf8') > MAX_FILE_NAME_BYTES
  ) {
    throw new WorkError(
      'upload.invalid_name',
      `${field} ${quote(value)} is not a usable file name (empty, leading dot, control character or over ${MAX_FILE_NAME_BYTES} bytes)`,
    );
  }
  return base;
}

export function checkUploadId(value: unknown): string {
  if (typeof value !== 'string' || !UPLOAD_ID_PATTERN.test(value)) {
    throw new WorkError(
      'upload.invalid_name',
      `upload_id must be 1-128 characters of A-Z a-z 0-9 . _ - not starting with a dot${typeof value === 'string' ? `, got ${quote(value)}` : ''}`,
    );
  }
  return value;
}

/** A non-negative decimal integer from a form field (string) or a JSON number, within [min, max]. */
export function checkInteger(value: unknown, field: string, min: number, max: number): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,9}$/.test(value)
        ? Number(value)
        : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new WorkError('rqo.invalid_field', `${field} must be an integer from ${min} to ${max}`);
  }
  return n;
}

/** The paths of one user's staging area. */
export class UserStaging {
  /** `<dataDir>/uploads/<user_id>` */
  readonly root: string;
  /** Temporary files, renamed into place when complete; never listed. */
  readonly tmpDir: string;

  constructor(dataDir: string, userId: number) {
    if (!Number.isSafeInteger(userId)) throw new Error(`user id ${userId} is not an integer`);
    this.root = resolve(dataDir, 'uploads', String(userId));
    this.tmpDir = join(this.root, '.tmp');
  }

  /** Joins checked components and verifies the result is still inside this user's root. */
  private inside(...parts: string[]): string {
    const path = resolve(this.root, ...parts);
    if (!path.startsWith(this.root + sep)) throw new Error(`staging path escapes ${this.root}`);
    return path;
  }

  keyDirPath(keyDir: string): string {
    return this.inside(checkKeyDir(keyDir));
  }

  filePath(keyDir: string, name: string): string {
    return this.inside(checkKeyDir(keyDir), safeFileName(name));
  }

  chunkDir(keyDir: string, uploadId: string): string {
    return this.inside(checkKeyDir(keyDir), checkUploadId(uploadId));
  }

  chunkPath(keyDir: string, uploadId: string, index: number): string {
    return this.inside(checkKeyDir(keyDir), checkUploadId(uploadId), String(index));
  }

  /** A fresh, exclusive temporary path (the directory is created). */
  async newTempPath(): Promise<string> {
    await mkdir(this.tmpDir, { recursive: true, mode: UPLOAD_DIR_MODE });
    return join(this.tmpDir, `${randomUUID()}.part`);
  }
}

/** Renames a complete temporary file to `target` (atomic: same file system), creating its directory. */
export async function publishFile(tempPath: string, target: string): Promise<void> {
  try {
    await mkdir(resolve(target, '..'), { recursive: true, mode: UPLOAD_DIR_MODE });
    await rename(tempPath, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A directory (a chunk directory, say) or a file is in the way of the other.
    if (code === 'EISDIR' || code === 'ENOTDIR' || code === 'EEXIST' || code === 'ENOTEMPTY') {
      throw new WorkError('upload.conflict');
    }
    throw err;
  }
}

/** How many suffixed names (`name (2).ext` ... ) are tried before a name counts as taken. */
export const MAX_NAME_SUFFIX = 1000;

/** `photo.jpg` -> `photo (n).jpg`; a name without an extension gets the suffix at its end. */
export function suffixedName(name: string, n: number): string {
  const ext = extname(name);
  const stem = ext === '' || ext === name ? name : name.slice(0, -ext.length);
  return `${stem} (${n})${ext === name ? '' : ext}`;
}

/**
 * Puts a complete temporary file into `keyDir` under `name`, or, when that name is taken (a file
 * uploaded before, or a chunk directory), under the first free `name (2).ext`, `name (3).ext`...:
 * an upload never replaces a staged file. A hard link is atomic and fails when the name exists,
 * so two uploads of one name at once both keep their files. Returns the name used.
 */
export async function publishNewFile(
  tempPath: string,
  staging: UserStaging,
  keyDir: string,
  name: string,
): Promise<string> {
  await mkdir(staging.keyDirPath(keyDir), { recursive: true, mode: UPLOAD_DIR_MODE });
  for (let n = 1; n <= MAX_NAME_SUFFIX; n++) {
    const candidate = n === 1 ? name : suffixedName(name, n);
    // A suffixed name may grow past the limit: checked like any name.
    const target = staging.filePath(keyDir, candidate);
    try {
      await link(tempPath, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    await unlink(tempPath);
    return candidate;
  }
  throw new WorkError(
    'upload.conflict',
    `${quote(name)} and its first ${MAX_NAME_SUFFIX - 1} numbered variants are all taken in the staging area`,
  );
}

export async function removeQuietly(path: string | undefined): Promise<void> {
  if (path !== undefined) await rm(path, { force: true, recursive: true }).catch(() => {});
}

export interface StoredFile {
  name: string;
  size: number;
  /** Relative to the key_dir's URL: the percent-encoded name. */
  url: string;
}

export const storedFile = (name: string, size: number): StoredFile => ({
  name,
  size,
  url: encodeURIComponent(name),
});

/**
 * Assembles chunks 0..total-1 of `uploadId` into `<keyDir>/<name>` (or `name (2).ext`... when the
 * name is taken, see publishNewFile) and deletes the chunks.
 * Missing chunks: a 400 naming them, and nothing changes.
 */
export async function joinChunks(
  staging: UserStaging,
  keyDir: string,
  uploadId: string,
  total: number,
  name: string,
): Promise<StoredFile> {
  staging.filePath(keyDir, name); // the name is checked before any work
  const chunkDir = staging.chunkDir(keyDir, uploadId);
  const chunks: string[] = [];
  const missing: number[] = [];
  for (let i = 0; i < total; i++) {
    const path = staging.chunkPath(keyDir, uploadId, i);
    const info = await lstat(path).catch(() => undefined);
    if (info?.isFile()) chunks.push(path);
    else missing.push(i);
  }
  if (missing.length > 0) {
    const shown = missing.slice(0, 20).join(', ');
    throw new WorkError(
      'upload.chunks_missing',
      `upload ${quote(uploadId)} is missing chunk${missing.length > 1 ? 's' : ''} ${shown}${missing.length > 20 ? ` and ${missing.length - 20} more` : ''} (of ${total})`,
    );
  }
  const temp = await staging.newTempPath();
  try {
    const out = await open(temp, 'wx', UPLOAD_FILE_MODE);
    try {
      for (const chunk of chunks) {
        for await (const buffer of createReadStream(chunk)) await out.write(buffer as Buffer);
      }
    } finally {
      await out.close();
    }
    const { size } = await stat(temp);
    const stored = await publishNewFile(temp, staging, keyDir, name);
    await removeQuietly(chunkDir);
    return storedFile(stored, size);
  } catch (err) {
    await removeQuietly(temp);
    throw err;
  }
}

/**
 * The regular files of one key_dir (never chunk directories, temporary or hidden files), sorted
 * by name; with `stem`, only names containing it. Any failure (no such directory) gives [].
 */
export async function listStagedFiles(
  staging: UserStaging,
  keyDir: string,
  stem: string | undefined,
): Promise<StoredFile[]> {
  try {
    const dir = staging.keyDirPath(keyDir);
    const entries = await readdir(dir, { withFileTypes: true });
    const names = entries
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .filter((name) => stem === undefined || stem === '' || name.includes(stem))
      .sort();
    const files: StoredFile[] = [];
    for (const name of names) {
      const info = await lstat(join(dir, name)).catch(() => undefined);
      if (info?.isFile()) files.push(storedFile(name, info.size));
    }
    return files;
  } catch {
    return [];
  }
}
