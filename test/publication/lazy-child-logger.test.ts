import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyChildLoggerFactory } from '../../src/publication/http/lazy-child-logger.js';

/** A Fastify app logging JSON lines into an array, with the lazy request loggers. */
function appWithLines(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    disableRequestLogging: true,
    childLoggerFactory: lazyChildLoggerFactory,
  });
  app.get('/', async (request) => {
    request.log.info({ step: 'info' }, 'an info line');
    request.log.warn({ step: 'warn' }, 'a warning');
    request.log.child({ part: 'inner' }).error('from a grandchild');
    return { ok: true };
  });
  return { app, lines };
}

describe('lazy request loggers', () => {
  it('writes the lines of enabled levels with the request id bound, and skips the others', async () => {
    const { app, lines } = appWithLines('warn');
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    const reqId = lines[0]?.reqId;
    expect(reqId).toEqual(expect.any(String));
    expect(lines.map((l) => l.msg)).toEqual(['a warning', 'from a grandchild']);
    expect(lines[0]).toMatchObject({ step: 'warn', level: 40, reqId });
    expect(lines[1]).toMatchObject({ part: 'inner', level: 50, reqId });
    expect(lines.some((l) => l.msg === 'an info line')).toBe(false);
    await app.close();
  });

  it('writes every level when the server logs at info, each with its own request id', async () => {
    const { app, lines } = appWithLines('info');
    await app.inject({ url: '/' });
    await app.inject({ url: '/' });
    const infos = lines.filter((l) => l.msg === 'an info line');
    expect(infos).toHaveLength(2);
    expect(infos[0]?.reqId).toBeDefined();
    expect(infos[0]?.reqId).not.toBe(infos[1]?.reqId);
    await app.close();
  });

  it('stays silent with logging off', async () => {
    const app = Fastify({ logger: false, childLoggerFactory: lazyChildLoggerFactory });
    app.get('/', async (request) => {
      request.log.error('nowhere');
      return { ok: true };
    });
    expect((await app.inject({ url: '/' })).statusCode).toBe(200);
    await app.close();
  });
});
