import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ensureAdmin } from "~/server/accounts/admins.server";
import { getAuth } from "~/server/accounts/auth.server";
import { resetPassword } from "~/server/accounts/flows.server";
import { CODE_TTL_MS, storeCode, verifyAndConsumeCode } from "~/server/accounts/verification-code.server";
import { account, emailOutbox, emailVerificationCodes, profiles, user, userRoles, verification } from "~/server/platform/db/schema.server";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";

/** Account rules that need a clock or direct database access (the HTTP suite covers the rest). */

setUpTestConfig("accounts", { APP_SECRET: "a".repeat(48) });

describe("accounts", () => {
  const database = useTestDatabase({ global: true });
  const meta = { ip: "203.0.113.9", headers: new Headers() };

  it("stores codes hashed, never in clear", async () => {
    await storeCode(database().db, "hash@example.com", "123456");
    const [row] = await database().db.select().from(emailVerificationCodes).where(eq(emailVerificationCodes.email, "hash@example.com"));
    expect(row!.codeHash).not.toContain("123456");
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(CODE_TTL_MS + 1000);
  });

  it("refuses an expired code", async () => {
    const db = database().db;
    await storeCode(db, "late@example.com", "654321");
    await db
      .update(emailVerificationCodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(emailVerificationCodes.email, "late@example.com"));
    expect(await verifyAndConsumeCode(db, "late@example.com", "654321")).toBe(false);
  });

  it("lets exactly one of two simultaneous uses of a code through", async () => {
    const db = database().db;
    await storeCode(db, "race@example.com", "111222");
    const results = await Promise.all([
      verifyAndConsumeCode(db, "race@example.com", "111222"),
      verifyAndConsumeCode(db, "race@example.com", "111222"),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("refuses an expired reset link", async () => {
    const db = database().db;
    await getAuth().api.signUpEmail({ body: { name: "Old Link", email: "old.link@example.com", password: "Str0ng!Passw0rd" } });
    await getAuth().api.requestPasswordReset({ body: { email: "old.link@example.com", redirectTo: "/auth" } });
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, "old.link@example.com"));
    const token = decodeURIComponent(/token=([^\s&]+)/.exec(mail!.textBody)![1]!);
    await db.update(verification).set({ expiresAt: sql`now() - interval '1 second'` });
    const result = await resetPassword({ token, password: "N3w!Password" }, meta);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.toast.title).toBe("Password Update Failed");
  });

  it("create-admin creates an account with a profile and the admin role, and promotes without touching the password", async () => {
    const created = await ensureAdmin(database(), { email: "Boss@Example.com", password: "Adm1n!Secret", name: "Ada Boss" });
    expect(created).toMatchObject({ created: true, promoted: true });
    const roles = await database().db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, created.userId));
    expect(roles).toEqual([{ role: "admin" }]);
    const [profile] = await database().db.select().from(profiles).where(eq(profiles.id, created.userId));
    expect(profile).toMatchObject({ fullName: "Ada Boss", email: "boss@example.com" });

    const again = await ensureAdmin(database(), { email: "boss@example.com", password: "Different!1" });
    expect(again).toMatchObject({ created: false, promoted: false, userId: created.userId });
    const signIn = await getAuth().api.signInEmail({ body: { email: "boss@example.com", password: "Adm1n!Secret" } });
    expect(signIn.user.id).toBe(created.userId);

    await getAuth().api.signUpEmail({ body: { name: "Plain", email: "plain@example.com", password: "Str0ng!Passw0rd" } });
    const promoted = await ensureAdmin(database(), { email: "plain@example.com", password: "ignored" });
    expect(promoted).toMatchObject({ created: false, promoted: true });
    await expect(ensureAdmin(database(), { email: "weak@example.com", password: "weak" })).rejects.toThrow(/Password must/);
  });

  it("stores passwords as argon2id hashes", async () => {
    const [row] = await database()
      .db.select({ password: account.password })
      .from(account)
      .innerJoin(user, eq(user.id, account.userId))
      .where(eq(user.email, "plain@example.com"));
    expect(row!.password).toMatch(/^\$argon2id\$/);
  });
});
