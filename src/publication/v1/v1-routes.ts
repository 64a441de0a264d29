/**
 * The v1 doors under V1_BASE_PATH: `json/{action}` (and `json/`, `json/index.php` with
 * `dedalo_get`), any method. The request passes the same edge as v2 (rate limit, statement
 * budget, deadline); then the parameters are read in the three v1 ways (intake.ts), the shared
 * `code` is checked in constant time, the database and language are chosen, and the action runs
 * through `dispatch`. Every answer is HTTP 200 JSON, computed whole before a byte is sent.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { matchesAnySecret } from '../../common/constant-time.js';
import { jsonBytes } from '../http/json-bytes.js';
import { requestContext } from '../http/request-context.js';
import { buildOptions, fieldsOf, type V1Intake } from './intake.js';
import { subtitlesRoutes } from './subtitles-route.js';
import type { V1Config } from './v1-config.js';
import { LANG_PATTERN } from './v1-config.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * The actions (and the SQL parser behind `sql_filter`, about 5 MB of RSS) are loaded by the first
 * v1 request, not at start: most servers never get one.
 */
let actions: Promise<typeof import('./dispatch.js')> | undefined;
const loadActions = () => {
  actions ??= import('./dispatch.js');
  return actions;
};

/** The raw body as text (every content type), so the v1 intake decides how to read it. */
function installRawBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
}

function intakeOf(request: FastifyRequest, action: string | undefined): V1Intake & { action?: string } {
  const url = request.url;
  const q = url.indexOf('?');
  const fields = fieldsOf(new URLSearchParams(q === -1 ? '' : url.slice(q + 1)));
  const raw = typeof request.body === 'string' ? request.body : '';
  let json: unknown;
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  if (raw !== '') {
    if (type.startsWith(FORM)) Object.assign(fields, fieldsOf(new URLSearchParams(raw)));
    else {
      try {
        json = JSON.parse(raw);
      } catch {
        json = undefined;
      }
    }
  }
  const name = action ?? (typeof fields.dedalo_get === 'string' ? fields.dedalo_get : undefined);
  return { ...buildOptions(fields, json, name ?? ''), action: name };
}

/** The auth failure body: a bare JSON string, as upstream (docs/publication-v1.md). */
export function checkCode(v1: V1Config, code: string | undefined): string | undefined {
  if (code === undefined || code === '') return 'Error. Empty user code';
  if (!matchesAnySecret(code, [v1.code])) return `Error. Invalid user code '${code}' ${v1.entity}`;
  return undefined;
}

/** The database of the request: `db_name` from the published list, else the default. */
export function chooseDb(
  request: FastifyRequest,
  v1: V1Config,
  dbName: string | undefined,
): string | { error: string } {
  const published = request.server.ctx.config.dbNames;
  if (dbName !== undefined && dbName !== '') {
    return published.includes(dbName) ? dbName : { error: `Error. Illegal database name: ${dbName}` };
  }
  const db = v1.defaultDb ?? published[0];
  return db ?? { error: 'Error. No database is published' };
}

function sendV1(
  reply: FastifyReply,
  body: unknown,
  contentType = 'application/json; charset=utf-8',
): FastifyReply {
  reply.header('Access-Control-Allow-Origin', '*');
  reply.header('Access-Control-Allow-Headers', 'Content-Type');
  reply.header('Cache-Control', 'no-store');
  reply.type(contentType);
  return reply
    .code(200)
    .send(typeof body === 'string' && contentType.startsWith('text/') ? body : jsonBytes(body));
}

export async function v1Routes(app: FastifyInstance): Promise<void> {
  const v1 = app.ctx.config.v1;
  if (!v1) return;
  installRawBody(app);

  const handle = async (request: FastifyRequest, reply: FastifyReply, action: string | undefined) => {
    const intake = intakeOf(request, action);
    const refusal = checkCode(v1, intake.code);
    if (refusal !== undefined) return sendV1(reply, refusal);
    if (!intake.action) return sendV1(reply, null);
    const db = chooseDb(request, v1, intake.dbName);
    if (typeof db !== 'string') return sendV1(reply, { result: false, msg: db.error });
    if (intake.lang !== undefined && intake.lang !== '' && !LANG_PATTERN.test(intake.lang)) {
      return sendV1(reply, { result: false, msg: `Error. Illegal lang: ${intake.lang}` });
    }
    const call = {
      ctx: requestContext(request),
      v1,
      db,
      lang: intake.lang || v1.defaultLang,
      options: intake.options,
      log: request.log,
    };
    const { dispatch } = await loadActions();
    return sendV1(reply, await dispatch(call, intake.action));
  };

  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
  app.route({
    method: [...methods],
    url: '/json/:action',
    handler: (request, reply) => {
      const { action } = request.params as { action: string };
      return handle(request, reply, action === 'index.php' ? undefined : action);
    },
  });
  app.route({
    method: [...methods],
    url: '/json/',
    handler: (request, reply) => handle(request, reply, undefined),
  });
  await app.register(subtitlesRoutes(v1, sendV1, checkCode, chooseDb));
}
