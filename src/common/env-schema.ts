/**
 * Readers of environment variables. Every variable is a string or absent; an empty string is
 * treated as a mistake (never as 0 or false) unless a variable explicitly allows it. A
 * configuration is a plain object of readers (`{ PORT: intVar(...), ... }`) read by parseEnv,
 * which lists every problem at once.
 *
 * Plain functions rather than a schema library: the servers read their environment once at
 * start, and zod alone kept about 3 MB of heap (6 MB of RSS) in every publication server for
 * that one moment (docs/benchmarks.md).
 */
import { ConfigError } from './config-error.js';

/** One variable: its value from the raw text (undefined when unset); problems are pushed. */
export interface EnvVar<T> {
  read(raw: string | undefined, problems: string[]): T;
}

export type EnvShape = Record<string, EnvVar<unknown>>;
export type EnvValues<S extends EnvShape> = { [K in keyof S]: S[K] extends EnvVar<infer T> ? T : never };

/**
 * A variable that must not be set to an empty (or blank) value: `convert` gets the raw text, or
 * undefined when unset, and returns the value or pushes a problem.
 */
function nonEmptyVar<T>(
  name: string,
  convert: (raw: string | undefined, problems: string[]) => T,
): EnvVar<T | undefined> {
  return {
    read(raw, problems) {
      if (raw !== undefined && raw.trim() === '') {
        problems.push(`${name} is set but empty`);
        return undefined;
      }
      return convert(raw, problems);
    },
  };
}

export function intVar(name: string, def: number, min: number, max: number): EnvVar<number> {
  return nonEmptyVar(name, (v, problems) => {
    if (v === undefined) return def;
    const t = v.trim();
    if (!/^-?\d+$/.test(t)) {
      problems.push(`${name} must be an integer, got "${v}"`);
      return def;
    }
    const n = Number(t);
    if (n < min || n > max) {
      problems.push(`${name} must be between ${min} and ${max}, got ${n}`);
      return def;
    }
    return n;
  }) as EnvVar<number>;
}

export function boolVar(name: string, def: boolean): EnvVar<boolean> {
  return nonEmptyVar(name, (v, problems) => {
    if (v === undefined) return def;
    const t = v.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(t)) return true;
    if (['false', '0', 'no', 'off'].includes(t)) return false;
    problems.push(`${name} must be true or false, got "${v}"`);
    return def;
  }) as EnvVar<boolean>;
}

export function stringVar(name: string): EnvVar<string | undefined> {
  return nonEmptyVar(name, (v) => v?.trim());
}

export function stringVarOr(name: string, def: string): EnvVar<string> {
  return nonEmptyVar(name, (v) => v?.trim() ?? def) as EnvVar<string>;
}

/** A variable taken as it is, untrimmed, and which may be empty (a password). */
export function rawVar(): EnvVar<string | undefined> {
  return { read: (raw) => raw };
}

/** Comma-separated list; surrounding spaces ignored; empty items rejected. */
export function listVar(name: string): EnvVar<string[] | undefined> {
  return nonEmptyVar(name, (v, problems) => {
    if (v === undefined) return undefined;
    const items = v.split(',').map((s) => s.trim());
    if (items.some((s) => s === '')) {
      problems.push(`${name} has an empty item in "${v}"`);
      return undefined;
    }
    return items;
  });
}

export function enumVar<T extends string>(name: string, values: readonly T[]): EnvVar<T | undefined> {
  return nonEmptyVar(name, (v, problems) => {
    if (v === undefined) return undefined;
    const t = v.trim().toLowerCase() as T;
    if (!values.includes(t)) {
      problems.push(`${name} must be one of ${values.join(', ')}, got "${v}"`);
      return undefined;
    }
    return t;
  });
}

/** Reads `env` with every reader of `shape`, turning the problems into one ConfigError. */
export function parseEnv<S extends EnvShape>(
  shape: S,
  env: Record<string, string | undefined>,
): EnvValues<S> {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [key, reader] of Object.entries(shape)) values[key] = reader.read(env[key], problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return values as EnvValues<S>;
}
