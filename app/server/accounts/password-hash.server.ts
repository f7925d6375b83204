import { hash, verify } from "@node-rs/argon2";

/**
 * argon2id with OWASP's baseline parameters (19 MiB, 2 passes, 1 lane) instead of Better Auth's
 * default scrypt at a low cost. The parameters are stored in each hash, so raising them later only
 * affects new hashes.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    // A malformed stored hash is a failed verification, never a 500.
    return false;
  }
}
