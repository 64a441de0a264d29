/**
 * Refusals that Node's HTTP parser raises before any request exists (a header block over
 * --max-http-header-size, bytes that are not HTTP in the request line, a client too slow to send
 * its headers). Fastify answers them with its own `{"error","statusCode"}` JSON; each service
 * instead hands this module a function that renders the refusal in its own format, and this
 * module does the part they share: telling the cases apart and writing one complete response on
 * the raw socket, then closing it (the parser cannot continue after such an error).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** What went wrong, in the client's terms; the status follows from it. */
export type ClientErrorKind = 'headers-too-large' | 'request-timeout' | 'malformed-request';

export interface ClientErrorCase {
  kind: ClientErrorKind;
  status: 431 | 408 | 400;
  /** One sentence a client developer can act on. */
  detail: string;
}

export function classifyClientError(err: NodeJS.ErrnoException): ClientErrorCase {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return {
      kind: 'headers-too-large',
      status: 431,
      detail:
        'the request line and headers together are larger than this server accepts; send fewer or shorter headers, or a shorter URL',
    };
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      kind: 'request-timeout',
      status: 408,
      detail: 'the request did not arrive within the time this server waits for it',
    };
  }
  return {
    kind: 'malformed-request',
    status: 400,
    // Raw non-ASCII bytes in the request line land here: URLs must be percent-encoded.
    detail:
      'the request is not valid HTTP/1.1 (for example raw non-ASCII bytes in the request line: percent-encode them)',
  };
}

export interface RenderedRefusal {
  /** The service's own status for the refusal, when its format fixes one; else the case's. */
  status?: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/**
 * The `clientError` listener both services install: classify, render, write, close. A socket that
 * is already gone (the client reset it) or one whose response has started gets nothing written.
 */
export function answerClientError(
  err: NodeJS.ErrnoException,
  socket: Duplex,
  render: (refusal: ClientErrorCase) => RenderedRefusal,
  log: (refusal: ClientErrorCase, err: NodeJS.ErrnoException) => void,
): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal = classifyClientError(err);
  log(refusal, err);
  // Node's own handler checks the same: an earlier response on this socket may be mid-write.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const { status = refusal.status, contentType, body, headers = {} } = render(refusal);
    const lines = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      `Content-Type: ${contentType}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      'Connection: close',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    // end(), not destroy(): closing with unread request bytes would reset the connection and
    // the client could lose the answer. What still arrives is drained, and a client that never
    // closes its side is cut after a grace period.
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
    socket.resume();
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
    return;
  }
  socket.destroy();
}

const CLOSE_GRACE_MS = 2_000;
