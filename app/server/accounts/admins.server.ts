import { eq } from "drizzle-orm";
import type { UserRole } from "~/domain/enums";
import { passwordSchema } from "~/domain/validation/password";
import type { Database } from "~/server/platform/db/client.server";
import { user as userTable } from "~/server/platform/db/schema.server";
import { grantStaffRole } from "~/server/staff/index.server";
import { getAuth } from "./auth.server";
import { markEmailVerified } from "./account-records.server";

export type EnsureAdminResult = { userId: string; created: boolean; promoted: boolean };

/**
 * Creates the account (or finds it) and grants the admin role. An existing account keeps its
 * password: promotion never changes credentials.
 */
export async function ensureAdmin(
  database: Database,
  input: { email: string; password: string; name?: string },
): Promise<EnsureAdminResult> {
  return ensureStaff(database, { ...input, role: "admin" });
}

/**
 * Creates the account (or finds it) and grants a staff role (demo staff, scripts, tests).
 * A person holds one staff role: an account that already has one keeps it (`promoted` is false).
 */
export async function ensureStaff(
  database: Database,
  input: { email: string; password: string; name?: string; role: UserRole },
): Promise<EnsureAdminResult> {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`Not an e-mail address: ${input.email}`);
  const db = database.db;
  let [existing] = await db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, email)).limit(1);
  let created = false;
  if (!existing) {
    const password = passwordSchema.safeParse(input.password);
    if (!password.success) throw new Error(password.error.issues[0]!.message);
    const result = await getAuth(database).api.signUpEmail({
      body: { name: input.name?.trim() || (input.role === "admin" ? "Administrator" : "Staff Member"), email, password: input.password },
    });
    existing = { id: result.user.id };
    created = true;
    await markEmailVerified(existing.id, db);
  }
  const promoted = await grantStaffRole(existing.id, input.role, db);
  return { userId: existing.id, created, promoted };
}
