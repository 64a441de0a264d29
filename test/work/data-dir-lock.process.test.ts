/**
 * One embedded database, one process (store/data-dir-lock.ts), with real processes of the built
 * server (`npm run build` first): a second `start:work` on the same WORK_DATA_DIR exits non-zero
 * naming the first (pid, command, since when) and what to do; `npm run work -- unlock-user` is
 * refused while the server runs and works once it has stopped (the lock is released at a
 * graceful shutdown); a lock left by a dead process is taken over, and the log says so.
 * The same server's static files: a path leaving assets/ or holding a NUL byte is a 404/400
 * envelope, and nothing is logged at error level.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureClientBuilt } from '../helpers/client-browser.js';
import { sendRaw } from '../helpers/raw-socket.js';
import { TEST_ROOT_PASSWORD } from '../helpers/work-server.js';

const MAIN = resolve('dist/src/work/main.js');
const CLI = resolve('dist/src/work/cli-main.js');
const PUBLISH = resolve('dist/src/publish/publish-cli.js');

interface Proc {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function run(script: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves with the API URL once the server printed it; rejects if it exits first. */
async function listening(p: Proc): Promise<string> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const m = /Work API listening on (\S+)/.exec(p.stdout());
    if (m) return m[1]!;
    if (p.child.exitCode !== null) throw new Error(`server exited ${p.child.exitCode}: ${p.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start in time');
}

/** pino's lines of stdout, parsed (the console lines of main.ts are skipped). */
function logLines(p: Proc): { level: number; msg: string; [k: string]: unknown }[] {
  return p
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

describe.runIf(existsSync(MAIN))('embedded database lock (real processes)', () => {
  let dir: string;
  let env: Record<string, string>;
  const procs: Proc[] = [];
  const start = (script: string, args: string[] = []) => {
    const p = run(script, args, env);
    procs.push(p);
    return p;
  };

  beforeAll(() => ensureClientBuilt(), 120_000);

  afterEach(async () => {
    for (const p of procs.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) {
        p.child.kill('SIGKILL');
        await p.exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const fresh = () => {
    dir = mkdtempSync(join(tmpdir(), 'worklock-'));
    cpSync(inject('workPgliteTemplate'), join(dir, 'pglite'), { recursive: true });
    env = {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      WORK_DATA_DIR: dir,
      DEDALO_ROOT_PASSWORD: TEST_ROOT_PASSWORD,
      WORK_SWEEP_INTERVAL_SECONDS: '0',
      PUBLISH_TARGETS: `site=sqlite:${join(dir, 'site.sqlite')}`,
    };
  };
  const lockFile = () => join(dir, 'pglite.lock');

  it('refuses a second server on the same WORK_DATA_DIR, naming the first; the first keeps serving', async () => {
    fresh();
    const first = start(MAIN);
    const url = await listening(first);
    const holder = JSON.parse(readFileSync(lockFile(), 'utf8'));
    expect(holder).toEqual({
      pid: first.child.pid,
      hostname: hostname(),
      started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      command: expect.stringContaining('main.js'),
    });

    const second = start(MAIN);
    expect(await second.exited).toBe(3);
    expect(second.stdout()).not.toMatch(/listening/);
    const message = second.stderr();
    expect(message).toContain(`in use by process ${first.child.pid} on ${hostname()}`);
    expect(message).toContain('main.js');
    expect(message).toContain(`since ${holder.started_at}`);
    expect(message).toMatch(/Stop that process first/);
    expect(message).not.toMatch(/\n\s+at /); // no stack

    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"action":"start"}',
    });
    expect(res.status).toBe(200);
    // The refused one did not take or remove the lock.
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(first.child.pid);
  }, 180_000);

  it('refuses `npm run work -- unlock-user` while the server runs; after a graceful stop it runs', async () => {
    fresh();
    const server = start(MAIN);
    await listening(server);
    const refused = start(CLI, ['unlock-user', 'root']);
    expect(await refused.exited).toBe(3);
    expect(refused.stderr()).toContain(`in use by process ${server.child.pid}`);
    expect(refused.stderr()).toMatch(/Nothing was changed/);
    // `npm run publish` opens the same database: refused as busy (exit 4), with the same facts.
    const publish = start(PUBLISH, ['--rebuild']);
    expect(await publish.exited).toBe(4);
    expect(publish.stderr()).toContain(`in use by process ${server.child.pid}`);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(lockFile())).toBe(false);

    const ran = start(CLI, ['unlock-user', 'root']);
    expect(await ran.exited).toBe(0);
    expect(ran.stdout()).toMatch(/Nothing was locked for user "root"/);
    expect(existsSync(lockFile())).toBe(false);
  }, 180_000);

  it('takes over a lock whose process is gone, says so in the log, and releases it at shutdown', async () => {
    fresh();
    // A process that has come and gone: its pid is not alive any more.
    const dead = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((r) => dead.on('exit', r));
    const deadPid = dead.pid!;
    writeFileSync(
      lockFile(),
      `${JSON.stringify({ pid: deadPid, hostname: hostname(), started_at: '2026-01-01T00:00:00.000Z', command: 'node dist/src/work/main.js' })}\n`,
    );
    const server = start(MAIN);
    const url = await listening(server);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(server.child.pid);
    const takeover = logLines(server).find((l) => /took over/.test(l.msg));
    expect(takeover).toMatchObject({
      level: 40,
      previous_holder: { pid: deadPid, command: 'node dist/src/work/main.js' },
    });
    expect(takeover!.msg).toContain(`process ${deadPid}`);

    // B: the static files of the same server refuse paths out of assets/ in the envelope.
    const cases: [string, number, string][] = [
      ['/assets/%2e%2e/index.html', 404, 'http.not_found'],
      ['/assets/../../../../etc/passwd', 404, 'http.not_found'],
      ['/assets/%00', 400, 'http.malformed_request'],
      ['/assets/%2e%2e%2f%2e%2e%2fpackage.json', 404, 'http.not_found'],
    ];
    for (const [path, status, code] of cases) {
      const res = await sendRaw(url, `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(res.status, path).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json).toMatchObject({ ok: false, request_id: res.headers['x-request-id'], error: { code } });
      expect(res.body).not.toContain('root:');
    }
    await new Promise((r) => setTimeout(r, 200)); // let the log lines arrive
    const lines = logLines(server);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    // The first three are refusals of the static-file sender (403/400), logged at info; the
    // encoded-slash one is a plain missing file.
    expect(lines.filter((l) => l.msg === 'request refused' && l.level === 30)).toHaveLength(3);
    expect(lines.some((l) => JSON.stringify(l).includes('"stack"'))).toBe(false);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(lockFile())).toBe(false);
  }, 180_000);
});
