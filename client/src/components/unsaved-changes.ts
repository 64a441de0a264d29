/**
 * Typing that a save could not keep because the session had ended (`auth.not_logged`): the
 * change list is kept in this tab's sessionStorage, keyed by record, component and language, so
 * that after the user logs in again and the record opens, it is saved then (by the same user
 * only) instead of being lost. sessionStorage: it stays with the tab, survives the reload a new
 * login may bring, and is gone when the tab closes.
 */
import type { ChangeObject } from './record-store.js';

const PREFIX = 'dd-unsaved:';

export interface UnsavedChange {
  sectionTipo: string;
  sectionId: number;
  tipo: string;
  model: string;
  lang: string;
  /** The field's label, for the message that says it was saved. */
  label: string;
  /** Who typed it: another user logging in on this tab does not save it. */
  userId: number | undefined;
  changes: ChangeObject[];
  /** The component version the change was made on (the server refuses it if someone saved since). */
  version?: number;
}

const keyOf = (c: { sectionTipo: string; sectionId: number; tipo: string; lang: string }) =>
  `${PREFIX}${c.sectionTipo}/${c.sectionId}/${c.tipo}/${c.lang}`;

/** Keeps the latest refused change of a field (a newer one replaces it: it holds the newer text). */
export function keepUnsaved(change: UnsavedChange): void {
  try {
    sessionStorage.setItem(keyOf(change), JSON.stringify(change));
  } catch {
    // Storage full or disabled: nothing more can be done than the message already shown.
  }
}

/** Takes (and forgets) the kept changes of one record. */
export function takeUnsaved(sectionTipo: string, sectionId: number): UnsavedChange[] {
  const prefix = `${PREFIX}${sectionTipo}/${sectionId}/`;
  const found: UnsavedChange[] = [];
  for (const key of Object.keys(sessionStorage)) {
    if (!key.startsWith(prefix)) continue;
    try {
      found.push(JSON.parse(sessionStorage.getItem(key) ?? '') as UnsavedChange);
    } catch {
      // A value this code did not write: dropped below.
    }
    sessionStorage.removeItem(key);
  }
  return found;
}
