/**
 * The demo archive's media files. Its records name videos and images (`av/12.mp4`,
 * `images/3.jpg`) that no camera made; `npm start` puts a placeholder file at each of those paths
 * under the publication server's MEDIA_DIR, so the browse pages' player and images, and the API's
 * `video_url`, answer instead of 404. One short clip and one picture (assets/demo-media/), linked
 * (or copied where links cannot be made) under every name; absolute URLs are left alone.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync } from 'node:fs';
import { dirname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

/** assets/demo-media of this package, from the sources or the build. */
function assetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, 'assets', 'demo-media');
}

const SAMPLES: { pattern: RegExp; file: string }[] = [
  { pattern: /\.(mp4|m4v|webm|mov)$/i, file: 'sample.mp4' },
  { pattern: /\.(jpe?g|png|webp|gif)$/i, file: 'sample.jpg' },
];

/** Media paths the published demo database names: the media table's videos, the images' files. */
function mediaPaths(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const paths: string[] = [];
    const has = (table: string, column: string) =>
      (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).some(
        (c) => c.name === column,
      );
    for (const [table, column] of [
      ['audiovisual', 'video'],
      ['audiovisual', 'image'],
      ['image', 'image'],
      ['informant', 'image'],
    ] as const) {
      if (!has(table, column)) continue;
      for (const row of db.prepare(`SELECT DISTINCT "${column}" AS v FROM "${table}"`).all() as {
        v: unknown;
      }[])
        if (typeof row.v === 'string') paths.push(row.v);
    }
    return paths;
  } finally {
    db.close();
  }
}

/** Writes the placeholder files MEDIA_DIR lacks; answers how many it wrote. */
export function writeDemoMedia(publishedFile: string, mediaDir: string): number {
  const root = resolve(mediaDir);
  let written = 0;
  for (const path of mediaPaths(publishedFile)) {
    if (/^[a-z]+:\/\//i.test(path) || path.startsWith('/')) continue;
    const sample = SAMPLES.find((s) => s.pattern.test(path));
    const target = resolve(root, normalize(path));
    if (!sample || !target.startsWith(root + sep) || existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    const source = join(assetsDir(), sample.file);
    try {
      linkSync(source, target);
    } catch {
      copyFileSync(source, target);
    }
    written++;
  }
  return written;
}
