/**
 * The sources compiled once per test run, for the tests that start the real entry points in a
 * child process (graceful shutdown, two work server processes). `npm test` does not build, and
 * dist/ may be stale or being rebuilt, so they run a private compilation; the first file that
 * asks compiles (about half a minute of tsc), the others wait for it, and the global setup
 * removes the folder at the end of the run. Type errors are the type check's business: only
 * emitted JavaScript matters here, so tsc's exit status is ignored as long as the entry point
 * asked for was written.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** Inside the repository, so the compiled files find node_modules and package.json's "type". */
export const compiledSourcesDir = (runId: string) => join(ROOT, 'dist', `.test-build-${runId}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The compiled path of `entry` (a path under the repository, e.g. 'src/work/main.js'); `runId`
 * is the run's (inject('testRunId')).
 */
export async function compiledEntry(runId: string, entry: string): Promise<string> {
  const out = compiledSourcesDir(runId);
  const done = join(out, '.done');
  const log = join(out, '.log');
  let mine = false;
  try {
    mkdirSync(out, { recursive: false });
    mine = true;
  } catch {
    // Another test file compiles (or has compiled): wait for its mark.
  }
  if (mine) {
    const output = await new Promise<string>((finished) => {
      const tsc = spawn(
        process.execPath,
        [
          join(ROOT, 'node_modules/typescript/bin/tsc'),
          ...['-p', join(ROOT, 'tsconfig.build.json'), '--outDir', out],
          ...['--incremental', 'false', '--sourceMap', 'false'],
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let text = '';
      tsc.stdout.on('data', (b: Buffer) => (text += b.toString()));
      tsc.stderr.on('data', (b: Buffer) => (text += b.toString()));
      tsc.on('close', () => finished(text));
    });
    writeFileSync(log, output);
    writeFileSync(done, '');
  } else {
    for (let waited = 0; !existsSync(done); waited += 250) {
      if (waited > 240_000) throw new Error(`compiling the sources into ${out} did not finish`);
      await sleep(250);
    }
  }
  const path = join(out, entry);
  if (!existsSync(path)) {
    throw new Error(`compiling the sources failed (${path} missing):\n${readFileSync(log, 'utf8')}`);
  }
  return path;
}
