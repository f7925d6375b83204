import { desc, eq, isNotNull, and } from "drizzle-orm";
import type { AccountSecurityView } from "~/domain/views/account";
import { getDb, type DbOrTx } from "~/server/db/client.server";
import { adminMfa, passkeys } from "~/server/db/schema.server";

/** The account page's security section: whether TOTP is on, and the passkeys (never their keys). */
export async function loadAccountSecurity(userId: string, db: DbOrTx = getDb()): Promise<AccountSecurityView> {
  const [totp] = await db.select({ userId: adminMfa.userId }).from(adminMfa).where(and(eq(adminMfa.userId, userId), isNotNull(adminMfa.enabledAt))).limit(1);
  const keys = await db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(desc(passkeys.createdAt));
  return {
    totpEnabled: Boolean(totp),
    passkeys: keys.map((k) => ({ id: k.id, name: k.name, createdAt: k.createdAt.toISOString(), lastUsedAt: k.lastUsedAt?.toISOString() ?? null })),
  };
}
