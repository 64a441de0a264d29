/**
 * Work the server has not acknowledged yet, kept in this tab's sessionStorage per user, record,
 * component and language until the server answers the save:
 *  - `draft`: typed in a field that has not been left yet (a reload or a closed tab would lose it);
 *  - `pending`: a save that did not reach the server (network down, server away): retried on its
 *    own with a back-off, when the browser says it is `online` again, and on "Retry";
 *  - `conflict`: the server refused it because someone else saved the field since
 *    (`record.stale_write`): the person chooses (never retried on its own).
 * One instance per page (`pendingSaves`). The app shows the count of pending/conflict entries
 * with a Retry button, and warns before the page is left while anything is kept here. After a
 * reload the record screen puts each kept value back into its field, marked not saved.
 */

import { t } from '../api/i18n.js';
import { newIdempotencyKey } from '../api/idempotency-key.js';
import type { DataItem, ReadResult } from '../api/read-shapes.js';
import { ApiError, type RqoClient } from '../api/rqo-client.js';
import type { ChangeObject } from './record-store.js';

const PREFIX = 'dd-pending:';

/** The tab's sessionStorage, or nothing where the page may not use it (then nothing is kept). */
function store(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

export type PendingState = 'draft' | 'pending' | 'conflict';

export interface PendingSave {
  userId: number | undefined;
  sectionTipo: string;
  sectionId: number;
  tipo: string;
  model: string;
  lang: string;
  label: string;
  changes: ChangeObject[];
  /** The component version the change was made on (undefined: the server has no versions). */
  version?: number;
  pageLimit?: number;
  /** One key per change: a retry the server already applied is answered from its cache. */
  idempotencyKey: string;
  state: PendingState;
  /** Increases with every newer value of the same field (an older answer never removes it). */
  seq: number;
}

export interface FieldKey {
  userId: number | undefined;
  sectionTipo: string;
  sectionId: number;
  tipo: string;
  lang: string;
}

export const pendingKeyOf = (k: FieldKey) =>
  `${PREFIX}${k.userId ?? 'anon'}/${k.sectionTipo}/${k.sectionId}/${k.tipo}/${k.lang}`;

/** Models whose values are never written to storage (a password stays in memory only). */
const NOT_KEPT = new Set(['component_password']);

export function keepable(model: string, changes: readonly ChangeObject[]): boolean {
  return !NOT_KEPT.has(model) && !changes.some((c) => c.action === 'add_new_element');
}

/** Failures where the server did not answer the save: the change is kept and sent again. */
export function isUnreachable(err: unknown): boolean {
  if (!(err instanceof ApiError)) return true;
  return err.code === 'network' || err.status === 502 || err.status === 503 || err.status === 504;
}

/** The entries of an item after a change list (to show a kept value in its field). */
export function applyChanges(entries: readonly unknown[], changes: readonly ChangeObject[]): unknown[] {
  let out = [...entries];
  const idOf = (e: unknown) => (e as { id?: unknown } | null)?.id;
  for (const c of changes) {
    if (c.action === 'set_data') out = Array.isArray(c.value) ? [...c.value] : [];
    else if (c.action === 'clear') out = [];
    else if (c.action === 'insert') out.push(c.value);
    else if (c.action === 'update') {
      const i = out.findIndex((e) => idOf(e) === c.id);
      if (i >= 0) out[i] = c.value;
      else out.push(c.value);
    } else if (c.action === 'remove') {
      out = c.id !== undefined && c.id !== null ? out.filter((e) => idOf(e) !== c.id) : out;
    }
  }
  return out;
}

/** The back-off between automatic retries (the last delay repeats). */
export const RETRY_DELAYS_MS = [2_000, 4_000, 8_000, 15_000];

export interface SavedDetail {
  key: string;
  echo: ReadResult;
  entry: PendingSave;
}

export interface RefusedDetail {
  key: string;
  error: ApiError;
  entry: PendingSave;
}

export class PendingSaves extends EventTarget {
  private api: RqoClient | undefined;
  private userId: () => number | undefined = () => undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  retrying = false;

  /** The app connects the API once it started (and the user is known). */
  connect(api: RqoClient, userId: () => number | undefined): void {
    if (!this.api) window.addEventListener('online', () => void this.retryNow());
    this.api = api;
    this.userId = userId;
    // Typing kept by the page before this one (reloaded, or restored with the tab), and values
    // that were waiting for a choice between two people's: sent like any other save that did not
    // reach the server (a stale one is refused again, and its field shows both values again).
    for (const e of this.all()) if (e.state !== 'pending') this.put({ ...e, state: 'pending' });
    if (this.count() > 0) void this.retryNow(false);
  }

  private read(key: string): PendingSave | undefined {
    try {
      const raw = store()?.getItem(key);
      return raw ? (JSON.parse(raw) as PendingSave) : undefined;
    } catch {
      return undefined;
    }
  }

  get(k: FieldKey): PendingSave | undefined {
    return this.read(pendingKeyOf(k));
  }

  /** Every entry of the logged-in user (of every record). */
  all(): PendingSave[] {
    const user = this.userId();
    const found: PendingSave[] = [];
    const storage = store();
    if (!storage) return found;
    for (const key of Object.keys(storage)) {
      if (!key.startsWith(PREFIX)) continue;
      const e = this.read(key);
      if (e && e.userId === user) found.push(e);
    }
    return found;
  }

  forRecord(sectionTipo: string, sectionId: number): PendingSave[] {
    return this.all().filter((e) => e.sectionTipo === sectionTipo && e.sectionId === sectionId);
  }

  /** Not saved because the server was away: what the app's banner counts. */
  count(): number {
    return this.all().filter((e) => e.state === 'pending').length;
  }

  /** Anything not acknowledged (drafts included): leaving the page would lose it. */
  hasUnsaved(): boolean {
    return this.all().length > 0;
  }

  put(entry: PendingSave): void {
    if (!keepable(entry.model, entry.changes)) return;
    try {
      store()?.setItem(pendingKeyOf(entry), JSON.stringify(entry));
    } catch {
      // Storage full or disabled: the field still says it is not saved.
    }
    this.changed();
  }

  /** Removes the entry, unless a newer value of the field replaced it meanwhile. */
  remove(k: FieldKey, seq?: number): void {
    const key = pendingKeyOf(k);
    const kept = this.read(key);
    if (kept && seq !== undefined && kept.seq > seq) return;
    store()?.removeItem(key);
    this.changed();
  }

  setState(k: FieldKey, state: PendingState, seq: number): void {
    const kept = this.read(pendingKeyOf(k));
    if (!kept || kept.seq !== seq) return;
    this.put({ ...kept, state });
  }

  private changed() {
    this.dispatchEvent(new Event('change'));
  }

  /** Sends one save (the entry is kept until the server answers it). */
  async send(entry: PendingSave, via?: RqoClient): Promise<ReadResult & { created_section_id?: number }> {
    const api = via ?? this.api;
    if (!api) throw new ApiError(t('appNotStarted'), 'network', 0, true);
    this.put(entry);
    const key = pendingKeyOf(entry);
    const run = (async () => {
      try {
        const answer = await api.call<ReadResult>({
          ...saveRqo(
            entry.sectionTipo,
            entry.sectionId,
            entry.tipo,
            entry.model,
            entry.lang,
            entry.changes,
            entry.pageLimit,
            entry.version,
          ),
          idempotency_key: entry.idempotencyKey,
        });
        this.remove(entry, entry.seq);
        const created = answer.envelope.created_section_id;
        return typeof created === 'number' ? { ...answer.data, created_section_id: created } : answer.data;
      } catch (err) {
        if (isUnreachable(err)) {
          this.setState(entry, 'pending', entry.seq);
          this.schedule();
        } else if (err instanceof ApiError && err.code === 'record.stale_write') {
          this.setState(entry, 'conflict', entry.seq);
        } else {
          // The server answered (validation, permissions, session): not ours to keep any more.
          this.remove(entry, entry.seq);
        }
        throw err;
      }
    })();
    this.inFlight.set(key, run);
    try {
      return await run;
    } finally {
      if (this.inFlight.get(key) === run) this.inFlight.delete(key);
    }
  }

  private schedule() {
    if (this.timer !== undefined) return;
    const delay = RETRY_DELAYS_MS[Math.min(this.attempt, RETRY_DELAYS_MS.length - 1)]!;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.retryNow(false);
    }, delay);
  }

  /** Sends every pending entry again now (Retry, `online`, or the back-off timer). */
  async retryNow(byPerson = true): Promise<void> {
    if (this.retrying) return;
    if (byPerson) this.attempt = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    const due = this.all().filter((e) => e.state === 'pending' && !this.inFlight.has(pendingKeyOf(e)));
    if (due.length === 0) return;
    this.retrying = true;
    this.changed();
    let unreachable = false;
    for (const entry of due) {
      try {
        const echo = await this.send(entry);
        this.dispatchEvent(
          new CustomEvent<SavedDetail>('saved', { detail: { key: pendingKeyOf(entry), echo, entry } }),
        );
      } catch (err) {
        if (isUnreachable(err)) {
          unreachable = true;
          break; // the others would fail the same way: wait for the next attempt
        }
        this.dispatchEvent(
          new CustomEvent<RefusedDetail>('refused', {
            detail: { key: pendingKeyOf(entry), error: err as ApiError, entry },
          }),
        );
      }
    }
    this.retrying = false;
    if (unreachable) {
      this.attempt += 1;
      clearTimeout(this.timer);
      this.timer = undefined;
      this.schedule();
    } else this.attempt = 0;
    this.changed();
  }
}

export const pendingSaves = new PendingSaves();

/** The item of a field with a kept value applied (what the person typed, not yet saved). */
export function withKept(item: DataItem, kept: PendingSave): DataItem {
  // The version the typing was based on: saving it (or typing on) is checked against that one,
  // so that what someone else saved meanwhile is not silently replaced.
  return {
    ...item,
    entries: applyChanges(item.entries ?? [], kept.changes),
    ...(kept.version !== undefined ? { version: kept.version } : {}),
  };
}

/** The save RQO of one component (`data.version` only when the field's version is known). */
export function saveRqo(
  sectionTipo: string,
  sectionId: number,
  tipo: string,
  model: string,
  lang: string,
  changes: ChangeObject[],
  pageLimit?: number,
  version?: number,
) {
  return {
    action: 'save',
    source: { tipo, model, section_tipo: sectionTipo, section_id: sectionId, lang, mode: 'edit' },
    data: {
      changed_data: changes,
      ...(typeof version === 'number' ? { version } : {}),
      ...(pageLimit ? { pagination: { limit: pageLimit } } : {}),
    },
    idempotency_key: newIdempotencyKey(),
  };
}
