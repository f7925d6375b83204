import { eq, sql } from "drizzle-orm";
import type { AccountSettingsInput } from "~/domain/validation/account-settings";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import type { Db } from "~/server/platform/db/client.server";
import { profiles, user as userTable } from "~/server/platform/db/schema.server";
import type { SettingsActor } from "./settings-refused.server";

/**
 * Full Name and Phone Number: the profile row and Better Auth's user.name (the header and
 * the e-mails greet by it) change together, in one transaction with the audit row. The audit keeps
 * which fields changed, not their values (the log is read by staff; the values are on the profile).
 */
export async function updateProfile(db: Db, input: AccountSettingsInput<"update-profile">, { actor, request: info }: Caller<SettingsActor>): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .update(profiles)
      .set({ fullName: input.fullName, phone: input.phone, updatedAt: sql`now()` })
      .where(eq(profiles.id, actor.id))
      // The old values, read by the same statement that writes the new ones (no read-then-write): a
      // subquery in RETURNING sees the statement's snapshot, from before the update.
      .returning({ fullName: sql<string>`(select p.full_name from profiles p where p.id = ${actor.id})`, phone: sql<string | null>`(select p.phone from profiles p where p.id = ${actor.id})` });
    // Every account has a profile (made with the user); none means it is being removed: change nothing.
    if (!before) throw new Error("no profile for this account");
    await tx.update(userTable).set({ name: input.fullName, updatedAt: sql`now()` }).where(eq(userTable.id, actor.id));
    const changed = [before.fullName !== input.fullName ? "fullName" : null, before.phone !== input.phone ? "phone" : null].filter(Boolean);
    await writeAudit(tx, { actor, action: "account.update", table: "profiles", recordId: actor.id, details: { changed }, request: info });
  });
}
