/**
 * Small readers for the RQO fields actions use, each refusing a wrong type with the registered
 * 400 (`rqo.invalid_field`) and a message naming the field. Own properties only.
 */
import { WorkError } from '../dispatch/error-registry.js';
import type { Rqo } from '../dispatch/parse-rqo.js';

export type Fields = Record<string, unknown>;

const own = (object: Fields, name: string) => (Object.hasOwn(object, name) ? object[name] : undefined);

const isObject = (value: unknown): value is Fields =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A top-level object field of the RQO (`options`, `source`, ...); absent or null: `{}`. */
export function objectField(rqo: Rqo, name: string): Fields {
  const value = own(rqo.body, name);
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new WorkError('rqo.invalid_field', `${name} must be an object`);
  return value;
}

/** A nested object field; absent or null: undefined. */
export function optionalObject(object: Fields, name: string, path: string): Fields | undefined {
  const value = own(object, name);
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new WorkError('rqo.invalid_field', `${path} must be an object`);
  return value;
}

export function optionalString(
  object: Fields,
  name: string,
  path: string,
  maxLength = 256,
): string | undefined {
  const value = own(object, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > maxLength) {
    throw new WorkError('rqo.invalid_field', `${path} must be a string of at most ${maxLength} characters`);
  }
  return value;
}

export function requiredString(object: Fields, name: string, path: string, maxLength = 256): string {
  const value = optionalString(object, name, path, maxLength);
  if (value === undefined || value === '') throw new WorkError('rqo.invalid_field', `${path} is required`);
  return value;
}

export function optionalBoolean(object: Fields, name: string, path: string): boolean | undefined {
  const value = own(object, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new WorkError('rqo.invalid_field', `${path} must be a boolean`);
  return value;
}

/** The first of several alias names that is present (`t` or `tipo`, say). */
export function firstOf(
  object: Fields,
  names: readonly string[],
): [name: string, value: unknown] | undefined {
  for (const name of names) {
    const value = own(object, name);
    if (value !== undefined && value !== null) return [name, value];
  }
  return undefined;
}
