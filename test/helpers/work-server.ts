/**
 * Starts the real work server on a free port against a fresh database of one engine, and gives
 * tests a small client that posts raw bodies and reads the envelope, plus cookie-jar clients
 * (one per simulated browser) and a clock the test moves instead of sleeping.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadPublishConfig } from '../../src/publish/publish-targets.js';
import { loadWorkConfig } from '../../src/work/config.js';
import { type RunningWorkServer, startWorkServer, type WorkServerOptions } from '../../src/work/server.js';
import { TEST_ROOT_PASSWORD } from './test-root-password.js';
import type { FreshDatabase, WorkEngineCase } from './work-engines.js';

export interface WorkAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the envelope holds
  body: any;
}

export interface PostInit {
  path?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A clock the server reads on every request; tests advance it. */
export interface TestClock {
  now(): Date;
  advance(ms: number): void;
}

export function testClock(start = Date.now()): TestClock {
  let current = start;
  return { now: () => new Date(current), advance: (ms) => (current += ms) };
}

/** One browser: it keeps the cookies the server sets and sends them back, like a real one. */
export interface WorkBrowser {
  cookies: Map<string, string>;
  /** Set by login(); sent as X-Dedalo-Csrf-Token unless the call passes `csrf`. */
  csrfToken?: string;
  post(body: unknown, init?: PostInit & { csrf?: string | null }): Promise<WorkAnswer>;
  login(username: string, password: string): Promise<WorkAnswer>;
}

export interface WorkServerHandle {
  server: RunningWorkServer;
  clock: TestClock;
  /** POSTs `body` (an object is JSON-encoded, a string is sent as is) to the base URL + `path`. */
  post(body: unknown, init?: PostInit): Promise<WorkAnswer>;
  browser(): WorkBrowser;
  stop(): Promise<void>;
}

export { TEST_ROOT_PASSWORD };

async function send(url: string, body: unknown, init: PostInit): Promise<WorkAnswer> {
  const res = await fetch(`${url}${init.path ?? ''}`, {
    method: 'POST',
    headers: { 'content-type': init.contentType ?? 'application/json', ...init.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) };
}

/** Applies Set-Cookie headers to a jar: Max-Age=0 removes, anything else stores the value. */
function storeCookies(jar: Map<string, string>, headers: Headers): void {
  for (const line of headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    if (/;\s*Max-Age=0(;|$)/i.test(line)) jar.delete(name);
    else jar.set(name, pair.slice(eq + 1).trim());
  }
}

let servers = 0;

export async function startTestWorkServer(
  engine: WorkEngineCase,
  env: Record<string, string> = {},
  options: Pick<WorkServerOptions, 'wrapDb' | 'publish'> = {},
): Promise<WorkServerHandle> {
  // A copy of the run's bootstrapped template: the server's start finds root and the ontology
  // there, as every start after the first does.
  const fresh: FreshDatabase = await engine.bootstrappedDatabase();
  const config = loadWorkConfig({
    PORT: '0',
    LOG_LEVEL: 'silent',
    DEDALO_ROOT_PASSWORD: TEST_ROOT_PASSWORD,
    ...fresh.env,
    ...env,
  });
  const clock = testClock();
  // Publishing (dd_diffusion_api) goes to a file of this server's own unless the test says where.
  const publicationFile = join(tmpdir(), `worktest-publication-${process.pid}-${++servers}.sqlite`);
  const publish = options.publish ?? {
    config: loadPublishConfig({ PUBLISH_TARGETS: `test=sqlite:${publicationFile}` }),
  };
  const server = await startWorkServer(config, { ...options, publish, clock: () => clock.now() });
  const browser = (): WorkBrowser => {
    const b: WorkBrowser = {
      cookies: new Map(),
      post: async (body, init = {}) => {
        const headers: Record<string, string> = { ...init.headers };
        if (b.cookies.size > 0) {
          headers.cookie = [...b.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
        }
        const csrf = init.csrf === undefined ? b.csrfToken : init.csrf;
        if (csrf !== null && csrf !== undefined) headers['x-dedalo-csrf-token'] = csrf;
        const answer = await send(server.url, body, { ...init, headers });
        storeCookies(b.cookies, answer.headers);
        return answer;
      },
      login: async (username, password) => {
        const answer = await b.post({
          dd_api: 'dd_utils_api',
          action: 'login',
          options: { username, auth: password },
        });
        if (answer.body.ok) b.csrfToken = answer.body.csrf_token;
        return answer;
      },
    };
    return b;
  };
  return {
    server,
    clock,
    post: (body, init = {}) => send(server.url, body, init),
    browser,
    stop: async () => {
      await server.close();
      await fresh.dispose();
      for (const suffix of ['', '-journal']) rmSync(publicationFile + suffix, { force: true });
    },
  };
}

/**
 * A browser that can talk to several instances (by URL) with one cookie jar and CSRF token, as a
 * user behind a load balancer does.
 */
export function instancesBrowser() {
  let cookie = '';
  let csrf = '';
  return {
    async post(url: string, body: unknown): Promise<WorkAnswer> {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie,
          ...(csrf ? { 'x-dedalo-csrf-token': csrf } : {}),
        },
        body: JSON.stringify(body),
      });
      const set = res.headers.getSetCookie()[0];
      if (set) cookie = set.split(';')[0] ?? '';
      const json = await res.json();
      if (json.csrf_token) csrf = json.csrf_token;
      return { status: res.status, headers: res.headers, body: json };
    },
  };
}

/** Two servers on one new PostgreSQL database, as behind a load balancer. */
export interface TwoInstances {
  fresh: FreshDatabase;
  a: RunningWorkServer;
  b: RunningWorkServer;
  close(): Promise<void>;
}

export async function startTwoInstances(postgres: WorkEngineCase): Promise<TwoInstances> {
  const fresh = await postgres.freshDatabase();
  const config = loadWorkConfig({
    PORT: '0',
    LOG_LEVEL: 'silent',
    DEDALO_ROOT_PASSWORD: TEST_ROOT_PASSWORD,
    ...fresh.env,
  });
  const a = await startWorkServer(config);
  const b = await startWorkServer(config);
  return {
    fresh,
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await fresh.dispose();
    },
  };
}

/** A new browser of `work` logged in as root (the login must answer 200). */
export async function rootBrowser(work: WorkServerHandle): Promise<WorkBrowser> {
  const root = work.browser();
  expect((await root.login('root', TEST_ROOT_PASSWORD)).status).toBe(200);
  return root;
}

/**
 * One browser per username, each logged in with `password` (every login must answer 200), and
 * `root` logged in as root: the users a permissions suite acts as.
 */
export async function browsersOf(
  work: WorkServerHandle,
  usernames: readonly string[],
  password: string,
): Promise<Record<string, WorkBrowser>> {
  const as: Record<string, WorkBrowser> = {};
  for (const name of usernames) {
    const browser = work.browser();
    expect((await browser.login(name, password)).status).toBe(200);
    as[name] = browser;
  }
  as.root = await rootBrowser(work);
  return as;
}
