/**
 * The only door to the work API: posts an RQO to the API path, keeps the CSRF token fresh from
 * every envelope (retrying once on `auth.csrf_failed`, as the stock client does), and turns every
 * refusal into an ApiError carrying a sentence for people (messages.ts) — never a stack or raw
 * JSON. A lost session is announced once through `onSessionLost`, so the app shows its login and
 * comes back to the same screen afterwards.
 */
import type { ErrorEnvelope, Notice, SuccessEnvelope } from '../../../src/work/dispatch/envelope.js';
import { messageFor } from './messages.js';

export type { Notice };

export interface Rqo {
  dd_api?: string;
  action: string;
  source?: Record<string, unknown>;
  sqo?: Record<string, unknown>;
  show?: Record<string, unknown>;
  options?: Record<string, unknown>;
  data?: Record<string, unknown>;
  idempotency_key?: string;
}

/** Refusals answered again after a short wait (both retryable in the server's registry). */
const RETRIED_CODES = new Set(['record.write_conflict', 'record.idempotency_in_progress']);
const RETRY_DELAYS_MS = [150, 500];

export class ApiError extends Error {
  constructor(
    /** A sentence to show as is. */
    message: string,
    readonly code: string,
    readonly status: number,
    readonly retryable = false,
    readonly retryAfterSeconds?: number,
    /** The refusal's `error.details` (for `record.in_use`: the lock's holder). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface ApiAnswer<T> {
  data: T;
  notices: Notice[];
  envelope: SuccessEnvelope;
}

export class RqoClient {
  csrfToken: string | undefined;
  /** Called when the server says there is no session (expired, or logged out elsewhere). */
  onSessionLost: (() => void) | undefined;
  /** Actions the server answered `request.unknown_action` for: their screens stay hidden. */
  readonly unknownActions = new Set<string>();
  private readonly apiPresence = new Map<string, Promise<boolean>>();

  constructor(readonly apiUrl: string) {}

  async call<T = unknown>(rqo: Rqo): Promise<ApiAnswer<T>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.callOnce<T>(rqo);
      } catch (err) {
        // Two writers met (the server kept nothing of this one) or the same request is still
        // running: the same RQO, idempotency key included, is safe to send again.
        const retry =
          err instanceof ApiError && RETRIED_CODES.has(err.code) && attempt < RETRY_DELAYS_MS.length;
        if (!retry) throw err;
        await new Promise((r) => setTimeout(r, RETRY_DELAYS_MS[attempt]));
      }
    }
  }

  private async callOnce<T>(rqo: Rqo): Promise<ApiAnswer<T>> {
    const first = await this.post(rqo);
    if (
      !first.ok &&
      first.body?.error?.code === 'auth.csrf_failed' &&
      typeof first.body.csrf_token === 'string'
    ) {
      return this.finish<T>(rqo, await this.post(rqo));
    }
    return this.finish<T>(rqo, first);
  }

  /** True when the server registers this action (false once it answered `request.unknown_action`). */
  supports(api: string, action: string): boolean {
    return !this.unknownActions.has(`${api}.${action}`);
  }

  /**
   * Whether the server has an API class at all (publishing, maintenance come from other
   * releases): a made-up action answers `request.unknown_action` when the class exists and
   * `request.unknown_api` when it does not. Nothing runs either way.
   */
  hasApi(api: string): Promise<boolean> {
    // Asked once per page load: a server does not grow an API class while the page is open.
    let known = this.apiPresence.get(api);
    if (!known) {
      known = this.call({ dd_api: api, action: 'probe_api_presence' }).then(
        () => true,
        (err) => !(err instanceof ApiError && err.code === 'request.unknown_api'),
      );
      this.apiPresence.set(api, known);
    }
    return known;
  }

  /** A multipart upload to the same path (the server's upload handler). */
  upload(form: FormData, onProgress?: (loaded: number, total: number) => void): Promise<ApiAnswer<unknown>> {
    // XMLHttpRequest, not fetch: only it reports upload progress.
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', this.apiUrl);
      if (this.csrfToken) xhr.setRequestHeader('X-Dedalo-Csrf-Token', this.csrfToken);
      xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.total);
      xhr.onerror = () => reject(new ApiError(messageFor('network'), 'network', 0, true));
      xhr.onload = () => {
        let body: unknown;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = undefined;
        }
        try {
          resolve(
            this.finish(
              { action: 'upload' },
              { ok: xhr.status < 300, status: xhr.status, body, retryAfter: null },
            ),
          );
        } catch (err) {
          reject(err);
        }
      };
      xhr.send(form);
    });
  }

  private async post(rqo: Rqo): Promise<RawAnswer> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (this.csrfToken) headers['X-Dedalo-Csrf-Token'] = this.csrfToken;
    let res: Response;
    try {
      res = await fetch(this.apiUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify(rqo),
        credentials: 'same-origin',
      });
    } catch {
      throw new ApiError(messageFor('network'), 'network', 0, true);
    }
    let body: RawAnswer['body'];
    try {
      body = await res.json();
    } catch {
      body = undefined;
    }
    if (typeof body?.csrf_token === 'string') this.csrfToken = body.csrf_token;
    return { ok: res.ok, status: res.status, body, retryAfter: res.headers.get('Retry-After') };
  }

  private finish<T>(rqo: Rqo, answer: RawAnswer): ApiAnswer<T> {
    const { body } = answer;
    if (typeof body?.csrf_token === 'string') this.csrfToken = body.csrf_token;
    if (body && body.ok === true) {
      const envelope = body as SuccessEnvelope;
      return { data: envelope.data as T, notices: envelope.notices ?? [], envelope };
    }
    const error = (body as ErrorEnvelope | undefined)?.error;
    if (!error) {
      throw new ApiError(messageFor('unexpected', undefined, answer.status), 'unexpected', answer.status);
    }
    if (error.code === 'request.unknown_action' && rqo.action !== 'probe_api_presence')
      this.unknownActions.add(`${rqo.dd_api ?? 'dd_core_api'}.${rqo.action}`);
    if (error.code === 'auth.not_logged' && rqo.action !== 'quit') {
      this.csrfToken = undefined;
      this.onSessionLost?.();
    }
    const retryAfter = answer.retryAfter === null ? undefined : Number(answer.retryAfter);
    throw new ApiError(
      messageFor(error.code, error.message, answer.status, retryAfter),
      error.code,
      answer.status,
      error.retryable,
      retryAfter,
      error.details,
    );
  }
}

interface RawAnswer {
  ok: boolean;
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: an envelope (or nothing) read defensively above
  body: any;
  retryAfter: string | null;
}

/** The API path the server wrote into index.html (or the default one under `vite dev`). */
export function apiUrlFromPage(doc: Document): string {
  const meta = doc.querySelector<HTMLMetaElement>('meta[name="dedalo-api-url"]')?.content;
  return meta && !meta.startsWith('%') ? meta : '/dedalo/core/api/v1/json';
}
