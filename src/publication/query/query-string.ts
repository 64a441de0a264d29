/**
 * Parses a raw query string into repeated-key lists, strictly: malformed percent-encoding is a
 * 400 naming the parameter, not a silently mangled value. `+` means space, as in HTML forms.
 * The validators of query/ read this map whatever door the request came through (REST, batch,
 * MCP), so it lives here rather than at the HTTP edge.
 */
import { invalidQuery } from '../problems.js';

export type QueryParams = Map<string, string[]>;

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    throw invalidQuery(what, `malformed percent-encoding in query string near "${part.slice(0, 60)}"`);
  }
}

export function parseQueryString(raw: string): QueryParams {
  const params: QueryParams = new Map();
  if (raw === '') return params;
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const key = decode(rawKey, rawKey);
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1), key);
    const list = params.get(key);
    if (list) list.push(value);
    else params.set(key, [value]);
  }
  return params;
}
