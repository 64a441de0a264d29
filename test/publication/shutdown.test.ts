/**
 * Graceful shutdown of the real entry point (src/publication/main.ts) in a child process. The
 * sources are compiled into a private folder first: `npm test` does not build, and dist/ may be
 * stale or being rebuilt. Type errors are the type check's business; here only emitted JavaScript
 * matters, so tsc's exit status is ignored as long as main.js was written.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { compiledEntry } from '../helpers/compiled-sources.js';
import { FIXTURE_DB } from '../helpers/global-setup.js';

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function get(url: string, agent?: Agent): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = httpRequest(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

/** Resolves with the error code of a plain TCP connection attempt ('connected' if it worked). */
function tryConnect(port: number): Promise<string> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      done('connected');
    });
    socket.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('graceful shutdown on SIGTERM', () => {
  let child: ChildProcess;
  let base = '';
  let port = 0;
  let output = '';
  let dataDir = '';
  let exited: Promise<number | null>;
  beforeAll(async () => {
    const main = await compiledEntry(inject('testRunId'), 'src/publication/main.js');

    // A private copy with an endless view: a query on it runs until the time-out stops it.
    dataDir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    const file = join(dataDir, `${FIXTURE_DB}.sqlite`);
    copyFileSync(join(inject('sqliteDir'), `${FIXTURE_DB}.sqlite`), file);
    const db = new Database(file);
    db.exec(
      'CREATE VIEW slow_view AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000000000) SELECT x AS section_id FROM c',
    );
    db.close();

    child = spawn(process.execPath, [main], {
      cwd: dataDir, // no stray .env from the repository
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        LOG_LEVEL: 'warn',
        DB_DRIVER: 'sqlite',
        DB_SQLITE_DIR: dataDir,
        DB_NAMES: FIXTURE_DB,
        DB_SQLITE_WORKERS: '1',
        REQUEST_TIMEOUT_MS: '1500',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((done) => child.on('exit', (code) => done(code)));
    child.stderr!.on('data', (b: Buffer) => {
      output += b.toString();
    });
    base = await new Promise<string>((ready, fail) => {
      child.stdout!.on('data', (b: Buffer) => {
        output += b.toString();
        const url = /listening on (http:\/\/\S+?)\/?$/m.exec(output)?.[1];
        if (url) ready(url);
      });
      child.on('exit', (code) => fail(new Error(`server exited with ${code} before listening:\n${output}`)));
    });
    port = Number(new URL(base).port);
  });

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the request in flight, refuses new connections, and exits 0', async () => {
    // An idle kept-alive connection must not hold the shutdown open.
    const keepAlive = new Agent({ keepAlive: true });
    expect((await get(`${base}/databases`, keepAlive)).status).toBe(200);

    const started = Date.now();
    const slow = get(`${base}/${FIXTURE_DB}/tables/slow_view/records?limit=1`);
    await sleep(400); // the slow query is running in the worker now
    child.kill('SIGTERM');
    await sleep(300);

    expect(child.exitCode).toBeNull(); // still finishing the slow request
    expect(await tryConnect(port)).toBe('ECONNREFUSED');

    const answer = await slow;
    expect(answer.status).toBe(504);
    expect(JSON.parse(answer.body).type).toMatch(/\/timeout$/);
    // Told not to reuse the connection: otherwise it would idle on and hold the process open.
    expect(answer.connection).toBe('close');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);

    const code = await Promise.race([exited, sleep(5000).then(() => 'still running')]);
    expect(code, output).toBe(0);
    keepAlive.destroy();
  });
});
