/**
 * Publication targets by name, from the environment:
 *
 * - `PUBLISH_TARGETS`: comma-separated `name=url`, where url is `sqlite:<file>` (an embedded
 *   publication database: the file `<DB_SQLITE_DIR>/<database>.sqlite` the publication API reads)
 *   or `mysql://user:password@host:port/database` (`mariadb://` accepted). Default:
 *   `demo=sqlite:./data/publication/demo_archive.sqlite`, the database `npm start` serves.
 * - `PUBLISH_DEFAULT_TARGET`: the target used when none is named (default: the first listed).
 * - `PUBLICATION_MAP`: a JSON publication map replacing the default one (load-publication-map.ts).
 * - `PUBLISH_LOCK_WAIT_SECONDS`: how long a run waits for another run on the same target to
 *   finish before it fails as busy (default 30; target-lock.ts).
 *
 * A target's password never appears in a message: `describe` shows the URL without it.
 */
import { resolve } from 'node:path';
import { ConfigError } from '../common/config-error.js';
import { MariadbWriter } from './mariadb-writer.js';
import type { PublishWriter } from './publish-writer.js';
import { SqliteWriter } from './sqlite-writer.js';
import { DEFAULT_LOCK_WAIT_MS } from './target-lock.js';

export type PublishTarget =
  | { name: string; dialect: 'sqlite'; file: string }
  | { name: string; dialect: 'mariadb'; url: string };

export interface PublishConfig {
  targets: ReadonlyMap<string, PublishTarget>;
  defaultTarget: string;
  mapPath?: string;
  /** PUBLISH_LOCK_WAIT_SECONDS, in ms. */
  lockWaitMs: number;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export const DEFAULT_PUBLISH_TARGETS = 'demo=sqlite:./data/publication/demo_archive.sqlite';

function parseTarget(entry: string): PublishTarget {
  const eq = entry.indexOf('=');
  const name = entry.slice(0, eq).trim();
  const url = entry.slice(eq + 1).trim();
  if (eq < 0 || !NAME.test(name)) {
    throw new ConfigError([
      `PUBLISH_TARGETS: "${entry.split('=')[0]}" is not name=url with a name of letters, digits, _ or -`,
    ]);
  }
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (!file.endsWith('.sqlite'))
      throw new ConfigError([`PUBLISH_TARGETS: ${name}: the SQLite file must end in .sqlite`]);
    return { name, dialect: 'sqlite', file: resolve(file) };
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ConfigError([`PUBLISH_TARGETS: ${name}: not a valid URL`]);
    }
    if (!/^\/[A-Za-z0-9_$-]{1,55}$/.test(parsed.pathname)) {
      throw new ConfigError([
        `PUBLISH_TARGETS: ${name}: the URL must name a database (letters, digits, _, $ or -)`,
      ]);
    }
    return { name, dialect: 'mariadb', url };
  }
  throw new ConfigError([
    `PUBLISH_TARGETS: ${name}: the URL must start with sqlite:, mysql:// or mariadb://`,
  ]);
}

export function loadPublishConfig(env: NodeJS.ProcessEnv = process.env): PublishConfig {
  const raw = env.PUBLISH_TARGETS?.trim() || DEFAULT_PUBLISH_TARGETS;
  const targets = new Map<string, PublishTarget>();
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const target = parseTarget(entry);
    if (targets.has(target.name)) throw new ConfigError([`PUBLISH_TARGETS: ${target.name} is listed twice`]);
    targets.set(target.name, target);
  }
  if (targets.size === 0) throw new ConfigError(['PUBLISH_TARGETS: no target listed']);
  const defaultTarget = env.PUBLISH_DEFAULT_TARGET?.trim() || [...targets.keys()][0]!;
  if (!targets.has(defaultTarget)) {
    throw new ConfigError([
      `PUBLISH_DEFAULT_TARGET: ${defaultTarget} is not one of PUBLISH_TARGETS (${[...targets.keys()].join(', ')})`,
    ]);
  }
  const wait = env.PUBLISH_LOCK_WAIT_SECONDS?.trim();
  const waitSeconds = wait ? Number(wait) : DEFAULT_LOCK_WAIT_MS / 1000;
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0 || waitSeconds > 86_400) {
    throw new ConfigError([`PUBLISH_LOCK_WAIT_SECONDS: a number of seconds from 0 to 86400, got "${wait}"`]);
  }
  return {
    targets,
    defaultTarget,
    mapPath: env.PUBLICATION_MAP?.trim() || undefined,
    lockWaitMs: waitSeconds * 1000,
  };
}

/** The target for messages: no password. */
export function describeTarget(target: PublishTarget): string {
  if (target.dialect === 'sqlite') return `${target.name} (SQLite ${target.file})`;
  const url = new URL(target.url);
  url.password = '';
  return `${target.name} (MariaDB ${url.host}${url.pathname})`;
}

export function writerFor(target: PublishTarget): PublishWriter {
  return target.dialect === 'sqlite'
    ? new SqliteWriter(target.name, target.file)
    : new MariadbWriter(target.name, target.url);
}
