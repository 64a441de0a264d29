/**
 * Bootstraps a work database the way a server's first start does (migrations, the default
 * ontology and its records, root with the test password, default profiles), for the run's
 * bootstrapped templates: a test server started from a copy skips the seconds of first start
 * (about 2.5 s on PGlite, 1 s on PostgreSQL) yet still runs the start-up checks of every start.
 * Tests of the first start itself use empty databases (WorkEngineCase.freshDatabase).
 */
import { bootstrapDatabase } from '../../src/work/bootstrap/bootstrap-database.js';
import type { WorkDatabase } from '../../src/work/config.js';
import { loadStoredOntology } from '../../src/work/ontology/ontology-store.js';
import { openSqlClient } from '../../src/work/store/open-sql-client.js';
import { TEST_ROOT_PASSWORD } from './test-root-password.js';

export async function bootstrapTemplate(database: WorkDatabase): Promise<void> {
  const client = await openSqlClient(database);
  try {
    await bootstrapDatabase(client, async (db) => (await loadStoredOntology(db)).ontology, {
      rootPassword: TEST_ROOT_PASSWORD,
    });
  } finally {
    await client.close();
  }
}
