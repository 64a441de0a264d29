/**
 * The REST door of a read operation: a GET route on the operation's path that hands it the
 * path parameters and the query string, then sends its answer with the API's caching contract
 * (sendJson: ETag, 304, Cache-Control) and the headers the answer implies (Content-Language,
 * Link to the neighbouring pages). Every data route is one of these.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { paginationLinks } from '../http/link-header.js';
import { requestContext } from '../http/request-context.js';
import { queryOf } from '../http/request-input.js';
import { sendJson } from '../http/send-json.js';
import type { Envelope, Operation, OperationAnswer } from '../operations/operation.js';

export function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: OperationAnswer<Envelope | undefined>,
  maxAge: number,
): FastifyReply {
  if (answer.status !== undefined) reply.code(answer.status);
  if (answer.body === undefined) return reply.send();
  if (answer.language) reply.header('Content-Language', answer.language);
  if (answer.page) {
    const { offset, limit, hasMore } = answer.page;
    const link = paginationLinks(request.url, offset, limit, hasMore);
    if (link) reply.header('Link', link);
  }
  return sendJson(request, reply, answer.body, { maxAge, cacheable: answer.cacheable });
}

export function serveOperation(app: FastifyInstance, operation: Operation<Envelope | undefined>): void {
  const { ctx } = app;
  const maxAge = ctx.config.cacheMaxAge;
  app.get(operation.path, async (request, reply) => {
    const answer = await operation.run(requestContext(request), {
      params: request.params as Record<string, string>,
      query: () => queryOf(request),
    });
    return sendAnswer(request, reply, answer, maxAge);
  });
}
