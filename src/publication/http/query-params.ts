/**
 * The two parts of a request URL the edge reads: the path (for problem `instance`s, the method
 * guard, free routes) and the raw query string (handed to query/query-string.ts).
 */

/** The query string part of a request URL (without `?`). */
export function rawQueryOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

/** The path part of a request URL. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
