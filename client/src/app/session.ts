/**
 * What every screen needs from the app: the API client, the session's languages, the menu tree
 * (labels of areas and sections) and a place for short messages. One object, passed down.
 */
import type { RqoClient } from '../api/rqo-client.js';

export interface LangOption {
  label: string;
  value: string;
}

export interface MenuNode {
  tipo: string;
  model: string;
  parent: string;
  label: string;
  /** false: no profile can grant it (the ontology's editing surface: global admins only). */
  grantable?: boolean;
}

export interface Session {
  api: RqoClient;
  userId: number | undefined;
  dataLang: string;
  appLang: string;
  langs: LangOption[];
  menu: MenuNode[];
  /** `page_globals.is_global_admin`: offered what only global administrators may do (undo an import). */
  isGlobalAdmin?: boolean;
  /** `environment.plain_vars.DEDALO_LOCK_COMPONENTS`: the server takes component locks. */
  locksEnabled: boolean;
  /** Label of an area or section from the menu (falls back to the tipo). */
  labelOf(tipo: string): string;
  /** A short message in the app's live region (screen readers hear it too). */
  announce(message: string, kind?: 'info' | 'error'): void;
  /** Switches the data language for every later read and save. */
  setDataLang(lang: string): Promise<void>;
  /** Asks the server for the menu again (after an edit of the ontology changed it). */
  refreshMenu(): Promise<void>;
}

/**
 * The ontology's editing sections: a TLD's `<tld>0` section and the TLD registry (ontology2). A
 * write there may change the menu (a new section, a label, a TLD).
 */
export const isOntologySection = (sectionTipo: string): boolean =>
  /^[a-z]+0$/.test(sectionTipo) || sectionTipo === 'ontology2';

/** Fired (bubbling out of shadow roots) by a component that saved: `detail.sectionTipo`. */
export const RECORD_WRITTEN = 'record-written';
