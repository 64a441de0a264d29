/**
 * Fastify's schema compilers (Ajv for validating, fast-json-stringify for serialising), loaded
 * only when a route declares a schema. The servers' routes validate their input with their own
 * parsers and send JSON they build, so no route has a Fastify schema; without this option
 * Fastify loads Ajv and its ~90 modules at start anyway, for nothing (about 2 MB of an idle
 * publication server's resident memory).
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

/** Resolved from Fastify's own folder: they are its dependencies, not ours. */
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

type Factory = (...args: unknown[]) => unknown;
const lazily =
  (name: string): Factory =>
  (...args) =>
    (fromFastify(name) as () => Factory)()(...args);

export const lazySchemaCompilers = {
  compilersFactory: {
    buildValidator: lazily('@fastify/ajv-compiler'),
    buildSerializer: lazily('@fastify/fast-json-stringify-compiler'),
  },
} as unknown as NonNullable<FastifyServerOptions['schemaController']>;
