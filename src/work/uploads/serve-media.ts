/**
 * `GET {WORK_BASE_PATH}/media/<section_tipo>/<section_id>/<tipo>/<file_name>`: the file attached
 * to a media component (dd_utils_api.attach_uploaded_file), for the web client to show an image
 * or play a recording. The session cookie (its Path is the base path, so the browser sends it
 * here) and the same checks as a read: read level on (section, component), the record in the
 * caller's projects, and only the file the component holds now. Images, audio and video are sent
 * inline; anything else as a download; every answer is sandboxed (no script can run from it).
 * A byte range (`Range: bytes=...`) is answered 206 with that part, so a player can seek.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Clock } from '../auth/clock.js';
import type { PermissionsEngine } from '../auth/permissions.js';
import { readCookie, SESSION_COOKIE } from '../auth/session-cookie.js';
import { resolveSession } from '../auth/sessions.js';
import { componentSpec } from '../components/component-values.js';
import type { ErrorCode } from '../dispatch/error-registry.js';
import type { OntologyProvider } from '../ontology/ontology-store.js';
import { rowInScope } from '../read/page-builder.js';
import { mediaPathOf } from '../records/attach-media.js';
import { checkedTable, componentItems, readRecord } from '../store/record-rows.js';
import type { SqlClient } from '../store/sql-client.js';
import { parseByteRange } from './byte-range.js';

/** Types shown in the page; everything else is offered as a download. */
const INLINE_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.ogv': 'video/ogg',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.wav': 'audio/wav',
  '.flac': 'audio/flac',
};

export interface MediaRouteDeps {
  basePath: string;
  dataDir: string;
  db: SqlClient;
  ontology: OntologyProvider;
  permissions: PermissionsEngine;
  clock: Clock;
  refuse: (reply: FastifyReply, code: ErrorCode, message?: string) => FastifyReply;
}

export function registerMediaRoute(app: FastifyInstance, deps: MediaRouteDeps): void {
  const mediaRoot = resolve(deps.dataDir, 'media');
  app.get<{ Params: { sectionTipo: string; sectionId: string; tipo: string; name: string } }>(
    `${deps.basePath}/media/:sectionTipo/:sectionId/:tipo/:name`,
    async (request, reply) => {
      const { sectionTipo, sectionId, tipo, name } = request.params;
      const { session, ontologyVersion } = await resolveSession(
        deps.db,
        readCookie(request.headers.cookie, SESSION_COOKIE),
        deps.clock(),
      );
      if (!session) return deps.refuse(reply, 'auth.not_logged');
      const ontology = await deps.ontology.at(ontologyVersion);
      const node = ontology.node(tipo);
      const table = ontology.tableOf(sectionTipo);
      if (
        !node ||
        !table ||
        !/^[1-9]\d{0,9}$/.test(sectionId) ||
        ontology.sectionOf(tipo)?.tipo !== sectionTipo ||
        componentSpec(ontology, node).kind !== 'media'
      ) {
        return deps.refuse(reply, 'http.not_found', 'No media file at this address');
      }
      const access = await deps.permissions.requestScope(ontology).forUser(session.userId);
      if (!access.can('read', sectionTipo, tipo)) return deps.refuse(reply, 'perm.denied');
      const key = { section_tipo: sectionTipo, section_id: Number(sectionId) };
      const row = await readRecord(deps.db, checkedTable(table), key);
      if (!row) return deps.refuse(reply, 'resource.not_found');
      if (!rowInScope(ontology, access, row)) return deps.refuse(reply, 'perm.out_of_scope');
      // Only the file the component holds now (the parameters were decoded once by the router).
      const held = componentItems(row, 'media', tipo).some(
        (i) => (i as { value?: { name?: unknown } }).value?.name === name,
      );
      const path = resolve(mediaRoot, mediaPathOf(key, tipo, name));
      if (!held || !path.startsWith(mediaRoot + sep)) {
        return deps.refuse(reply, 'http.not_found', 'This component holds no such file');
      }
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) return deps.refuse(reply, 'http.not_found', 'The file is missing on the server');
      const inline = INLINE_TYPES[extname(name).toLowerCase()];
      const range = parseByteRange(request.headers.range, info.size);
      if (range === 'unsatisfiable') {
        return reply
          .code(416)
          .header('Content-Range', `bytes */${info.size}`)
          .header('Accept-Ranges', 'bytes')
          .send();
      }
      if (range) {
        reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
      }
      return reply
        .type(inline ?? 'application/octet-stream')
        .header('Accept-Ranges', 'bytes')
        .header('Content-Length', String(range ? range.end - range.start + 1 : info.size))
        .header('Cache-Control', 'private, no-cache')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header(
          'Content-Disposition',
          `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .send(
          range ? createReadStream(path, { start: range.start, end: range.end }) : createReadStream(path),
        );
    },
  );
}
