/**
 * The spec's `section_id` rules, in one place for every action: an integer is the record
 * address (negative ones too: -1 is root); a canonical numeric string ("42", "-1") is still
 * coerced but deprecated, so each use is counted and logged; a leading-zero or otherwise opaque
 * string ("007", "tmp_3") is a remote id or a synthetic token and is kept verbatim.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DeprecationCounter } from '../dispatch/deprecations.js';
import { WorkError } from '../dispatch/error-registry.js';

export const NUMERIC_STRING_SECTION_ID = 'section_id_numeric_string';

const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]{0,15})$/;

/** A record address (number) or a verbatim id (string). */
export type SectionId = number | string;

export function parseSectionId(
  value: unknown,
  path: string,
  deps: { deprecations: DeprecationCounter; log: FastifyBaseLogger },
): SectionId {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new WorkError('rqo.invalid_field', `${path} must be an integer`);
    return value;
  }
  if (typeof value !== 'string' || value === '' || value.length > 128) {
    throw new WorkError('rqo.invalid_field', `${path} must be an integer`);
  }
  if (CANONICAL_INTEGER.test(value) && Number.isSafeInteger(Number(value))) {
    deps.deprecations.record(deps.log, NUMERIC_STRING_SECTION_ID, `${path} sent as the string "${value}"`);
    return Number(value);
  }
  return value;
}
