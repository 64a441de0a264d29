/**
 * The work API's answer to refusals raised before routing (see common/client-errors.ts): the v2
 * envelope with a registered code, like every other refusal of this API, with a fresh request id
 * in the body and in X-Request-Id (there is no request yet to carry one). Logged at info level:
 * a client's mistake, not a fault of ours.
 */
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { answerClientError, type ClientErrorCase } from '../../common/client-errors.js';
import { errorEnvelope } from './envelope.js';
import type { ErrorCode } from './error-registry.js';

const CODES: Record<ClientErrorCase['kind'], ErrorCode> = {
  'headers-too-large': 'http.headers_too_large',
  'malformed-request': 'http.malformed_request',
  'request-timeout': 'http.request_timeout',
};

/** Fastify's `clientErrorHandler` option; Fastify calls it with the instance as `this`. */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex): void {
  const requestId = randomUUID();
  answerClientError(
    err,
    socket,
    (refusal) => {
      // The registry fixes the status by category, as for every other refusal of this API.
      const { status, body } = errorEnvelope(requestId, CODES[refusal.kind]);
      return {
        status,
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify(body),
        headers: { 'X-Request-Id': requestId },
      };
    },
    (refusal, e) =>
      this.log.info(
        { request_id: requestId, code: e.code, answer: CODES[refusal.kind] },
        'client error before routing',
      ),
  );
}
