/**
 * Checks that a baseline really is "the bare SQL of the same request": it runs the real work
 * server in this process on the benchmark's database with its SqlClient wrapped, sends one
 * request of each scenario, and records the statements the server ran for it; the baselines'
 * own statements are recorded through the same wrapper. The benchmark's report lists them and
 * says whether both ran the same statements (both lists in full when they differ).
 *
 * Runs before the measured server starts (PGlite allows one process per data directory).
 */
import { loadWorkConfig } from '../src/work/config.js';
import { startWorkServer } from '../src/work/server.js';
import type { SqlClient, SqlQueryable } from '../src/work/store/sql-client.js';

/** The first words of a statement, whitespace folded: enough to tell statements apart. */
export const statementName = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 60);

/** Statements run through `db` (transactions included), in order, while recording. */
export class StatementLog {
  readonly statements: string[] = [];

  wrap(db: SqlClient): SqlClient {
    const log = this.statements;
    const traced = (q: SqlQueryable): SqlQueryable['query'] =>
      ((sql: string, params?: readonly unknown[]) => {
        log.push(statementName(sql));
        return q.query(sql, params);
      }) as SqlQueryable['query'];
    return {
      engine: db.engine,
      query: traced(db),
      transaction: (fn) =>
        db.transaction((tx) => {
          log.push('BEGIN');
          return fn({ query: traced(tx) }).then((r) => {
            log.push('COMMIT');
            return r;
          });
        }),
      close: () => db.close(),
    };
  }

  /** The statements `fn` runs (nothing else may use the client meanwhile). */
  async during(fn: () => Promise<unknown>): Promise<string[]> {
    this.statements.length = 0;
    await fn();
    return [...this.statements];
  }
}

export interface TracedRequest {
  name: string;
  /** The RQO to send (the session cookie and CSRF header are added). */
  body: string;
}

/**
 * Starts the server in-process on `env`'s database, logs in as root, sends each request once
 * (after one untraced warm-up, so one-off loads are not counted) and answers each request's
 * statements, the session lookup included.
 */
export async function traceServerRequests(
  env: Record<string, string>,
  rootPassword: string,
  requests: readonly TracedRequest[],
): Promise<Map<string, string[]>> {
  const log = new StatementLog();
  const server = await startWorkServer(
    loadWorkConfig({ PORT: '0', LOG_LEVEL: 'silent', DEDALO_ROOT_PASSWORD: rootPassword, ...env }),
    { wrapDb: (db) => log.wrap(db) },
  );
  try {
    const login = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        dd_api: 'dd_utils_api',
        action: 'login',
        options: { username: 'root', auth: rootPassword },
      }),
    });
    const answer = (await login.json()) as { csrf_token?: string };
    const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const headers = {
      'content-type': 'application/json',
      cookie,
      'x-dedalo-csrf-token': answer.csrf_token ?? '',
    };
    const traced = new Map<string, string[]>();
    for (const r of requests) {
      const send = async () => {
        const res = await fetch(server.url, { method: 'POST', headers, body: r.body });
        if (!res.ok) throw new Error(`${r.name}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      };
      await send();
      traced.set(r.name, await log.during(send));
    }
    return traced;
  } finally {
    await server.close();
  }
}

/** Whether two statement lists run the same statements (the order may differ). */
export function sameStatements(a: readonly string[], b: readonly string[]): boolean {
  const sorted = (l: readonly string[]) => [...l].sort().join('\n');
  return sorted(a) === sorted(b);
}
