/**
 * Response compression, done by the edge's onSend hook rather than by @fastify/compress (whose
 * own onSend ran on every reply and piped every compressed body through a stream): only a body
 * already in memory, of a compressible type, of at least COMPRESS_THRESHOLD bytes, is
 * compressed, and only for a client whose Accept-Encoding asks for br, gzip or deflate. Such
 * bodies always carry `Vary: Accept-Encoding`, asked or not, so a shared cache never hands a
 * compressed copy to a client that cannot read it (or the reverse). Smaller bodies gain
 * nothing worth a compression call.
 */
import { brotliCompress, constants, deflate, gzip } from 'node:zlib';

/** Below this, compressing costs more than the bytes it saves. */
export const COMPRESS_THRESHOLD = 1024;

export type Encoding = 'br' | 'gzip' | 'deflate';

/** Server preference when the client weighs encodings equally. */
const PREFERENCE: readonly Encoding[] = ['br', 'gzip', 'deflate'];

const COMPRESSIBLE = /json|^text\/|javascript|yaml|xml|svg/i;

/** Quality 4 keeps brotli cheaper than gzip -6 while still smaller on JSON. */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

/** The byte length of a body worth compressing, or undefined when it is not one. */
export function compressibleLength(payload: unknown, contentType: unknown): number | undefined {
  let length: number;
  if (typeof payload === 'string') {
    // A UTF-8 string has at least as many bytes as UTF-16 units and at most three per unit.
    if (payload.length * 3 < COMPRESS_THRESHOLD) return undefined;
    length = payload.length >= COMPRESS_THRESHOLD ? payload.length : Buffer.byteLength(payload);
  } else if (Buffer.isBuffer(payload)) {
    length = payload.length;
  } else {
    return undefined;
  }
  if (length < COMPRESS_THRESHOLD) return undefined;
  return typeof contentType === 'string' && COMPRESSIBLE.test(contentType) ? length : undefined;
}

// Clients send a handful of distinct Accept-Encoding values; remember the answer for each.
const negotiated = new Map<string, Encoding | undefined>();
const NEGOTIATED_MAX = 64;

/** RFC 9110 content negotiation over Accept-Encoding: the best-weighted encoding we offer. */
export function negotiateEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined || header === '') return undefined;
  if (negotiated.has(header)) return negotiated.get(header);
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim());
    if (name === '') continue;
    let q = 1;
    for (const p of params) {
      const m = /^q=([0-9.]+)$/.exec(p);
      if (m) q = Number(m[1]);
    }
    weights.set(name, Number.isFinite(q) ? q : 0);
  }
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const encoding of PREFERENCE) {
    const q = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (q > bestQ) {
      best = encoding;
      bestQ = q;
    }
  }
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(header, best);
  return best;
}

/** Compresses `payload` with `encoding` off the main thread (zlib's thread pool). */
export function compress(
  payload: string | Buffer,
  encoding: Encoding,
  done: (err: Error | null, body?: Buffer) => void,
): void {
  const input = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  if (encoding === 'br') brotliCompress(input, BROTLI, done);
  else if (encoding === 'gzip') gzip(input, done);
  else deflate(input, done);
}
