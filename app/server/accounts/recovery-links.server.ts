import { and, eq, isNull, like } from "drizzle-orm";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { emailVerificationCodes, verification } from "~/server/platform/db/schema.server";

/**
 * Links and codes that can recover or re-point an account: Better Auth's password-reset tokens (rows of
 * `verification` named `reset-password:<token>` whose value is the user id; Better Auth has no call that
 * revokes them by user) and the account's unused e-mail codes (a pending Change Email). Each was mailed
 * to an inbox that proved the account at the time it was sent. When the account's e-mail, password or
 * recovery changes, that proof is stale: whoever still reads the old inbox, or knew the old password,
 * must not be able to finish a takeover with something issued before. So changing the e-mail, changing
 * the password and a completed reset all call this, in their own transaction where they have one.
 */

/** Better Auth's identifier prefix for reset tokens (api/routes/password: `reset-password:${token}`). */
export const RESET_TOKEN_PREFIX = "reset-password:";

export type RevokedRecovery = { resetLinks: number; emailCodes: number };

export async function revokeRecoveryLinks(db: DbOrTx, userId: string): Promise<RevokedRecovery> {
  const links = await db
    .delete(verification)
    .where(and(like(verification.identifier, `${RESET_TOKEN_PREFIX}%`), eq(verification.value, userId)))
    .returning({ id: verification.id });
  const codes = await db
    .delete(emailVerificationCodes)
    .where(and(eq(emailVerificationCodes.userId, userId), isNull(emailVerificationCodes.consumedAt)))
    .returning({ id: emailVerificationCodes.id });
  return { resetLinks: links.length, emailCodes: codes.length };
}
