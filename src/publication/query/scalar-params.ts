/**
 * Readers for single-valued query parameters (integers, booleans, language codes), each throwing
 * a ValidationError that names the parameter and says what would be accepted.
 */
import { invalidQuery } from '../problems.js';
import { LANG_PATTERN } from './bounds.js';
import type { QueryParams } from './query-string.js';

/** The one value of `name`, or undefined; giving a parameter twice is an error. */
export function singleParam(params: QueryParams, name: string): string | undefined {
  const values = params.get(name);
  if (!values) return undefined;
  if (values.length > 1) throw invalidQuery(name, `${name} is given ${values.length} times; give it once`);
  return values[0];
}

export function parseIntegerParam(
  name: string,
  raw: string | undefined,
  bounds: { min: number; max: number; default?: number },
): number | undefined {
  if (raw === undefined) return bounds.default;
  if (!/^\d{1,16}$/.test(raw)) {
    throw invalidQuery(
      name,
      `${name} must be a whole number from ${bounds.min} to ${bounds.max}, got "${clip(raw)}"`,
    );
  }
  const n = Number(raw);
  if (n < bounds.min || n > bounds.max) {
    throw invalidQuery(name, `${name} must be from ${bounds.min} to ${bounds.max}, got ${raw}`);
  }
  return n;
}

export function parseBooleanParam(name: string, raw: string | undefined): boolean {
  if (raw === undefined) return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw invalidQuery(name, `${name} must be true, 1, false or 0, got "${clip(raw)}"`);
}

export function parseLangParam(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!LANG_PATTERN.test(raw)) {
    throw invalidQuery(
      'lang',
      `lang must look like lg-eng (lg- and 2 to 5 lowercase letters), got "${clip(raw)}"`,
    );
  }
  return raw;
}

/** Shortens client input quoted back in messages. */
export function clip(value: string, max = 60): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
