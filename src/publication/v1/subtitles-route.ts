/**
 * `subtitles/` (docs/publication-v1.md): WebVTT of one record's transcription in one language, optionally only
 * the tc_in..tc_out window re-based to 0. Errors are plain text with HTTP 200, as upstream.
 * Decision (docs/publication-v1.md): the subtitle URLs the other actions give carry no `code`, so a request
 * without `code` is served (the text is public through v2 anyway); a wrong `code` is refused.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestContext } from '../http/request-context.js';
import { loadAvRecord } from './actions/av-record.js';
import { avShapeOf } from './av-shape.js';
import { buildWebVtt } from './subtitles.js';
import type { V1Config } from './v1-config.js';

type Send = (reply: FastifyReply, body: unknown, contentType?: string) => FastifyReply;
type Check = (v1: V1Config, code: string | undefined) => string | undefined;
type ChooseDb = (
  request: FastifyRequest,
  v1: V1Config,
  dbName: string | undefined,
) => string | { error: string };

const VTT = 'text/vtt; charset=utf-8';

/** PHP's (int) cast of a query value: leading digits, fractions truncated, else absent. */
function intOf(value: string | null): number | undefined {
  if (value === null) return undefined;
  const m = /^\s*(\d+)/.exec(value);
  return m ? Number(m[1]) : undefined;
}

export function subtitlesRoutes(v1: V1Config, send: Send, checkCode: Check, chooseDb: ChooseDb) {
  return async (app: FastifyInstance) => {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const url = request.url;
      const q = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
      const code = q.get('code');
      if (code !== null) {
        const refusal = checkCode(v1, code);
        if (refusal !== undefined) return send(reply, JSON.stringify(refusal), VTT);
      }
      const id = intOf(q.get('section_id'));
      if (id === undefined || id <= 0)
        return send(reply, 'Error on build_subtitles. section_id is mandatory', VTT);
      const lang = q.get('lang') ?? v1.defaultLang;
      if (!/^lg-[a-z]{3}$/.test(lang)) return send(reply, 'Error: invalid lang', VTT);
      const db = chooseDb(request, v1, q.get('db_name') ?? undefined);
      if (typeof db !== 'string') return send(reply, db.error, VTT);
      const ctx = requestContext(request);
      try {
        const shape = await avShapeOf(ctx, db);
        if (!(await ctx.schemas.get(db)).tables.has(shape.table))
          return send(reply, `Error on build_subtitles. Record not found: ${id}`, VTT);
        const call = { ctx, v1, db, lang, options: {}, log: request.log };
        // The record as every v1 action reads it (av-record.ts): masked text and duration included.
        const record = await loadAvRecord(call, id, lang);
        if (!record) return send(reply, `Error on build_subtitles. Record not found: ${id}`, VTT);
        const text = record.text.stored;
        const vtt = buildWebVtt(text, {
          duration: record.duration,
          tcIn: intOf(q.get('tc_in')),
          tcOut: intOf(q.get('tc_out')),
        });
        return send(reply, vtt, VTT);
      } catch (err) {
        request.log.error({ err }, 'v1 subtitles failed');
        return send(reply, 'Error on build_subtitles. Check server log for details', VTT);
      }
    };
    app.get('/subtitles/', handler);
    app.get('/subtitles', handler);
  };
}
