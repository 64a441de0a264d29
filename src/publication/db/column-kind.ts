/**
 * Maps an engine's type name to the behaviour we care about: numbers compare as numbers, text
 * cells may hold JSON. Works for MariaDB names (`int(11) unsigned`, `decimal(10,2)`) and SQLite
 * declared types (`INTEGER`, `TEXT`, or nothing at all).
 */
import type { ColumnKind } from './types.js';

export function columnKind(sqlType: string): ColumnKind {
  const base = sqlType.toLowerCase().trim().split(/[\s(]/)[0] ?? '';
  if (/^(tiny|small|medium|big)?int(eger)?$/.test(base)) return 'integer';
  if (/^(real|float|double|decimal|numeric|dec)$/.test(base)) return 'number';
  if (base === '' || /(char|text|clob|json|enum|set)$/.test(base)) return 'text';
  return 'other';
}
