/**
 * The embedded database (PGlite) is one PostgreSQL backend inside one process: two processes
 * opening the same directory each believe they own it, allocate the same section ids, and one
 * of them loses its writes at the next start. So whoever opens it (the server, `npm run work`,
 * `npm run publish`) first takes an exclusive lock: a file beside the database directory,
 * created with O_EXCL, naming the process (pid, host, start time, command line). A second
 * process is refused with those facts and what to do. A lock left by a crash (its pid no longer
 * alive on this host) is taken over, and the taker says so in its log. PostgreSQL needs none of
 * this: it handles concurrent clients itself.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface LockOwner {
  pid: number;
  hostname: string;
  /** ISO 8601: when the holder took the lock. */
  started_at: string;
  command: string;
}

/** The directory is held by another live process (or one on another host). */
export class DataDirLocked extends Error {
  constructor(
    readonly lockFile: string,
    readonly owner: LockOwner | undefined,
    readonly sameHost: boolean,
  ) {
    super(lockedMessage(lockFile, owner, sameHost));
    this.name = 'DataDirLocked';
  }
}

function lockedMessage(lockFile: string, owner: LockOwner | undefined, sameHost: boolean): string {
  const who = owner
    ? `process ${owner.pid} on ${owner.hostname} (${owner.command}), since ${owner.started_at}`
    : 'another process (its lock file cannot be read)';
  const lines = [
    `The embedded work database is in use by ${who}.`,
    'Only one process may open it at a time: a second server, or `npm run work` / `npm run publish` while the server runs, would lose data.',
    'Stop that process first (the server with SIGTERM or Ctrl-C), or give this one its own WORK_DATA_DIR; to run several servers on one database, use PostgreSQL (WORK_DB_URL).',
  ];
  if (!sameHost && owner) {
    lines.push(
      `That process runs on another host, so this one cannot tell whether it is alive: if it is not, delete ${lockFile}.`,
    );
  } else if (owner) {
    lines.push(
      `Lock file: ${lockFile} (if process ${owner.pid} is not that command any more, its pid was reused after a crash: delete the file).`,
    );
  } else {
    lines.push(`Lock file: ${lockFile}`);
  }
  return lines.join('\n');
}

export interface HeldLock {
  readonly file: string;
  /** Set when a dead process's lock was taken over: whose it was. */
  readonly tookOverFrom?: LockOwner;
  release(): void;
}

/** True when a process with this pid exists on this host (EPERM: it exists, not ours). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(file: string): { raw: string; owner?: LockOwner } | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const parsed = JSON.parse(raw) as Partial<LockOwner>;
    if (
      typeof parsed.pid === 'number' &&
      Number.isInteger(parsed.pid) &&
      typeof parsed.hostname === 'string'
    ) {
      return {
        raw,
        owner: {
          pid: parsed.pid,
          hostname: parsed.hostname,
          started_at: String(parsed.started_at ?? 'an unknown time'),
          command: String(parsed.command ?? 'an unknown command'),
        },
      };
    }
  } catch {
    // Unreadable content: treated as held (a half-written file of a live process looks like it).
  }
  return { raw };
}

/** The command line a lock names: `node dist/src/work/main.js`, `node dist/src/work/cli-main.js unlock-user root`. */
function commandLine(): string {
  const [exec = 'node', ...args] = process.argv;
  const node = exec.split(/[\\/]/).pop() ?? exec;
  const rel = args.map((a) => (a.startsWith(process.cwd()) ? a.slice(process.cwd().length + 1) : a));
  return [node, ...rel].join(' ');
}

/** Locks held by this process, released at exit whatever the way out. */
const held = new Set<string>();
let exitHook = false;

/**
 * Takes the lock file `file` for this process, or throws DataDirLocked. A lock whose process is
 * gone (same host, pid not alive) is taken over. Within one process the same file cannot be
 * taken twice either (a second PGlite on the same directory is just as wrong).
 */
export function acquireDataDirLock(file: string, dir: string): HeldLock {
  mkdirSync(dir, { recursive: true });
  const me: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    started_at: new Date().toISOString(),
    command: commandLine(),
  };
  const content = `${JSON.stringify(me)}\n`;
  let tookOverFrom: LockOwner | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(file, content, { flag: 'wx', mode: 0o644 });
      return register(file, content, tookOverFrom);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const current = readOwner(file);
    if (!current) continue; // released meanwhile: try again
    const { owner } = current;
    const sameHost = owner?.hostname === me.hostname;
    if (!owner || !sameHost || owner.pid === process.pid || isAlive(owner.pid)) {
      throw new DataDirLocked(file, owner, sameHost);
    }
    // The holder is dead. Move its file aside (atomic) and check that what was moved is still
    // the dead one's: a third process may have taken it over in between.
    const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      renameSync(file, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    const moved = readOwner(aside);
    if (moved?.raw === current.raw) {
      unlinkSync(aside);
      tookOverFrom = owner;
      continue;
    }
    // Someone else's fresh lock: put it back (link fails if yet another one exists) and retry.
    try {
      linkSync(aside, file);
    } catch {
      // a newer lock is in place; ours was moved aside and is dropped
    }
    unlinkSync(aside);
  }
  const last = readOwner(file);
  throw new DataDirLocked(file, last?.owner, last?.owner?.hostname === me.hostname);
}

function register(file: string, content: string, tookOverFrom: LockOwner | undefined): HeldLock {
  held.add(file);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const f of held) removeIfOurs(f);
    });
  }
  let released = false;
  return {
    file,
    tookOverFrom,
    release: () => {
      if (released) return;
      released = true;
      held.delete(file);
      removeIfOurs(file, content);
    },
  };
}

/** Removes the lock file only while it is still this process's (never someone's who took it). */
function removeIfOurs(file: string, content?: string): void {
  try {
    const current = readFileSync(file, 'utf8');
    const owner = readOwner(file)?.owner;
    if (content !== undefined ? current !== content : owner?.pid !== process.pid) return;
    unlinkSync(file);
  } catch {
    // already gone
  }
}
