/**
 * A PostgreSQL server of the test's own (initdb into a temporary folder, on a free port), so a
 * fault test can stop it (SIGSTOP: a hung server), kill it (SIGKILL: a crash) and start it again
 * (crash recovery on the same data) without touching the machine's shared server on 5432.
 *
 * PostgreSQL refuses to run as root: under root the server runs as the `postgres` system user
 * (its data folder is handed to that user). Every backend puts itself in a process group of its
 * own, so stopping or killing "the database" means every process whose parent is the postmaster,
 * found in /proc, and the postmaster itself.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The newest installed server's bin folder, or undefined. */
function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

/** Who the server runs as: ourselves, or the `postgres` user when we are root. */
function runAs(): { uid: number; gid: number } | undefined | 'none' {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  } catch {
    return 'none';
  }
}

/** Why a private server cannot be started here, or undefined when it can. */
export function privatePostgresMissing(): string | undefined {
  if (process.platform !== 'linux') return 'private PostgreSQL fault tests need Linux (/proc)';
  if (!findBinDir()) return 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin';
  if (runAs() === 'none') return 'running as root and there is no `postgres` user to run the server as';
  return undefined;
}

/** Skips (with the reason) unless CI=true, where a missing private server is a failure. */
export function requirePrivatePostgresOrSkip(): boolean {
  const missing = privatePostgresMissing();
  if (!missing) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true but ${missing}: the fault tests cannot run`);
  console.warn(`\n[skip] ${missing}: the PostgreSQL fault tests are skipped.\n`);
  return false;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid ...; comm may hold spaces and parentheses: read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

export class PrivatePostgres {
  private readonly bin = findBinDir()!;
  private readonly user = runAs();
  readonly dir = mkdtempSync(join(tmpdir(), 'private-pg-'));
  private process?: ChildProcess;
  port = 0;
  /** Its output, for a failing test to show. */
  log = '';

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private spawnOptions() {
    const user = this.user === 'none' ? undefined : this.user;
    return user ? { uid: user.uid, gid: user.gid } : {};
  }

  async init(): Promise<void> {
    const user = this.user === 'none' ? undefined : this.user;
    if (user) chownSync(this.dir, user.uid, user.gid);
    const data = join(this.dir, 'data');
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        join(this.bin, 'initdb'),
        ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
        { ...this.spawnOptions(), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stdout?.on('data', (c: Buffer) => (this.log += c.toString()));
      child.stderr?.on('data', (c: Buffer) => (this.log += c.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`initdb failed:\n${this.log}`))));
    });
    this.port = await freePort();
  }

  /** Starts the server (again, after a kill: PostgreSQL recovers from its WAL) and waits for it. */
  async start(timeoutMs = 30_000): Promise<void> {
    this.process = spawn(
      join(this.bin, 'postgres'),
      [
        '-D',
        join(this.dir, 'data'),
        '-p',
        String(this.port),
        '-k',
        this.dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'max_connections=40',
        '-c',
        'shared_buffers=16MB',
      ],
      { ...this.spawnOptions(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.process.stdout?.on('data', (c: Buffer) => (this.log += c.toString()));
    this.process.stderr?.on('data', (c: Buffer) => (this.log += c.toString()));
    const until = Date.now() + timeoutMs;
    for (;;) {
      const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (err) {
        if (Date.now() > until) throw new Error(`private PostgreSQL did not start: ${err}\n${this.log}`);
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        await client.end().catch(() => {});
      }
    }
  }

  /** The postmaster and every process it started. */
  pids(): number[] {
    const main = this.process?.pid;
    if (main === undefined || !alive(main)) return [];
    const children = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((pid) => parentOf(pid) === main);
    return [main, ...children];
  }

  private signal(signal: NodeJS.Signals): number[] {
    const pids = this.pids();
    for (const pid of pids) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone already
      }
    }
    return pids;
  }

  /** SIGSTOP: the server and its backends hang, connections stay open and silent. */
  freeze(): void {
    this.signal('SIGSTOP');
  }

  /** SIGKILL of every process (stopped ones too); resolves once they are all gone. */
  async kill(): Promise<void> {
    const pids = this.signal('SIGKILL');
    const until = Date.now() + 10_000;
    while (pids.some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  }

  async destroy(): Promise<void> {
    // A stopped server would not act on SIGTERM; nothing of it needs to survive.
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
