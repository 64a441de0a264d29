/** Opens the SqlClient the configuration names: PostgreSQL when WORK_DB_URL is set, else PGlite. */
import type { WorkDatabase } from '../config.js';
import { GuardedSqlClient } from './guarded-sql-client.js';
import { PgClient } from './pg-client.js';
import { PgliteClient } from './pglite-client.js';
import type { SqlClient } from './sql-client.js';

export async function openSqlClient(database: WorkDatabase): Promise<SqlClient> {
  if (database.engine === 'pglite') return PgliteClient.open(database.dataDir);
  const client = new PgClient({
    url: database.url,
    poolMax: database.poolMax,
    timeouts: database.timeouts,
    preparedStatements: database.preparedStatements,
  });
  // Fail at start, with the server's own message, rather than on the first request.
  try {
    await client.query('SELECT 1');
  } catch (err) {
    await client.close();
    throw err;
  }
  // A database that goes away later is answered 503 at once while it is known down.
  return new GuardedSqlClient(client);
}
