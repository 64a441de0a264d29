/**
 * The publication API's answer to refusals raised before routing (see common/client-errors.ts):
 * the same problem+json as every other refusal, with an `errors` entry naming what to fix. There
 * is no parsed request yet, so the problem has no `instance`, and the log line is at info level:
 * a client's mistake, not a fault of ours.
 */
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { answerClientError, type ClientErrorCase } from '../../common/client-errors.js';
import { type ParameterProblem, ProblemError, type ProblemKind, toProblem } from '../problems.js';

const AS_PROBLEM: Record<ClientErrorCase['kind'], [ProblemKind, Pick<ParameterProblem, 'name' | 'in'>]> = {
  'headers-too-large': ['headers-too-large', { name: 'headers', in: 'header' }],
  'request-timeout': ['request-timeout', { name: 'request', in: 'header' }],
  'malformed-request': ['bad-request', { name: 'request-line', in: 'path' }],
};

/** Fastify's `clientErrorHandler` option; Fastify calls it with the instance as `this`. */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex): void {
  answerClientError(
    err,
    socket,
    (refusal) => {
      const [kind, culprit] = AS_PROBLEM[refusal.kind];
      const problem = new ProblemError(kind, refusal.detail, [{ ...culprit, detail: refusal.detail }]);
      const { instance: _none, ...body } = toProblem(problem, '');
      return { contentType: 'application/problem+json; charset=utf-8', body: JSON.stringify(body) };
    },
    (refusal, e) => this.log.info({ code: e.code, status: refusal.status }, 'client error before routing'),
  );
}
