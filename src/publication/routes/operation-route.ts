/**
 * The REST door of a read operation: a GET route on the operation's path that hands it the
 * path parameters and the query string, then sends its answer with the API's caching contract
 * (sendJson: ETag, 304, Cache-Control) and the headers the answer implies (Content-Language,
 * Link to the neighbouring pages). Every data route is one of these.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RequestDriver, StatementBudget } from '../db/statement-budget.js';
import { exportStream } from '../http/export-stream.js';
import { paginationLinks } from '../http/link-header.js';
import { requestContext } from '../http/request-context.js';
import { queryOf } from '../http/request-input.js';
import { sendJson } from '../http/send-json.js';
import { appendVary } from '../http/vary.js';
import type { ExportOperation } from '../operations/exports.js';
import type { Envelope, Operation, OperationAnswer } from '../operations/operation.js';
import { EXPORT_MEDIA_TYPES, takeExportRequest } from '../query/export-request.js';
import type { QueryParams } from '../query/query-string.js';
import type { PublicationContext } from '../services/context.js';

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
    const answer = await operation.run(requestContext(request, { rowsAsJson: true }), {
      params: request.params as Record<string, string>,
      query: () => queryOf(request),
    });
    return sendAnswer(request, reply, answer, maxAge);
  });
}

/**
 * A list operation's door: the JSON page as serveOperation serves it, or, when the request asks
 * for CSV or NDJSON (`format=` or Accept), the export of the same selection, streamed. The
 * answer depends on Accept, so it is listed in Vary.
 */
export function serveListOperation(
  app: FastifyInstance,
  operation: Operation<Envelope | undefined>,
  exporter: ExportOperation,
): void {
  const { ctx } = app;
  const maxAge = ctx.config.cacheMaxAge;
  app.get(operation.path, async (request, reply) => {
    appendVary(reply, 'Accept');
    const params = request.params as Record<string, string>;
    let query: QueryParams | undefined;
    try {
      query = queryOf(request);
    } catch {
      // A malformed query string: the operation reports it where it always did.
    }
    const wanted = query && takeExportRequest(query, request.headers.accept);
    if (!query || !wanted) {
      const answer = await operation.run(requestContext(request, { rowsAsJson: true }), {
        params,
        query: () => query ?? queryOf(request),
      });
      return sendAnswer(request, reply, answer, maxAge);
    }
    const chunkContext = (): PublicationContext => ({
      ...ctx,
      driver: new RequestDriver(
        ctx.driver,
        StatementBudget.forRequest(ctx.config.requestTimeoutMs, ctx.config.requestMaxStatements),
      ),
    });
    const source = await exporter.open(chunkContext, { params, query: () => query }, wanted);
    const body = await exportStream(source, wanted.format, { bom: wanted.bom });
    const table = params.table ?? 'export';
    reply
      .type(EXPORT_MEDIA_TYPES[wanted.format])
      .header(
        'Content-Disposition',
        `attachment; filename="${table}.${wanted.format === 'csv' ? 'csv' : 'ndjson'}"`,
      )
      .header('Cache-Control', `public, max-age=${maxAge}`);
    // Without a limit the export is the whole selection up to this bound; say which bound.
    if (!wanted.explicitLimit) reply.header('X-Export-Max-Rows', String(ctx.config.exportMaxRows));
    return reply.send(body);
  });
}
