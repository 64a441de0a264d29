/**
 * Every callable action, by API class. Adding an action means adding it here; nothing else is
 * reachable from a request.
 */
import { type ActionRegistry, buildActionRegistry } from '../dispatch/action-registry.js';
import {
  getImportAction,
  importRecordsAction,
  listImportsAction,
  undoImportAction,
} from './collections/import-actions.js';
import { countAction } from './core/count.js';
import { createAction } from './core/create.js';
import { deleteAction } from './core/delete.js';
import { getDeletedRecordsAction, restoreRecordAction } from './core/deleted-records.js';
import { duplicateAction } from './core/duplicate.js';
import { getElementContextAction } from './core/get-element-context.js';
import { getSectionElementsContextAction } from './core/get-section-elements-context.js';
import { readAction } from './core/read.js';
import { readRawAction } from './core/read-raw.js';
import { saveAction } from './core/save.js';
import { startAction } from './core/start.js';
import { diffuseAction } from './diffusion/diffuse.js';
import { getDiffusionInfoAction } from './diffusion/get-diffusion-info.js';
import { lockComponentsActionsAction } from './maintenance/lock-components-actions.js';
import { getWidgetValueAction, widgetRequestAction } from './maintenance/widget-actions.js';
import { exportOntologyAction, importOntologyAction } from './ontology/ontology-actions.js';
import { getIndexationsAction, setIndexationAction } from './text-area/indexation-actions.js';
import { getChildrenDataAction, getTermsAction, searchTermsAction } from './thesaurus/ts-actions.js';
import { attachUploadedFileAction } from './utils/attach-uploaded-file.js';
import { changeLangAction } from './utils/change-lang.js';
import { getSystemInfoAction } from './utils/get-system-info.js';
import { loginAction, quitAction } from './utils/login.js';
import { updateLockComponentsStateAction } from './utils/update-lock-components-state.js';
import { joinChunkedFilesUploadedAction, listUploadedFilesAction } from './utils/upload-actions.js';

export function workActions(): ActionRegistry {
  return buildActionRegistry({
    dd_core_api: {
      start: startAction,
      read: readAction,
      read_raw: readRawAction,
      count: countAction,
      create: createAction,
      duplicate: duplicateAction,
      delete: deleteAction,
      // web client: the deleted records of a section, and bringing one back
      get_deleted_records: getDeletedRecordsAction,
      restore_record: restoreRecordAction,
      save: saveAction,
      get_element_context: getElementContextAction,
      get_section_elements_context: getSectionElementsContextAction,
    },
    dd_utils_api: {
      login: loginAction,
      quit: quitAction,
      change_lang: changeLangAction,
      get_system_info: getSystemInfoAction,
      list_uploaded_files: listUploadedFilesAction,
      join_chunked_files_uploaded: joinChunkedFilesUploadedAction,
      // web client: makes an uploaded file the value of a media component
      attach_uploaded_file: attachUploadedFileAction,
      update_lock_components_state: updateLockComponentsStateAction,
    },
    dd_area_maintenance_api: {
      lock_components_actions: lockComponentsActionsAction,
      get_widget_value: getWidgetValueAction,
      widget_request: widgetRequestAction,
    },
    // global admins only: Dédalo ontologies in and out (docs/ontology.md)
    dd_ontology_api: {
      import_ontology: importOntologyAction,
      export_ontology: exportOntologyAction,
    },
    // collection files in (docs/import-export.md, "Importing"); each action checks its rights
    dd_import_api: {
      import_records: importRecordsAction,
      list_imports: listImportsAction,
      get_import: getImportAction,
      undo_import: undoImportAction,
    },
    // the thesaurus tree, read one level at a time (writes are create/save)
    dd_ts_api: {
      get_children_data: getChildrenDataAction,
      search_terms: searchTermsAction,
      get_terms: getTermsAction,
    },
    // indexing passages of a transcription (and whole records) with thesaurus terms
    dd_component_text_area_api: {
      set_indexation: setIndexationAction,
      get_indexations: getIndexationsAction,
    },
    dd_diffusion_api: {
      diffuse: diffuseAction,
      get_diffusion_info: getDiffusionInfoAction,
    },
  });
}
