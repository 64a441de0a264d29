/**
 * Installing a thesaurus TLD the way Dédalo's hierarchy installer does: `<tld>1` (terms) and
 * `<tld>2` (models) as thesaurus sections, registered as a hierarchy, so that a thesaurus package
 * (`<tld>.copy`) of a TLD the ontology lacks can be imported in one command.
 *
 * The collection importer calls `ensureHierarchyTld` before writing the records of a package
 * whose sections are missing. (Contract fixed before the implementation lands.)
 */

import type { SqlClient } from '../store/sql-client.js';

export interface HierarchyTldOptions {
  userId: number;
  now: Date;
  via: 'cli' | 'api';
  /** The thesaurus' name per language (`{"lg-spa": "Andorra"}`); the TLD when absent. */
  labels?: Record<string, string>;
}

export interface HierarchyTldInstall {
  tld: string;
  /** False when the TLD's sections already existed (nothing was written). */
  created: boolean;
  termSection: string;
  modelSection: string;
}

/**
 * Makes sure `<tld>1` and `<tld>2` exist; in its own transaction, idempotent; the ontology every
 * instance serves follows after it returns.
 */
export async function ensureHierarchyTld(
  _db: SqlClient,
  tld: string,
  _options: HierarchyTldOptions,
): Promise<HierarchyTldInstall> {
  throw new Error(`installing the thesaurus TLD ${tld} is not built yet`);
}
