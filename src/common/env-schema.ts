/**
 * Zod helpers for environment variables. Every variable is a string or absent; an empty string
 * is treated as a mistake (never as 0 or false) unless a variable explicitly allows it.
 */
import { z } from 'zod';
import { ConfigError } from './config-error.js';

const nonEmpty = (name: string) =>
  z.string().refine((v) => v.trim() !== '', { message: `${name} is set but empty` });

export function intVar(name: string, def: number, min: number, max: number) {
  return nonEmpty(name)
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return def;
      const t = v.trim();
      if (!/^-?\d+$/.test(t)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be an integer, got "${v}"` });
        return z.NEVER;
      }
      const n = Number(t);
      if (n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be between ${min} and ${max}, got ${n}` });
        return z.NEVER;
      }
      return n;
    });
}

export function boolVar(name: string, def: boolean) {
  return nonEmpty(name)
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return def;
      const t = v.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(t)) return true;
      if (['false', '0', 'no', 'off'].includes(t)) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false, got "${v}"` });
      return z.NEVER;
    });
}

export function stringVar(name: string) {
  return nonEmpty(name)
    .optional()
    .transform((v) => v?.trim());
}

export function stringVarOr(name: string, def: string) {
  return nonEmpty(name)
    .optional()
    .transform((v) => v?.trim() ?? def);
}

/** Comma-separated list; surrounding spaces ignored; empty items rejected. */
export function listVar(name: string) {
  return nonEmpty(name)
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const items = v.split(',').map((s) => s.trim());
      if (items.some((s) => s === '')) {
        ctx.addIssue({ code: 'custom', message: `${name} has an empty item in "${v}"` });
        return z.NEVER;
      }
      return items;
    });
}

export function enumVar<T extends string>(name: string, values: readonly T[]) {
  return nonEmpty(name)
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const t = v.trim().toLowerCase() as T;
      if (!values.includes(t)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be one of ${values.join(', ')}, got "${v}"` });
        return z.NEVER;
      }
      return t;
    });
}

/** Parses `env` with `schema`, turning every issue into one line of a ConfigError. */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.output<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((i) => (i.code === 'custom' ? i.message : `${i.path.join('.')}: ${i.message}`)),
    );
  }
  return result.data;
}
