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
  conflict: 409,
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
  'rqo.malformed_json': {
    category: 'validation',
    label_key: 'error_malformed_json',
    retryable: false,
    message: 'The request body is not valid JSON',
  },
  'rqo.not_an_object': {
    category: 'validation',
    label_key: 'error_invalid_rqo',
    retryable: false,
    message: 'The request body must be a JSON object (an RQO)',
  },
  'rqo.action_missing': {
    category: 'validation',
    label_key: 'error_invalid_rqo',
    retryable: false,
    message: 'The RQO must name an action (a string)',
  },
  'rqo.dd_api_invalid': {
    category: 'validation',
    label_key: 'error_invalid_rqo',
    retryable: false,
    message: 'dd_api must be a string when given',
  },
  'rqo.unknown_api': {
    category: 'not_found',
    label_key: 'error_unknown_api',
    retryable: false,
    message: 'Unknown dd_api',
  },
  'rqo.unknown_action': {
    category: 'not_found',
    label_key: 'error_unknown_action',
    retryable: false,
    message: 'This action is not registered in this dd_api',
  },
  'http.body_too_large': {
    category: 'validation',
    label_key: 'error_body_too_large',
    retryable: false,
    message: 'The request body is too large',
  },
  'http.not_found': {
    category: 'not_found',
    label_key: 'error_not_found',
    retryable: false,
    message: 'Nothing is served at this path; POST RQOs to the base path',
  },
  'auth.session_required': {
    category: 'auth',
    label_key: 'error_session_required',
    retryable: false,
    message: 'This action needs a session: log in first',
  },
  'auth.csrf_invalid': {
    category: 'permission',
    label_key: 'error_csrf_invalid',
    retryable: false,
    message: 'The X-Dedalo-Csrf-Token header is missing or does not match this session',
  },
  'auth.login_failed': {
    category: 'auth',
    label_key: 'error_login_failed',
    retryable: false,
    // One message for an unknown user, a wrong password and an inactive account.
    message: 'Unknown user, wrong password or inactive account',
  },
  'auth.login_throttled': {
    category: 'rate_limit',
    label_key: 'error_login_throttled',
    retryable: true,
    message: 'Too many failed logins: wait for the time in Retry-After',
  },
  'rqo.invalid_field': {
    category: 'validation',
    label_key: 'error_invalid_field',
    retryable: false,
    message: 'A field of the RQO has the wrong type or value',
  },
  'lang.not_allowed': {
    category: 'validation',
    label_key: 'error_lang_not_allowed',
    retryable: false,
    message: 'This language is not in the allowlist',
  },
  'element.unknown_tipo': {
    category: 'not_found',
    label_key: 'error_unknown_tipo',
    retryable: false,
    message: 'No element of the ontology has this tipo',
  },
  'internal.unexpected': {
    category: 'internal',
    label_key: 'error_internal',
    retryable: true,
    message: 'Unexpected server error',
  },
  'permission.denied': {
    category: 'permission',
    label_key: 'error_permission_denied',
    retryable: false,
    message: 'Your profile does not allow this here',
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
  ) {
    super(message ?? ERROR_REGISTRY[code].message);
    this.name = 'WorkError';
  }

  get status(): number {
    return ERROR_CATEGORIES[ERROR_REGISTRY[this.code].category];
  }
}
