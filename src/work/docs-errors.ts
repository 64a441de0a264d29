/**
 * `npm run docs:errors`: rewrites the error-code table of docs/work-api.md (between its marker
 * comments) from the registry (src/work/dispatch/error-registry.ts). Run it after adding or
 * changing a code; test/work/error-table.test.ts fails until the document matches.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ERROR_TABLE_FILE, withErrorTable } from './dispatch/error-table.js';

const file = resolve(process.argv[2] ?? ERROR_TABLE_FILE);
const before = readFileSync(file, 'utf8');
const after = withErrorTable(before);
if (after === before) {
  console.log(`${file}: error-code table already up to date`);
} else {
  writeFileSync(file, after);
  console.log(`${file}: error-code table rewritten`);
}
