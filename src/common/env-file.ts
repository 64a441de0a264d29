/**
 * Loads a `.env` file into process.env when one exists, without overriding variables that are
 * already set (the real environment always wins). Node 20.12+ ships a parser, so no dependency.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export function loadEnvFile(path = resolve(process.cwd(), '.env')): boolean {
  if (!existsSync(path)) return false;
  const before = { ...process.env };
  process.loadEnvFile(path);
  // loadEnvFile does not override existing keys, but be explicit about the rule we promise.
  for (const [key, value] of Object.entries(before)) process.env[key] = value;
  return true;
}
