/** Entry point of `npm run work -- <command>` (see cli.ts). */
import { loadEnvFile } from '../common/env-file.js';
import { runWorkCli } from './cli.js';

loadEnvFile();
runWorkCli(process.argv.slice(2), process.env)
  .then((r) => {
    if (r.raw !== undefined) process.stdout.write(r.raw);
    if (r.output !== '') (r.exitCode === 0 ? console.log : console.error)(r.output);
    process.exitCode = r.exitCode;
  })
  .catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
