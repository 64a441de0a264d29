/**
 * Removes what interrupted uploads leave in the staging area: chunk directories
 * (`<key_dir>/<upload_id>/`) whose newest chunk is older than `maxAgeMs`, and temporary files
 * (`.tmp/`) as old. Staged files themselves are kept: they wait for a user to attach them.
 */
import { lstat, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UPLOAD_KEY_DIRS } from './staging.js';

export const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;

async function entries(dir: string) {
  return readdir(dir, { withFileTypes: true }).catch(() => []);
}

/** The newest modification time in a directory (itself and the files directly in it). */
async function newestMtime(dir: string): Promise<number> {
  let newest = (await lstat(dir)).mtimeMs;
  for (const e of await entries(dir)) {
    const info = await lstat(join(dir, e.name)).catch(() => undefined);
    if (info) newest = Math.max(newest, info.mtimeMs);
  }
  return newest;
}

/** Returns how many chunk directories and temporary files were removed. */
export async function purgeAbandonedUploads(
  dataDir: string,
  now: Date,
  maxAgeMs = ABANDONED_UPLOAD_MS,
): Promise<number> {
  const cutoff = now.getTime() - maxAgeMs;
  const uploads = resolve(dataDir, 'uploads');
  let removed = 0;
  for (const user of await entries(uploads)) {
    // Only directories named like a user id: nothing else under uploads/ is ours to delete.
    if (!user.isDirectory() || !/^-?\d+$/.test(user.name)) continue;
    const root = join(uploads, user.name);
    for (const tmp of await entries(join(root, '.tmp'))) {
      const path = join(root, '.tmp', tmp.name);
      const info = await lstat(path).catch(() => undefined);
      if (info?.isFile() && info.mtimeMs < cutoff) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    for (const keyDir of UPLOAD_KEY_DIRS) {
      for (const e of await entries(join(root, keyDir))) {
        if (!e.isDirectory()) continue;
        const path = join(root, keyDir, e.name);
        if ((await newestMtime(path)) < cutoff) {
          await rm(path, { recursive: true, force: true });
          removed += 1;
        }
      }
    }
  }
  return removed;
}
