import { Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * Passwords are stored as argon2id hashes (PHC strings carry their own salt and parameters). The
 * library's defaults (19 MiB, 2 passes, 1 lane) are OWASP's minimum recommendation for argon2id.
 */
export async function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: Algorithm.Argon2id });
}

let decoy: Promise<string> | null = null;

/**
 * Whether the password matches the stored hash. A user without a hash (an unknown email, or an account
 * that has no password) is checked against a decoy hash, so both answers take as long as a real check
 * and the timing does not tell which emails have accounts.
 */
export async function passwordMatches(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    decoy ??= hashPassword('decoy password that no account has');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    // A malformed stored hash matches nothing.
    return false;
  }
}
