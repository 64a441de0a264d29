/**
 * Sends bytes no HTTP client library would send (oversized header blocks, raw non-ASCII bytes in
 * the request line, garbage) over a plain TCP socket and parses whatever answer comes back, so
 * tests can see what the server says before any routing happens.
 */
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience for asserting on arbitrary JSON
  json: any;
}

/** Writes `bytes` to host:port of `url` and reads until the server closes the connection. */
export function sendRaw(url: string, bytes: Buffer | string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = text.slice(split + 4);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, json });
    });
    socket.write(bytes);
  });
}

/** A GET whose header block is far over Node's 16 KiB default. */
export function oversizedHeaderRequest(path: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(40_000)}\r\n\r\n`;
}

/** A GET whose request line carries the raw bytes 0x80-0xff (not percent-encoded). */
export function rawBytesRequest(path: string): Buffer {
  const high = Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i));
  return Buffer.concat([
    Buffer.from(`GET ${path}`),
    high,
    Buffer.from(' HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
  ]);
}
