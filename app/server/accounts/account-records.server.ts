import { eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { user as users } from "~/server/platform/db/schema.server";

/** The account row's small acts: find by address, mark the address proven, remove a half-made account. */

/** The id of the account with this e-mail address, compared lowercased (`email` is given lowercased), or null. */
export async function accountIdWithEmail(email: string, db: DbOrTx = getDb()): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
  return row?.id ?? null;
}

/** Marks the account's e-mail address proven (a code or link sent to it was used). */
export async function markEmailVerified(userId: string, db: DbOrTx = getDb()): Promise<void> {
  await db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
}

/** Deletes the account (one whose sign-up or acceptance failed half-way). */
export async function deleteAccount(userId: string, db: DbOrTx = getDb()): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}
