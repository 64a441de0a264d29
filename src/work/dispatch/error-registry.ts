/**
 * Every error code the work API answers with, in one closed registry: its category (which fixes
 * the HTTP status), the label key a client translates, whether retrying the same request can
 * succeed, and a default message. Code below the routes throws WorkError with a code from here;
 * the dispatcher turns it into the v2 envelope. A code that is not listed does not compile.
 */

export const ERROR_CATEGORIES = {
  validation: 400,
  auth: 401,
  permission: 403,
  not_found: 404,
  // Only the RQO endpoint asked with another method than POST (with Allow: POST).
  method_not_allowed: 405,
  // The client did not send its request in time (headers or body); retry on a new connection.
  request_timeout: 408,
  conflict: 409,
  // Only an RQO sent with another content type than application/json (UTF-8).
  unsupported_media_type: 415,
  rate_limit: 429,
  unavailable: 503,
  internal: 500,
} as const;

export type ErrorCategory = keyof typeof ERROR_CATEGORIES;

export interface ErrorEntry {
  category: ErrorCategory;
  label_key: string;
  retryable: boolean;
  message: string;
}

export const ERROR_REGISTRY = {
  'request.malformed_body': {
    category: 'validation',
    label_key: 'error_request_malformed_body',
    retryable: false,
    message: 'The request body is not valid JSON',
  },
  'request.invalid_rqo': {
    category: 'validation',
    label_key: 'error_request_invalid_rqo',
    retryable: false,
    message:
      'The request body is not an RQO: a JSON object with a string action (and a string dd_api when given)',
  },
  'request.unknown_api': {
    category: 'validation',
    label_key: 'error_request_unknown_api',
    retryable: false,
    message: 'Unknown dd_api',
  },
  'request.unknown_action': {
    category: 'validation',
    label_key: 'error_request_unknown_action',
    retryable: false,
    message: 'This action is not registered in this dd_api',
  },
  'http.body_too_large': {
    category: 'validation',
    label_key: 'error_http_body_too_large',
    retryable: false,
    message: 'The request body is too large',
  },
  // Refusals of the HTTP parser, before any request exists (there is no 431 category).
  'http.headers_too_large': {
    category: 'validation',
    label_key: 'error_http_headers_too_large',
    retryable: false,
    message: 'The request line and headers together are larger than this server accepts',
  },
  'http.malformed_request': {
    category: 'validation',
    label_key: 'error_http_malformed_request',
    retryable: false,
    message: 'The request is not valid HTTP/1.1 (raw non-ASCII bytes in the URL must be percent-encoded)',
  },
  'http.request_timeout': {
    category: 'request_timeout',
    label_key: 'error_http_request_timeout',
    retryable: true,
    message: 'The request did not arrive within the time this server waits for it',
  },
  'http.missing_host': {
    category: 'validation',
    label_key: 'error_http_missing_host',
    retryable: false,
    message: 'An HTTP/1.1 request must carry a Host header',
  },
  'http.unsupported_media_type': {
    category: 'unsupported_media_type',
    label_key: 'error_http_unsupported_media_type',
    retryable: false,
    message:
      'RQOs are sent as Content-Type: application/json (UTF-8; a charset other than utf-8 is refused); uploads as multipart/form-data',
  },
  'http.not_found': {
    category: 'not_found',
    label_key: 'error_http_not_found',
    retryable: false,
    message: 'Nothing is served at this path; POST RQOs to the base path',
  },
  'http.method_not_allowed': {
    category: 'method_not_allowed',
    label_key: 'error_http_method_not_allowed',
    retryable: false,
    message:
      'This is the work API endpoint: POST a JSON RQO to it, for example {"action":"start"} with Content-Type: application/json (see docs/work-api.md)',
  },
  // The metrics endpoint (WORK_METRICS_PATH) with WORK_METRICS_TOKEN set, asked without it.
  'http.unauthorized': {
    category: 'auth',
    label_key: 'error_http_unauthorized',
    retryable: false,
    message: 'This endpoint requires a valid bearer token (Authorization: Bearer <token>)',
  },
  'auth.not_logged': {
    category: 'auth',
    label_key: 'error_auth_not_logged',
    retryable: false,
    message: 'This action needs a session: log in first',
  },
  'auth.csrf_failed': {
    category: 'permission',
    label_key: 'error_auth_csrf_failed',
    retryable: true,
    message:
      'The X-Dedalo-Csrf-Token header is missing or does not match this session; retry with the csrf_token of this answer',
  },
  // One message for an unknown user, a wrong password and an inactive account.
  'auth.login_failed': {
    category: 'auth',
    label_key: 'error_auth_login_failed',
    retryable: false,
    message: 'Unknown user, wrong password or inactive account',
  },
  'rate.limited': {
    category: 'rate_limit',
    label_key: 'error_rate_limited',
    retryable: true,
    message: 'Too many failed logins: wait for the time in Retry-After',
  },
  'rqo.invalid_field': {
    category: 'validation',
    label_key: 'error_rqo_invalid_field',
    retryable: false,
    message: 'A field of the RQO has the wrong type or value',
  },
  'search.invalid_sqo': {
    category: 'validation',
    label_key: 'error_search_invalid_sqo',
    retryable: false,
    message: 'The search query object (sqo) is not valid',
  },
  'export.invalid_format': {
    category: 'validation',
    label_key: 'error_export_invalid_format',
    retryable: false,
    message: 'The export format must be dedalo or plain',
  },
  'validation.invalid_value': {
    category: 'validation',
    label_key: 'error_validation_invalid_value',
    retryable: false,
    message: 'The value does not fit the component',
  },
  'validation.invalid_date_format': {
    category: 'validation',
    label_key: 'error_validation_invalid_date_format',
    retryable: false,
    message: 'The date value is not a valid date',
  },
  'validation.locator_target': {
    category: 'validation',
    label_key: 'error_validation_locator_target',
    retryable: false,
    message: 'The locator does not point at an existing record of a section this component links to',
  },
  // A thesaurus move that would put a term under itself or one of its own descendants.
  'validation.hierarchy_cycle': {
    category: 'validation',
    label_key: 'error_validation_hierarchy_cycle',
    retryable: false,
    message: 'A term cannot be moved under itself or one of its descendants',
  },
  'lang.not_allowed': {
    category: 'validation',
    label_key: 'error_lang_not_allowed',
    retryable: false,
    message: 'This language is not in the allowlist',
  },
  'element.unknown_tipo': {
    category: 'not_found',
    label_key: 'error_element_unknown_tipo',
    retryable: false,
    message: 'No element of the ontology has this tipo',
  },
  'resource.not_found': {
    category: 'not_found',
    label_key: 'error_resource_not_found',
    retryable: false,
    message: 'The record does not exist',
  },
  'resource.conflict': {
    category: 'conflict',
    label_key: 'error_resource_conflict',
    retryable: false,
    message: 'The request conflicts with the current state of the data',
  },
  'record.in_use': {
    category: 'conflict',
    label_key: 'error_record_in_use',
    retryable: true,
    message: 'Another user is editing this component',
  },
  'maintenance.invalid_fn_action': {
    category: 'validation',
    label_key: 'error_maintenance_invalid_fn_action',
    retryable: false,
    message: 'options.fn_action is not one of the actions lock_components_actions offers',
  },
  'record.delete_children_refused': {
    category: 'conflict',
    label_key: 'error_record_delete_children_refused',
    retryable: false,
    message: 'Records with children were not deleted',
  },
  // restore_record: the id of the deleted record is taken again (an import, a counter moved back).
  'record.restore_id_taken': {
    category: 'conflict',
    label_key: 'error_record_restore_id_taken',
    retryable: false,
    message: 'A record with this id exists again; the deleted one was not restored',
  },
  'record.write_conflict': {
    category: 'conflict',
    label_key: 'error_record_write_conflict',
    retryable: true,
    message: 'Another write touched the same records at the same moment; retry the request',
  },
  // A save naming a version of the component that is no longer current: retrying the same
  // request cannot succeed; the client shows the current value (error.details) and decides.
  'record.stale_write': {
    category: 'conflict',
    label_key: 'error_record_stale_write',
    retryable: false,
    message: 'The component was changed by someone else after the version you edited; nothing was saved',
  },
  // A component marked `mandatory` in the ontology would be left without any value.
  'record.mandatory_empty': {
    category: 'validation',
    label_key: 'error_record_mandatory_empty',
    retryable: false,
    message: 'This component is mandatory: it cannot be left empty',
  },
  // A component marked `unique` would hold a value another record of the section already holds;
  // details name that record (section_tipo, section_id) and the value.
  'record.duplicate_value': {
    category: 'conflict',
    label_key: 'error_record_duplicate_value',
    retryable: false,
    message: 'Another record of this section already holds this value; nothing was saved',
  },
  'record.idempotency_in_progress': {
    category: 'conflict',
    label_key: 'error_record_idempotency_in_progress',
    retryable: true,
    message: 'A request with this idempotency_key is still running; retry shortly',
  },
  // The database, not the request (store/db-faults.ts, docs/timeouts-and-faults.md). Both come
  // with Retry-After.
  'db.unavailable': {
    category: 'unavailable',
    label_key: 'error_db_unavailable',
    retryable: true,
    message: 'The database cannot be reached right now; retry after the time in Retry-After',
  },
  'db.timeout': {
    category: 'unavailable',
    label_key: 'error_db_timeout',
    retryable: true,
    message:
      'The request did not finish within the time this server allows (WORK_REQUEST_TIMEOUT_MS); a write may or may not have been applied: retry after Retry-After with the same idempotency_key',
  },
  'internal.unexpected': {
    category: 'internal',
    label_key: 'error_internal_unexpected',
    retryable: true,
    message: 'Unexpected server error',
  },
  'perm.denied': {
    category: 'permission',
    label_key: 'no_access_page',
    retryable: false,
    message: 'Your profile does not allow this here',
  },
  'perm.out_of_scope': {
    category: 'permission',
    label_key: 'error_perm_out_of_scope',
    retryable: false,
    message: 'This record is outside your projects',
  },
  'perm.section_not_writable': {
    category: 'permission',
    label_key: 'error_perm_section_not_writable',
    retryable: false,
    message: 'This section is consultation-only: it cannot be written through the API',
  },
  'perm.global_admin_required': {
    category: 'permission',
    label_key: 'error_perm_global_admin_required',
    retryable: false,
    message: 'Only a global administrator may do this',
  },
  // The ontology edited as records (ontology/ontology-records.ts).
  'ontology.invalid': {
    category: 'validation',
    label_key: 'error_ontology_invalid',
    retryable: false,
    message: 'The change would break the ontology: nothing was written (details.problems lists why)',
  },
  'ontology.tld_has_records': {
    category: 'conflict',
    label_key: 'error_ontology_tld_has_records',
    retryable: false,
    message:
      "Records of this TLD's sections exist (details.records counts them): send options.confirm_uninstall: true to uninstall it anyway (the records are kept, hidden)",
  },
  'ontology.tld_protected': {
    category: 'conflict',
    label_key: 'error_ontology_tld_protected',
    retryable: false,
    message: 'The server itself needs this TLD: it cannot be uninstalled',
  },
  // dd_area_maintenance_api: widgets and their allowlisted methods (maintenance/widgets.ts).
  'maintenance.widget_unknown': {
    category: 'validation',
    label_key: 'error_maintenance_widget_unknown',
    retryable: false,
    message: 'source.model is not a maintenance widget of this server',
  },
  'maintenance.action_refused': {
    category: 'validation',
    label_key: 'error_maintenance_action_refused',
    retryable: false,
    message: "source.action is not in this widget's list of methods",
  },
  // Uploads (multipart) and the actions around them.
  'upload.malformed': {
    category: 'validation',
    label_key: 'error_upload_malformed',
    retryable: false,
    message: 'The multipart upload form is malformed or incomplete',
  },
  'upload.key_dir_not_allowed': {
    category: 'validation',
    label_key: 'error_upload_key_dir',
    retryable: false,
    message: 'key_dir is not an allowed staging directory',
  },
  'upload.invalid_name': {
    category: 'validation',
    label_key: 'error_upload_invalid_name',
    retryable: false,
    message: 'The file name or upload_id is not usable',
  },
  'upload.too_large': {
    // No 413 category exists (the category list is fixed); a validation refusal like
    // http.body_too_large.
    category: 'validation',
    label_key: 'error_upload_too_large',
    retryable: false,
    message: 'The uploaded file is larger than max_size_bytes (UPLOAD_MAX_BYTES)',
  },
  'upload.chunks_missing': {
    category: 'validation',
    label_key: 'error_upload_chunks_missing',
    retryable: false,
    message: 'Some chunks of this upload are missing',
  },
  'upload.conflict': {
    category: 'conflict',
    label_key: 'error_upload_conflict',
    retryable: false,
    message: 'The name is taken by a directory or a file of another kind in the staging area',
  },
  'diffusion.not_configured': {
    category: 'unavailable',
    label_key: 'error_diffusion_not_configured',
    retryable: false,
    message: 'Publishing is not configured on this server',
  },
  'diffusion.target_unavailable': {
    category: 'unavailable',
    label_key: 'error_diffusion_target_unavailable',
    retryable: true,
    message: 'The publication target cannot be reached; nothing of the failed batch was kept',
  },
  // The ontology changed under the publication map: it names a section or component the
  // ontology no longer has (or no longer as the map needs); details.problems lists each one.
  'diffusion.map_invalid': {
    category: 'conflict',
    label_key: 'error_diffusion_map_invalid',
    retryable: false,
    message:
      'The publication map names elements the current ontology lacks; nothing was published (fix the map or the ontology)',
  },
  'diffusion.target_busy': {
    category: 'conflict',
    label_key: 'error_diffusion_target_busy',
    retryable: true,
    message: 'Another publish run to this target is in progress; try again when it has finished',
  },
  'ontology.import_invalid': {
    category: 'validation',
    label_key: 'error_ontology_import_invalid',
    retryable: false,
    message:
      'The ontology file cannot be imported (unreadable, problems in its rows, or several TLDs and none named); details list the problems',
  },
  'ontology.import_broken': {
    category: 'conflict',
    label_key: 'error_ontology_import_broken',
    retryable: false,
    message:
      'Importing this TLD would leave the ontology broken; nothing was written; details list the problems',
  },
  'ontology.tld_not_installed': {
    category: 'not_found',
    label_key: 'error_ontology_tld_not_installed',
    retryable: false,
    message: 'The ontology holds no element of this TLD',
  },
  // Installing a thesaurus TLD (ontology/hierarchy-install.ts).
  'ontology.hierarchy_tld_invalid': {
    category: 'validation',
    label_key: 'error_ontology_hierarchy_tld_invalid',
    retryable: false,
    message:
      'This TLD cannot be installed as a thesaurus (not a TLD, a bad name, or its sections are something else); nothing was written; details.problems says why',
  },
  'component.model_not_implemented': {
    category: 'validation',
    label_key: 'error_component_model_not_implemented',
    retryable: false,
    message: "This component's model is not implemented here: it is shown read-only and cannot be saved",
  },
  'import.invalid_file': {
    category: 'validation',
    label_key: 'error_import_invalid_file',
    retryable: false,
    message:
      'The collection file cannot be imported (encoding, syntax, header, mapping, section); nothing was written; details say where',
  },
  'import.undo_conflict': {
    category: 'conflict',
    label_key: 'error_import_undo_conflict',
    retryable: false,
    message:
      'Records of this import were changed after it (or it was undone already); nothing was undone; details list them',
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_REGISTRY;

/**
 * A refusal in the caller's terms; `message` refines the registry's default. `retryAfterSeconds`
 * becomes a Retry-After header (rate limits).
 */
export class WorkError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly retryAfterSeconds?: number,
    /** Machine-readable facts about the refusal, answered as `error.details` (e.g. a lock's holder). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message ?? ERROR_REGISTRY[code].message);
    this.name = 'WorkError';
  }

  get status(): number {
    return ERROR_CATEGORIES[ERROR_REGISTRY[this.code].category];
  }
}
