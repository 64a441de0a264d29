/**
 * `subtitles/` (docs/publication-v1.md): WebVTT of one record's transcription in one language, optionally only
 * the tc_in..tc_out window re-based to 0. Errors are plain text with HTTP 200, as upstream.
 * Decision (docs/publication-v1.md): the subtitle URLs the other actions give carry no `code`, so a request
 * without `code` is served (the text is public through v2 anyway); a wrong `code` is refused.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestContext } from '../http/request-context.js';
import { durationOf, findMediaAsset } from '../services/av-media.js';
import { requireTranscriptionColumn } from '../services/av-service.js';
import { maskText, restrictedTags } from './restricted.js';
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
        const table = (await ctx.schemas.get(db)).tables.get(ctx.config.av.table);
        if (!table) return send(reply, `Error on build_subtitles. Record not found: ${id}`, VTT);
        const column = requireTranscriptionColumn(ctx, table);
        const where = [{ column: 'section_id', op: 'eq' as const, value: id }];
        if (table.hasLang) where.push({ column: 'lang', op: 'eq' as const, value: lang } as never);
        const [row] = await ctx.driver.select(db, {
          table: table.name,
          columns: table.columns.map((c) => c.name),
          where,
          orderBy: [],
          limit: 1,
        });
        if (!row) return send(reply, `Error on build_subtitles. Record not found: ${id}`, VTT);
        const asset = await findMediaAsset(ctx, db, row, id);
        const call = { ctx, v1, db, lang, options: {}, log: request.log };
        const restricted = (await restrictedTags(call, lang)).get(String(id)) ?? [];
        const text = maskText(
          typeof row[column] === 'string' ? (row[column] as string) : '',
          restricted,
        ).text;
        const vtt = buildWebVtt(text, {
          duration: durationOf(asset, row),
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
