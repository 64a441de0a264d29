/**
 * The metrics variables of both servers (METRICS_PATH / METRICS_TOKEN for the publication API,
 * WORK_METRICS_PATH / WORK_METRICS_TOKEN for the work API), validated the same way: the path is
 * a plain absolute path outside the API's public prefix, or empty to turn the endpoint off; the
 * token, when given, is long enough not to be guessed.
 */
import type { EnvVar } from './env-schema.js';

/** A bearer token shorter than this is refused at start (`openssl rand -hex 32` gives 64). */
export const METRICS_TOKEN_MIN_LENGTH = 16;

/** Unset: `def`; set but empty (or blank): undefined, the endpoint is off; otherwise the trimmed path. */
export function metricsPathVar(def: string): EnvVar<string | undefined> {
  return {
    read(v) {
      if (v === undefined) return def;
      const t = v.trim();
      return t === '' ? undefined : t;
    },
  };
}

/**
 * Checks a metrics path: absolute, plain characters, no trailing slash, and not inside one of the
 * public prefixes (`prefixes`: variable name and path; an empty path is the root and is skipped).
 */
export function metricsPathProblems(
  name: string,
  path: string | undefined,
  prefixes: readonly { name: string; path: string }[],
): string[] {
  if (path === undefined) return [];
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(path) || path.includes('//') || path === '/' || path.endsWith('/')) {
    return [`${name} must be a path like /metrics (or empty to turn metrics off), got "${path}"`];
  }
  const problems: string[] = [];
  for (const prefix of prefixes) {
    if (prefix.path === '' || prefix.path === '/') continue;
    if (path === prefix.path || path.startsWith(`${prefix.path}/`)) {
      problems.push(`${name} "${path}" must be outside ${prefix.name} "${prefix.path}"`);
    }
  }
  return problems;
}

export function metricsTokenProblems(name: string, token: string | undefined): string[] {
  if (token === undefined || token.length >= METRICS_TOKEN_MIN_LENGTH) return [];
  return [
    `${name} must have at least ${METRICS_TOKEN_MIN_LENGTH} characters (for example \`openssl rand -hex 32\`)`,
  ];
}
