/**
 * `GET {WORK_BASE_PATH}/export/<section_tipo>.csv?format=dedalo|plain&lang=lg-xxx&sqo=<json>`:
 * a section's records as a CSV download for the web client (export-section.ts). The RQO
 * endpoint answers JSON only, so the file has its own route, authenticated like the media route:
 * the session cookie (its Path is the base path, so the browser sends it here). A GET changes
 * nothing, so it needs no CSRF token, and the answer is an attachment the page cannot read
 * cross-origin. Every refusal comes before the first byte, in the envelope with its registered
 * code; the body is piped as it is produced (flat memory whatever the size).
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Clock } from '../auth/clock.js';
import { PermissionDenied, type PermissionsEngine } from '../auth/permissions.js';
import { readCookie, SESSION_COOKIE } from '../auth/session-cookie.js';
import { resolveSession } from '../auth/sessions.js';
import { type ErrorCode, WorkError } from '../dispatch/error-registry.js';
import type { OntologyProvider } from '../ontology/ontology-store.js';
import type { SqlClient } from '../store/sql-client.js';
import { exportFileName, planExport, type SectionExportFormat, writeExport } from './export-section.js';

export interface ExportRouteDeps {
  basePath: string;
  db: SqlClient;
  ontology: OntologyProvider;
  permissions: PermissionsEngine;
  clock: Clock;
  refuse: (reply: FastifyReply, code: ErrorCode, message?: string) => FastifyReply;
}

const DENIED: Record<PermissionDenied['reason'], ErrorCode> = {
  level: 'perm.denied',
  inactive: 'perm.denied',
  global_admin: 'perm.global_admin_required',
  project_scope: 'perm.out_of_scope',
};

/** The default data language of a download (the client always sends its own). */
const DEFAULT_LANG = 'lg-eng';

export function registerExportRoute(app: FastifyInstance, deps: ExportRouteDeps): void {
  app.get<{
    Params: { file: string };
    Querystring: { format?: string | string[]; lang?: string | string[]; sqo?: string | string[] };
  }>(`${deps.basePath}/export/:file`, async (request, reply) => {
    const { session, ontologyVersion } = await resolveSession(
      deps.db,
      readCookie(request.headers.cookie, SESSION_COOKIE),
      deps.clock(),
    );
    if (!session) return deps.refuse(reply, 'auth.not_logged');
    const match = /^([a-z]{2,32}[0-9]{1,9})\.csv$/.exec(request.params.file);
    if (!match) return deps.refuse(reply, 'http.not_found', 'Exports are named <section_tipo>.csv');
    const one = (v: string | string[] | undefined) => (Array.isArray(v) ? undefined : v);
    const { format, lang, sqo } = request.query;
    if ([format, lang, sqo].some(Array.isArray)) {
      return deps.refuse(reply, 'rqo.invalid_field', 'format, lang and sqo may each be given once');
    }
    let sqoValue: unknown;
    try {
      sqoValue = one(sqo) === undefined ? undefined : JSON.parse(one(sqo)!);
    } catch {
      return deps.refuse(reply, 'search.invalid_sqo', 'sqo is not valid JSON');
    }
    const ontology = await deps.ontology.at(ontologyVersion);
    const access = await deps.permissions.requestScope(ontology).forUser(session.userId);
    let plan: ReturnType<typeof planExport>;
    try {
      plan = planExport(ontology, access, {
        sectionTipo: match[1]!,
        format: (one(format) ?? 'dedalo') as SectionExportFormat,
        lang: one(lang) ?? DEFAULT_LANG,
        sqo: sqoValue,
      });
    } catch (err) {
      if (err instanceof WorkError) return deps.refuse(reply, err.code, err.message);
      if (err instanceof PermissionDenied) return deps.refuse(reply, DENIED[err.reason]);
      throw err;
    }
    const body = new PassThrough();
    writeExport(deps.db, ontology, access, plan, body).catch((err: unknown) => {
      // The status line is gone: the client sees a cut transfer, never a shorter file.
      request.log.warn({ err }, 'export failed while streaming');
      body.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    return reply
      .type('text/csv; charset=utf-8')
      .header('Cache-Control', 'private, no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', `attachment; filename="${exportFileName(plan)}"`)
      .send(body);
  });
}
