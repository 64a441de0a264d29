/**
 * One byte range of a `Range: bytes=...` request header (RFC 9110 §14), for the media route: a
 * player seeks in a recording by asking for the bytes from that point on, and without ranges it
 * can only play from the start. `a-b`, `a-` and `-n` (the last n bytes); several ranges, other
 * units or a malformed header are answered with the whole file (the RFC allows ignoring Range);
 * a range that starts past the end is unsatisfiable (416).
 */
export type ByteRange = { start: number; end: number } | 'unsatisfiable' | undefined;

export function parseByteRange(header: string | undefined, size: number): ByteRange {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return undefined;
  return { start, end };
}
