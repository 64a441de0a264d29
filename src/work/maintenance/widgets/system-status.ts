/**
 * `system_status`: what an administrator checks first. The server's version, the database
 * engine and size, the migrations applied, the live sessions and how long this process has run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { idleSince } from '../../auth/sessions.js';
import { countLiveSessions } from '../../store/sessions.js';
import type { MaintenanceWidget } from '../widget.js';

/** package.json's version, found from the sources (src/work/...) or the build (dist/src/work/...). */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
  const parsed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof parsed.version === 'string' ? parsed.version : 'unknown';
}

const VERSION = packageVersion();

export const systemStatusWidget: MaintenanceWidget = {
  value: {
    globalAdminOnly: false,
    run: async ({ db, config, now }) => {
      const size = await db.query<{ bytes: string }>(
        'SELECT pg_database_size(current_database())::text AS bytes',
      );
      const migrations = await db.query<{ version: number; name: string; applied_at: string }>(
        'SELECT version, name, applied_at::text AS applied_at FROM schema_migrations ORDER BY version',
      );
      const uptime = Math.floor(process.uptime());
      return {
        version: VERSION,
        node_version: process.version,
        database_engine: config.database.engine,
        database_size_bytes: Number(size.rows[0]?.bytes ?? 0),
        schema_version: migrations.rows.at(-1)?.version ?? 0,
        migrations: migrations.rows.map((m) => ({ ...m, applied_at: new Date(m.applied_at).toISOString() })),
        active_sessions: await countLiveSessions(db, now, idleSince(now)),
        uptime_seconds: uptime,
        started_at: new Date(Date.now() - uptime * 1000).toISOString(),
      };
    },
  },
  methods: {},
};
