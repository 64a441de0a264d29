import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATEGORIES, ERROR_REGISTRY } from '../../src/work/dispatch/error-registry.js';
import {
  ERROR_TABLE_FILE,
  extractErrorTable,
  renderErrorTable,
  withErrorTable,
} from '../../src/work/dispatch/error-table.js';

const doc = readFileSync(resolve(import.meta.dirname, '../..', ERROR_TABLE_FILE), 'utf8');

describe('the work API error-code table (docs/work-api.md)', () => {
  it('is the table the registry generates (run `npm run docs:errors` after changing codes)', () => {
    const table = extractErrorTable(doc);
    expect(table, `${ERROR_TABLE_FILE} lacks the error-code markers`).toBeDefined();
    expect(table).toBe(renderErrorTable());
  });

  it('has one row per code with its category status, and rewriting is idempotent', () => {
    const rows = renderErrorTable().split('\n').slice(2);
    expect(rows).toHaveLength(Object.keys(ERROR_REGISTRY).length);
    for (const [code, entry] of Object.entries(ERROR_REGISTRY)) {
      expect(
        rows.some((r) =>
          r.startsWith(`| \`${code}\` | ${entry.category} | ${ERROR_CATEGORIES[entry.category]} |`),
        ),
      ).toBe(true);
    }
    const once = withErrorTable(doc);
    expect(withErrorTable(once)).toBe(once);
    expect(
      renderErrorTable({ 'x.y': { category: 'conflict', label_key: 'k', retryable: true, message: 'a|b' } }),
    ).toContain('| `x.y` | conflict | 409 | `k` | yes | a\\|b |');
  });
});
