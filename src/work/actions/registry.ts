/**
 * Every callable action, by API class. Adding an action means adding it here; nothing else is
 * reachable from a request.
 */
import { type ActionRegistry, buildActionRegistry } from '../dispatch/action-registry.js';
import { startAction } from './core/start.js';
import { changeLangAction } from './utils/change-lang.js';
import { getSystemInfoAction } from './utils/get-system-info.js';
import { loginAction, quitAction } from './utils/login.js';
import { joinChunkedFilesUploadedAction, listUploadedFilesAction } from './utils/upload-actions.js';

export function workActions(): ActionRegistry {
  return buildActionRegistry({
    dd_core_api: { start: startAction },
    dd_utils_api: {
      login: loginAction,
      quit: quitAction,
      change_lang: changeLangAction,
      get_system_info: getSystemInfoAction,
      list_uploaded_files: listUploadedFilesAction,
      join_chunked_files_uploaded: joinChunkedFilesUploadedAction,
    },
    dd_area_maintenance_api: {},
  });
}
