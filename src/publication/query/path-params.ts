/**
 * Validators for values that arrive in the path (today the record id), shared by REST, batch
 * and MCP so each door refuses the same ids with the same message.
 */
import { ValidationError } from '../problems.js';
import { BOUNDS } from './bounds.js';

/** Ids are decimal integers: `007` reads 7; `0`, negatives, fractions and words are refused. */
export function parseRecordId(raw: string): number {
  const n = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < BOUNDS.id.min) {
    throw new ValidationError([
      {
        name: 'id',
        in: 'path',
        detail: `id must be a positive whole number (section_id), got "${raw.slice(0, 40)}"`,
      },
    ]);
  }
  return n;
}
