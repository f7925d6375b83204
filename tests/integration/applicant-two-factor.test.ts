import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getAuth } from "~/server/accounts/auth.server";
import { confirmEnrolment, disableFactor, startEnrolment, verifySession, type MfaUser } from "~/server/accounts/mfa.server";
import { getOptionalUser, requireUser } from "~/server/accounts/session.server";
import { currentStep, totpAt } from "~/server/accounts/totp.server";
import { adminMfa, auditLog, session } from "~/server/platform/db/schema.server";
import { wrongTotpCode } from "../helpers/admins";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * An applicant's optional Two-Factor Authentication (issue 23): once on, every signed-in page and
 * action (requireUser) sends a session that has not passed it to /auth/two-factor and back, and the
 * session counts as signed out for everything else; a code lets it through. Five wrong codes lock the
 * factor, in parallel too (the staff factor's row lock). Turning it off needs a code or the password.
 */

const PASSWORD = "Str0ng!Passw0rd";
setUpTestConfig("applicant-2fa", { APP_SECRET: "a".repeat(48) });

describe.each(testTargets)("applicant two-factor on %s", (target) => {
  const database = useTestDatabase({ target, global: true, poolSize: 10 });
  const db = () => database().db;
  let n = 0;

  /** A new sign-in: its session (for the factor functions) and its cookie (for the guards). */
  async function signIn(email: string, id: string): Promise<{ user: MfaUser; cookie: string }> {
    const { headers, response } = await getAuth().api.signInEmail({ body: { email, password: PASSWORD }, returnHeaders: true });
    const [row] = await db().select({ id: session.id }).from(session).where(eq(session.token, response.token));
    const cookie = headers.get("set-cookie")!.split(";")[0]!;
    return { user: { id, name: "Tess Totp", email, sessionId: row!.id }, cookie };
  }

  /** An applicant who turned the factor on in one session; returns a second, unverified one. */
  async function applicantWithFactor() {
    const email = `totp-${target}-${++n}@example.com`;
    const created = await getAuth().api.signUpEmail({ body: { email, password: PASSWORD, name: "Tess Totp" } });
    const first = await signIn(email, created.user.id);
    const { secret } = await startEnrolment(first.user, db());
    const enabled = await confirmEnrolment(totpAt(secret, currentStep()), { actor: first.user, request: {} }, db(), "applicant");
    if (!enabled.ok) throw new Error(enabled.message);
    return { ...(await signIn(email, created.user.id)), first, secret, backupCodes: enabled.backupCodes };
  }

  const page = (cookie: string, path = "/dashboard/applications/x?tab=messages") => new Request(`http://localhost${path}`, { headers: { cookie } });

  it("requireUser sends an unverified session to /auth/two-factor (and back), on every page; a code lets it through", async () => {
    const { user, cookie, first, secret } = await applicantWithFactor();
    // The session where it was turned on passed it.
    expect((await requireUser(page(first.cookie))).id).toBe(user.id);

    const redirect = await requireUser(page(cookie)).then(
      () => null,
      (thrown: unknown) => thrown as Response,
    );
    expect(redirect?.status).toBe(302);
    expect(redirect?.headers.get("location")).toBe(`/auth/two-factor?redirectTo=${encodeURIComponent("/dashboard/applications/x?tab=messages")}`);
    // Everything that only asks "who is signed in" sees nobody.
    expect(await getOptionalUser(page(cookie))).toBeNull();
    // The two-factor page itself may look.
    expect((await requireUser(page(cookie), { allowPendingSecondFactor: true })).secondFactorPending).toBe(true);

    // A hostile redirect target is not carried along.
    const hostile = await requireUser(page(cookie, "//evil.example/%09x")).catch((thrown: Response) => thrown);
    expect((hostile as Response).headers.get("location")).toBe(`/auth/two-factor?redirectTo=${encodeURIComponent("/dashboard")}`);

    expect(await verifySession(totpAt(secret, currentStep() + 1), { actor: user, request: {} }, db(), "applicant")).toEqual({ ok: true });
    // The audit log names it an applicant's sign-in code, not a staff event.
    const verified = await db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.tableName, "session_mfa"));
    expect(verified.map((a) => a.action)).toContain("account.mfa_verify");
    expect(verified.map((a) => a.action)).not.toContain("admin.mfa");
    expect((await requireUser(page(cookie))).mfaVerified).toBe(true);
  });

  it("five wrong codes lock the factor, also when sent in parallel; the right code is refused while locked", async () => {
    const { user, secret } = await applicantWithFactor();
    const results = await Promise.all(Array.from({ length: 40 }, () => verifySession(wrongTotpCode(secret), { actor: user, request: {} }, db())));
    expect(results.filter((r) => !r.ok && /not valid/.test(r.message))).toHaveLength(5);
    expect(results.filter((r) => !r.ok && /Too many wrong codes/.test(r.message))).toHaveLength(35);
    expect(await verifySession(totpAt(secret, currentStep() + 1), { actor: user, request: {} }, db())).toMatchObject({ ok: false, message: expect.stringMatching(/Too many/) });
  });

  it("a backup code works once", async () => {
    const { user, backupCodes, first } = await applicantWithFactor();
    expect(await verifySession(backupCodes[0]!, { actor: user, request: {} }, db())).toEqual({ ok: true, usedBackupCode: true });
    expect((await verifySession(backupCodes[0]!, { actor: { ...user, sessionId: first.user.sessionId }, request: {} }, db())).ok).toBe(false);
  });

  it("turning it off needs a right code (a wrong one counts toward the lock) or the checked password; audited", async () => {
    const { user, cookie, secret } = await applicantWithFactor();
    expect((await disableFactor({ code: wrongTotpCode(secret) }, { actor: user, request: {} }, db())).ok).toBe(false);
    const [row] = await db().select({ failed: adminMfa.failedAttempts }).from(adminMfa).where(eq(adminMfa.userId, user.id));
    expect(row!.failed).toBe(1);
    expect(await disableFactor({ passwordVerified: true }, { actor: user, request: {} }, db())).toEqual({ ok: true });
    // Off: the same unverified session now opens every page.
    expect((await requireUser(page(cookie))).id).toBe(user.id);
    const actions = (await db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.actorId, user.id))).map((a) => a.action);
    expect(actions).toContain("account.mfa_enable");
    expect(actions).toContain("account.mfa_disable");
  });
});
