/** Passwords are argon2id hashes (Bun.password); the plain text never leaves these functions. */
export const MIN_PASSWORD_LENGTH = 8;
/** argon2 work grows with input; a cap keeps a single request from being expensive. */
export const MAX_PASSWORD_LENGTH = 256;

/** OWASP's argon2id baseline (19 MiB, 2 passes): strong, yet sign-in stays fast on a small server. */
const ARGON2 = { algorithm: "argon2id", memoryCost: 19_456, timeCost: 2 } as const;

export const hashPassword = (password: string): Promise<string> => Bun.password.hash(password, ARGON2);

let decoy: Promise<string> | null = null;

/**
 * Checks a password against a hash. Without a hash (unknown email, a person who never set a
 * password) it still verifies against a decoy hash, so the answer takes as long either way.
 */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    decoy ??= hashPassword("decoy-password-never-matches");
    await Bun.password.verify(password, await decoy).catch(() => false);
    return false;
  }
  return Bun.password.verify(password, hash).catch(() => false);
}
