/**
 * Envelope v2, the only answer shape: `{ok: true, request_id, data, ...extensions, notices?}` or
 * `{ok: false, request_id, error: {code, category, message, label_key, retryable}}`. The old
 * `result` key can never appear: extensions may not use a reserved or legacy name.
 */
import { ERROR_CATEGORIES, ERROR_REGISTRY, type ErrorCode } from './error-registry.js';

const RESERVED_KEYS = new Set(['ok', 'request_id', 'data', 'error', 'notices', 'result', 'msg', 'errors']);

export interface Notice {
  code: string;
  message: string;
  [detail: string]: unknown;
}

export interface SuccessEnvelope {
  ok: true;
  request_id: string;
  data: unknown;
  notices?: Notice[];
  [extension: string]: unknown;
}

export interface ErrorEnvelope {
  ok: false;
  csrf_token?: string;
  request_id: string;
  error: {
    code: ErrorCode;
    category: string;
    message: string;
    label_key: string;
    retryable: boolean;
    /** Facts a client can act on (for `record.in_use`: who holds the lock, since when). */
    details?: Record<string, unknown>;
  };
}

export function successEnvelope(
  requestId: string,
  data: unknown,
  extensions: Record<string, unknown> = {},
  notices: Notice[] = [],
): SuccessEnvelope {
  for (const key of Object.keys(extensions)) {
    // A programming error in an action, not a client mistake.
    if (RESERVED_KEYS.has(key)) throw new Error(`envelope extension "${key}" is reserved`);
  }
  return {
    ok: true,
    request_id: requestId,
    data,
    ...extensions,
    ...(notices.length > 0 ? { notices } : {}),
  };
}

export function errorEnvelope(
  requestId: string,
  code: ErrorCode,
  message?: string,
  /** Top-level keys a refusal may carry: only `csrf_token` (the session's, so a client can retry). */
  extensions: { csrf_token?: string } = {},
  details?: Record<string, unknown>,
): { status: number; body: ErrorEnvelope } {
  const entry = ERROR_REGISTRY[code];
  return {
    status: ERROR_CATEGORIES[entry.category],
    body: {
      ...(extensions.csrf_token !== undefined ? { csrf_token: extensions.csrf_token } : {}),
      ok: false,
      request_id: requestId,
      error: {
        code,
        category: entry.category,
        message: message ?? entry.message,
        label_key: entry.label_key,
        retryable: entry.retryable,
        ...(details !== undefined ? { details } : {}),
      },
    },
  };
}
