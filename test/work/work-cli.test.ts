/**
 * `npm run work -- unlock-user <name>`: lifts a login lock without a session, against the same
 * database as the server (which is stopped first: PGlite admits one process at a time).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runWorkCli } from '../../src/work/cli.js';
import { loadWorkConfig } from '../../src/work/config.js';
import { type RunningWorkServer, startWorkServer } from '../../src/work/server.js';
import { type FreshDatabase, workEngineCases } from '../helpers/work-engines.js';
import { TEST_ROOT_PASSWORD, testClock } from '../helpers/work-server.js';

describe.each(workEngineCases())('work CLI ($engine)', (engine) => {
  let fresh: FreshDatabase | undefined;
  let server: RunningWorkServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await fresh?.dispose();
    fresh = undefined;
  });

  it('unlock-user lifts the lock of root that refused even the right password', async () => {
    fresh = await engine.freshDatabase();
    const env = {
      PORT: '0',
      LOG_LEVEL: 'silent',
      DEDALO_ROOT_PASSWORD: TEST_ROOT_PASSWORD,
      TRUST_PROXY: '127.0.0.1,::1',
      ...fresh.env,
    };
    const clock = testClock();
    const start = () => startWorkServer(loadWorkConfig(env), { clock: () => clock.now() });
    const login = async (auth: string) => {
      const res = await fetch(server!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.50' },
        body: JSON.stringify({
          dd_api: 'dd_utils_api',
          action: 'login',
          options: { username: 'root', auth },
        }),
      });
      return res.status;
    };
    server = await start();
    for (let i = 0; i < 5; i++) expect(await login('guess')).toBe(401);
    expect(await login(TEST_ROOT_PASSWORD)).toBe(429);
    await server.close();
    server = undefined;

    const result = await runWorkCli(['unlock-user', 'Root'], env);
    expect(result).toEqual({ exitCode: 0, output: expect.stringMatching(/^Login unlocked for user "Root"/) });

    server = await start();
    expect(await login(TEST_ROOT_PASSWORD)).toBe(200);
    const { rows } = await server.db.query<{ data: Record<string, unknown> }>(
      `SELECT misc->'dd551'->0->'value' AS data FROM matrix_activity
       WHERE string->'dd545'->0->>'value' = 'unlock_login'`,
    );
    expect(rows.map((r) => r.data)).toEqual([expect.objectContaining({ username: 'Root', via: 'cli' })]);
  }, 120_000); // PGlite is opened three times (server, CLI, server again): ~5 s each, more under load

  it('answers usage for a wrong command line, touching nothing', async () => {
    for (const argv of [[], ['unlock-user'], ['unlock-user', 'a', '--adress', 'x'], ['drop-all']]) {
      const result = await runWorkCli(argv, {});
      expect(result.exitCode).toBe(2);
      expect(result.output).toMatch(/^usage: npm run work -- unlock-user/);
    }
  });
});
