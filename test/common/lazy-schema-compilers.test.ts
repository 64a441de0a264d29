/**
 * The servers' Fastify option that loads the schema compilers only when a route declares a
 * schema (common/lazy-schema-compilers.ts): in a fresh process, an app whose routes have none
 * answers without Ajv ever loading; a route with a body schema still validates (Ajv loads then).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { compiledEntry } from '../helpers/compiled-sources.js';

describe('lazy schema compilers', () => {
  it('load Ajv only for a route with a schema, which still validates', async () => {
    const module = await compiledEntry(inject('testRunId'), 'src/common/lazy-schema-compilers.js');
    // A fresh process: this one has loaded Ajv long ago.
    const script = `
      import { createRequire } from 'node:module';
      import Fastify from 'fastify';
      const { lazySchemaCompilers } = await import(${JSON.stringify(module)});
      const ajvLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/ajv/'));
      const plain = Fastify({ schemaController: lazySchemaCompilers });
      plain.post('/plain', async (request) => ({ got: request.body }));
      const answer = await plain.inject({ method: 'POST', url: '/plain', payload: { a: 1 } });
      const before = ajvLoaded();
      const typed = Fastify({ schemaController: lazySchemaCompilers });
      typed.post('/typed', { schema: { body: { type: 'object', required: ['a'] } } }, async () => ({ ok: true }));
      const refused = await typed.inject({ method: 'POST', url: '/typed', payload: { b: 1 } });
      const accepted = await typed.inject({ method: 'POST', url: '/typed', payload: { a: 1 } });
      console.log(JSON.stringify({ plain: answer.json(), before, after: ajvLoaded(), refused: refused.statusCode, accepted: accepted.statusCode }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: process.cwd(),
    });
    expect(JSON.parse(stdout)).toEqual({
      plain: { got: { a: 1 } },
      before: false,
      after: true,
      refused: 400,
      accepted: 200,
    });
  });
});
