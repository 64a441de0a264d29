/**
 * Secret comparison that takes the same time whatever the input: both sides are hashed to a
 * fixed length first, so neither content nor length leaks through timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** True when `candidate` equals one of `secrets`; every secret is compared, always. */
export function matchesAnySecret(candidate: string, secrets: readonly string[]): boolean {
  const c = digest(candidate);
  let found = false;
  for (const secret of secrets) found = timingSafeEqual(c, digest(secret)) || found;
  return found;
}
