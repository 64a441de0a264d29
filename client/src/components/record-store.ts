/**
 * What a component element needs from the record it sits in: where it is (section, id, data
 * language), how to save a `changed_data` list (the answer is the server's echo), and the
 * component locks (focus / blur), which are only sent when the server says it takes them.
 */

import { localeOf, t } from '../api/i18n.js';
import type { DataItem, ReadResult } from '../api/read-shapes.js';
import { ApiError } from '../api/rqo-client.js';
import type { Session } from '../app/session.js';
import { keepable, type PendingSave, pendingSaves, saveRqo } from './pending-saves.js';

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
    : (holder.username ?? t('userNumber', { id: String(holder.user_id) }));
  const since = holder.since ? new Date(holder.since) : undefined;
  return since && !Number.isNaN(since.getTime())
    ? t('editingSince', {
        who,
        time: since.toLocaleTimeString(localeOf(), { hour: '2-digit', minute: '2-digit' }),
      })
    : t('editingNow', { who });
}

/** What `componentSaved` announces: a component of a record was saved (its echo is kept). */
export interface ComponentSavedDetail {
  sectionTipo: string;
  sectionId: number;
  tipo: string;
}

/**
 * Every component save this tab makes, as it is acknowledged (directly or by the retry of a kept
 * save). The server writes a computed component (a full name made of name and surname) in the
 * same transaction as its sources, and a save's echo holds the saved component only: a computed
 * field on screen reads itself again when one of its sources was saved.
 */
export const componentSaved = new EventTarget();

export function announceSaved(detail: ComponentSavedDetail): void {
  componentSaved.dispatchEvent(new CustomEvent<ComponentSavedDetail>('saved', { detail }));
}

/** Identity of a data item in a read answer (the same column of the same record). */
export const itemKey = (d: DataItem) =>
  `${d.tipo}|${String(d.section_tipo)}|${d.section_id}|${d.parent_tipo ?? ''}`;

export class RecordStore {
  /**
   * The record's data items as last known: the read, then every save's echo in its place. The
   * record screen renders its fields from here, so a re-render (History, Publish, a message)
   * shows the last saved value, never the value of the first read.
   */
  items: DataItem[] = [];

  constructor(
    readonly session: Session,
    readonly sectionTipo: string,
    readonly sectionId: number,
    readonly lang: string,
  ) {}

  /** Takes a save's echo (or a fresh read of one field): its items replace the known ones. */
  keep(fresh: readonly DataItem[]): void {
    if (fresh.length === 0) return;
    const keys = new Set(fresh.map(itemKey));
    this.items = [...this.items.filter((d) => !keys.has(itemKey(d))), ...fresh];
  }

  /** Saves one component; `lang` is the item language (lg-nolan unless translatable). */
  async save(
    tipo: string,
    model: string,
    lang: string,
    changes: ChangeObject[],
    /** Relations: the page of the echo (a portal showing all its records asks for all). */
    pageLimit?: number,
    /**
     * The component version the change was made on (from the read or the last echo): the
     * server refuses the save (`record.stale_write`) when someone saved the field since.
     */
    version?: number,
    /**
     * The change as kept in the tab until the server acknowledges it (a field's save): sent
     * through the pending saves, which keep it when the server cannot be reached.
     */
    kept?: PendingSave,
  ): Promise<ReadResult & { created_section_id?: number }> {
    const saved = { sectionTipo: this.sectionTipo, sectionId: this.sectionId, tipo };
    if (kept && keepable(model, changes)) {
      const echo = await pendingSaves.send(kept, this.session.api);
      this.keep(echo.data ?? []);
      announceSaved(saved);
      return echo;
    }
    const answer = await this.session.api.call<ReadResult>(
      saveRqo(this.sectionTipo, this.sectionId, tipo, model, lang, changes, pageLimit, version),
    );
    this.keep(answer.data.data ?? []);
    announceSaved(saved);
    // add_new_element: the new record's id is a top-level extension of the envelope.
    const created = answer.envelope.created_section_id;
    return typeof created === 'number' ? { ...answer.data, created_section_id: created } : answer.data;
  }

  /** Reads one component of this record afresh (its value and version now). */
  async readComponent(tipo: string, model: string, lang: string): Promise<DataItem | undefined> {
    const answer = await this.session.api.call<ReadResult>({
      action: 'read',
      source: { tipo, model, section_tipo: this.sectionTipo, section_id: this.sectionId, mode: 'edit', lang },
    });
    const own = (answer.data.data ?? []).find(
      (d) => d.tipo === tipo && String(d.section_id) === String(this.sectionId),
    );
    if (own) this.keep([own]);
    return own;
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
