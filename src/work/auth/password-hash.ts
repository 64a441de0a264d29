/**
 * Password hashing with Argon2id (PHC string, salt included), using the library's defaults,
 * which follow the OWASP recommendation (19 MiB, 2 passes, 1 lane). Verification reads the
 * parameters from the stored string, so raising them later keeps old hashes valid.
 */
import { Algorithm, hash, verify } from '@node-rs/argon2';

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: Algorithm.Argon2id });
}

/** False for a wrong password and for a stored value that is not an Argon2 hash at all. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  if (!stored.startsWith('$argon2id$')) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
