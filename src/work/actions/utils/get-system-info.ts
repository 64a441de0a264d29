/**
 * `dd_utils_api.get_system_info`: what a client reads before an upload, import or media edit.
 * Every value comes from the configuration (or the session policy), never from the request.
 */
import { tmpdir } from 'node:os';
import { SESSION_IDLE_MS } from '../../auth/sessions.js';
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { UserStaging } from '../../uploads/staging.js';

/** Staged uploads: owner read/write/enter, group read/enter, nothing for others. */
export const UPLOAD_TMP_PERMS = 0o750;

/** Chunk size (MB) the client splits big uploads into; false would mean "never chunk". */
export const UPLOAD_CHUNK_MB = 5;

export const getSystemInfoAction: ActionDefinition = {
  needsSession: true,
  handle: async ({ config, session }) => ({
    data: {
      max_size_bytes: config.uploadMaxBytes,
      sys_get_temp_dir: tmpdir(),
      // Where this user's uploads are written before their atomic rename into place.
      upload_tmp_dir: new UserStaging(config.dataDir, session!.userId).tmpDir,
      upload_tmp_perms: UPLOAD_TMP_PERMS,
      // As PHP's session_cache_expire(): minutes; our idle expiry.
      session_cache_expire: SESSION_IDLE_MS / 60_000,
      upload_service_chunk_files: UPLOAD_CHUNK_MB,
      // No PDF text extraction engine is configured in this server.
      pdf_ocr_engine: false,
    },
  }),
};
