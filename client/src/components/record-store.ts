/**
 * What a component element needs from the record it sits in: where it is (section, id, data
 * language), how to save a `changed_data` list (the answer is the server's echo), and the
 * component locks (focus / blur), which are only sent when the server says it takes them.
 */

import type { ReadResult } from '../api/read-shapes.js';
import { ApiError } from '../api/rqo-client.js';
import type { Session } from '../app/session.js';

export interface ChangeObject {
  action: 'insert' | 'update' | 'remove' | 'set_data' | 'clear' | 'sort_data' | 'add_new_element';
  id?: number | null;
  key?: number;
  value: unknown;
}

export interface LockState {
  locked: boolean;
  /** Set when another user holds the component: the server's sentence naming them. */
  message?: string;
}

/**
 * "Ana Pérez (ana) is editing this field since 10:02" from a `record.in_use` refusal's
 * `error.details.holder` (the time in the reader's own clock); the server's sentence otherwise.
 */
export function lockHolderSentence(err: ApiError): string {
  const holder = err.details?.holder as
    | { user_id?: number; username?: string | null; full_username?: string | null; since?: string }
    | undefined;
  if (!holder) return err.message;
  const who = holder.full_username
    ? `${holder.full_username}${holder.username ? ` (${holder.username})` : ''}`
    : (holder.username ?? `user ${holder.user_id}`);
  const since = holder.since ? new Date(holder.since) : undefined;
  const at =
    since && !Number.isNaN(since.getTime())
      ? ` since ${since.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`
      : '';
  return `${who} is editing this field${at}.`;
}

export class RecordStore {
  constructor(
    readonly session: Session,
    readonly sectionTipo: string,
    readonly sectionId: number,
    readonly lang: string,
  ) {}

  /** Saves one component; `lang` is the item language (lg-nolan unless translatable). */
  async save(
    tipo: string,
    model: string,
    lang: string,
    changes: ChangeObject[],
    /** Relations: the page of the echo (a portal showing all its records asks for all). */
    pageLimit?: number,
  ): Promise<ReadResult & { created_section_id?: number }> {
    const answer = await this.session.api.call<ReadResult>({
      action: 'save',
      source: { tipo, model, section_tipo: this.sectionTipo, section_id: this.sectionId, lang, mode: 'edit' },
      data: { changed_data: changes, ...(pageLimit ? { pagination: { limit: pageLimit } } : {}) },
      idempotency_key: crypto.randomUUID(),
    });
    // add_new_element: the new record's id is a top-level extension of the envelope.
    const created = answer.envelope.created_section_id;
    return typeof created === 'number' ? { ...answer.data, created_section_id: created } : answer.data;
  }

  /** Takes the component's lock; `{locked: false, message}` when someone else holds it. */
  async focus(tipo: string): Promise<LockState> {
    return this.lockCall(tipo, 'focus');
  }

  async blur(tipo: string): Promise<void> {
    await this.lockCall(tipo, 'blur');
  }

  /** Leaving the record: every lock this user holds in the section goes (the stock client's shape). */
  async releaseAll(): Promise<void> {
    await this.lockCall(null, 'delete_user_section_locks');
  }

  private async lockCall(
    tipo: string | null,
    action: 'focus' | 'blur' | 'delete_user_section_locks',
  ): Promise<LockState> {
    const api = this.session.api;
    if (!this.session.locksEnabled || !api.supports('dd_utils_api', 'update_lock_components_state')) {
      return { locked: true };
    }
    try {
      await api.call({
        dd_api: 'dd_utils_api',
        action: 'update_lock_components_state',
        options: {
          section_tipo: this.sectionTipo,
          section_id: tipo === null ? null : this.sectionId,
          component_tipo: tipo,
          action,
        },
      });
      return { locked: true };
    } catch (err) {
      if (err instanceof ApiError && err.code === 'record.in_use')
        return { locked: false, message: lockHolderSentence(err) };
      // Any other failure (unknown action, network): editing goes on without a lock.
      return { locked: true };
    }
  }
}
