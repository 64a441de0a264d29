/**
 * Replaces one TLD of the stored ontology with a Dédalo dump through the archive's own import
 * (`npm run work -- ontology import FILE --tld X`: one transaction, the whole result checked,
 * the TLD's records mirrored), as root from the command line. Fails the test with the import's
 * refusal when it is refused.
 */
import { importOntologyTld, OntologyImportRefused } from '../../src/work/ontology/import/import-tld.js';
import type { TldImportReport } from '../../src/work/ontology/import/tld-report.js';
import { readOntologyVersion } from '../../src/work/ontology/ontology-store.js';
import type { SqlClient } from '../../src/work/store/sql-client.js';

export interface ReplacedTld {
  report: TldImportReport;
  /** The ontology version after the commit. */
  version: number;
}

export async function replaceTld(db: SqlClient, dumpText: string, tld: string): Promise<ReplacedTld> {
  try {
    const report = await importOntologyTld(db, {
      text: dumpText,
      fileName: `${tld}.jer_dd.sql`,
      tld,
      userId: -1,
      via: 'cli',
      now: new Date(),
    });
    return { report, version: await readOntologyVersion(db) };
  } catch (err) {
    if (err instanceof OntologyImportRefused) {
      throw new Error(`replace-tld: the import was refused: ${err.problems.join('; ')}`);
    }
    throw err;
  }
}
