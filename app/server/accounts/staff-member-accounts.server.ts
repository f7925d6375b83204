import { asc, eq, inArray } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { adminMfa, sessionMfa, user as users } from "~/server/platform/db/schema.server";

/**
 * The account side of staff management (staff/ owns the roles and invitations): the staff list's
 * accounts and what a second-factor reset removes, inside the caller's transaction.
 */

/** Staff members' accounts (name, e-mail, when their second factor was turned on), ordered by name then id. One query. */
export async function staffMemberAccounts(userIds: readonly string[], db: DbOrTx = getDb()) {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: users.id, name: users.name, email: users.email, mfaEnabledAt: adminMfa.enabledAt })
    .from(users)
    .leftJoin(adminMfa, eq(adminMfa.userId, users.id))
    .where(inArray(users.id, [...userIds]))
    .orderBy(asc(users.name), asc(users.id));
}

/** Removes the account's TOTP enrolment and every session's second-factor verification. */
export async function removeSecondFactor(userId: string, tx: DbOrTx): Promise<{ hadEnrolment: boolean; sessionsUnverified: number }> {
  const enrolment = await tx.delete(adminMfa).where(eq(adminMfa.userId, userId)).returning({ userId: adminMfa.userId });
  const verified = await tx.delete(sessionMfa).where(eq(sessionMfa.userId, userId)).returning({ sessionId: sessionMfa.sessionId });
  return { hadEnrolment: enrolment.length > 0, sessionsUnverified: verified.length };
}
