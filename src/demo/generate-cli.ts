/**
 * Command line for the demo generator:
 *   node dist/src/demo/generate-cli.js --interviews N --driver sqlite|mariadb
 *     [--db NAME] [--dir DIR] [--seed S]
 * Writes `<dir>/<db>.sqlite` or the MariaDB database `<db>` (connection from DB_HOST, DB_PORT,
 * DB_USER, DB_PASSWORD, DB_SOCKET), showing one progress line on stderr and a summary at the end.
 * A bad argument prints the usage naming it and exits with status 2, like other Unix tools.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type DemoSummary, writeMariadbDemo, writeSqliteDemo } from './index.js';
import type { MariadbConnectionOptions } from './mariadb-sink.js';

const USAGE = `Usage: node dist/src/demo/generate-cli.js [options]

Options:
  --interviews N        number of interviews, 1..10000000 (default 200)
  --driver NAME         sqlite or mariadb (default sqlite)
  --db NAME             database name, letters, digits, _ $ - (default demo_archive)
  --dir DIR             directory of the SQLite file <dir>/<db>.sqlite (default ./data/publication)
  --seed S              integer seed 0..4294967295; the same seed gives the same data (default 1)
  -h, --help            show this help

MariaDB connection: DB_HOST (127.0.0.1), DB_PORT (3306), DB_USER (root), DB_PASSWORD (''), DB_SOCKET.`;

class UsageError extends Error {}

interface CliOptions {
  interviews: number;
  seed: number;
  driver: 'sqlite' | 'mariadb';
  db: string;
  dir: string;
}

function integer(name: string, value: string, min: number, max: number): number {
  const text = value.trim();
  const n = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

function parseCli(argv: string[]): CliOptions | 'help' {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  const driver = v.driver ?? 'sqlite';
  if (driver !== 'sqlite' && driver !== 'mariadb') {
    throw new UsageError(`--driver must be sqlite or mariadb, got "${driver}"`);
  }
  const db = v.db ?? 'demo_archive';
  if (!/^[A-Za-z0-9_$-]{1,64}$/.test(db)) {
    throw new UsageError(`--db must be 1..64 letters, digits, _ $ or -, got "${db}"`);
  }
  const dir = v.dir ?? './data/publication';
  if (dir.trim() === '') throw new UsageError('--dir must not be empty');
  return {
    interviews: integer('--interviews', v.interviews ?? '200', 1, 10_000_000),
    seed: integer('--seed', v.seed ?? '1', 0, 2 ** 32 - 1),
    driver,
    db,
    dir,
  };
}

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      interviews: { type: 'string' },
      driver: { type: 'string' },
      db: { type: 'string' },
      dir: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function mariadbConnection(env: NodeJS.ProcessEnv): MariadbConnectionOptions {
  const port = env.DB_PORT?.trim() ? integer('DB_PORT', env.DB_PORT, 1, 65535) : 3306;
  const conn: MariadbConnectionOptions = {
    host: env.DB_HOST?.trim() || '127.0.0.1',
    port,
    user: env.DB_USER?.trim() || 'root',
    password: env.DB_PASSWORD ?? '',
  };
  if (env.DB_SOCKET?.trim()) conn.socketPath = env.DB_SOCKET.trim();
  return conn;
}

/** One line on stderr, rewritten in place at most every 200 ms. */
function progressLine(label: string): { update: (done: number, total: number) => void; end: () => void } {
  let last = 0;
  let shown = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (done < total && now - last < 200) return;
      last = now;
      shown = true;
      const pct = total > 0 ? ((done * 100) / total).toFixed(1) : '100.0';
      process.stderr.write(`\r${label}: ${done}/${total} rows (${pct}%)   `);
    },
    end() {
      if (shown) process.stderr.write('\n');
    },
  };
}

function printSummary(target: string, summary: DemoSummary, seconds: number): void {
  const names = Object.keys(summary.tables);
  const width = Math.max(...names.map((n) => n.length));
  const lines = names.map((n) => `  ${n.padEnd(width)}  ${summary.tables[n]}`);
  const total = Object.values(summary.tables).reduce((a, b) => a + b, 0);
  process.stdout.write(`Wrote ${target} in ${seconds.toFixed(1)} s (${total} rows)\n${lines.join('\n')}\n`);
}

async function main(argv: string[]): Promise<number> {
  let options: CliOptions | 'help';
  let conn: MariadbConnectionOptions | null = null;
  try {
    options = parseCli(argv);
    if (options !== 'help' && options.driver === 'mariadb') conn = mariadbConnection(process.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`Error: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  const demo = { interviews: options.interviews, seed: options.seed };
  const started = process.hrtime.bigint();
  let summary: DemoSummary;
  let target: string;
  if (conn) {
    target = `MariaDB database ${options.db} on ${conn.socketPath ?? `${conn.host}:${conn.port}`}`;
    const progress = progressLine(`mariadb ${options.db}`);
    try {
      summary = await writeMariadbDemo(conn, options.db, demo, progress.update);
    } finally {
      progress.end();
    }
  } else {
    target = resolve(join(options.dir, `${options.db}.sqlite`));
    const progress = progressLine(`sqlite ${options.db}`);
    try {
      summary = await writeSqliteDemo(target, demo, progress.update);
    } finally {
      progress.end();
    }
  }
  printSummary(target, summary, Number(process.hrtime.bigint() - started) / 1e9);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
