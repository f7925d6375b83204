import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { account } from "~/server/platform/db/schema.server";
import { verifyPassword } from "./password-hash.server";

/**
 * Asking a signed-in person for their password again (Change Password, Close My Account, turning
 * two-factor off): the stored argon2id hash if the password matches it, else null. Run it before any
 * transaction (argon2 takes a moment and no lock should wait on it); the caller throttles the tries,
 * and may make its write conditional on the hash still being the one that matched.
 */
export async function matchingPasswordHash(db: DbOrTx, userId: string, password: string): Promise<string | null> {
  const [credential] = await db
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")))
    .limit(1);
  if (!credential?.hash) return null;
  return (await verifyPassword({ hash: credential.hash, password })) ? credential.hash : null;
}
